/** Item references: the referring side and the referenced items of the reference methods, checked. */
import { invalid, requireString } from '../input.js';
import { itemIdOf } from '../invoke.js';

/** The ID of an item reference argument (the string itself, or the item's `_id`), checked. */
export const checkedItemId = (reference: unknown, field: string): string => requireString(itemIdOf(reference), field);

/** The referring side of a reference: the reference field and the referring item's ID, checked. */
export const referringSide = (field: unknown, referringItem: unknown) => ({
  referringItemFieldName: requireString(field, 'referringItemFieldName'),
  referringItemId: checkedItemId(referringItem, 'referringItemId'),
});

/** The references from `referringItem`'s `field` to one referenced item or to several; at least one. */
export function referencesOf(field: unknown, referringItem: unknown, referenced: unknown): { list: boolean; references: object[] } {
  const list = Array.isArray(referenced);
  const referencedItems: unknown[] = list ? referenced : [referenced];
  if (referencedItems.length === 0) invalid('referencedItemId', 'given');
  const side = referringSide(field, referringItem);
  return { list, references: referencedItems.map((item) => ({ ...side, referencedItemId: checkedItemId(item, 'referencedItemId') })) };
}
