/**
 * A site's entities, as the SDK reads them (public form), turned back into the wire form the
 * platform sends: the sections of the emulator's export, version 2 (`GET /_emulator/export`, which
 * `--seed` and `POST /_emulator/import` load). No table or column of the emulator is named here:
 * each of its stores reads its own section. Also the anonymization of members.
 */
import { getDataCollection, getMember } from '../generated/operations.js';
import type { ItemReference, SiteExport } from '../emulator/control/api.js';
import type { DataCollection, Item, Member } from '../src/index.js';
import { encodeItemData, toWire } from '../src/wire/index.js';

/** An entity in wire form. */
export type WireEntity = Record<string, unknown>;

/** The sections a pull fills; the others (sign-in data, settings) stay empty. */
export interface PulledEntities {
  collections: WireEntity[];
  /** Collection ID → its items' data. */
  items: Record<string, WireEntity[]>;
  references: ItemReference[];
  members: WireEntity[];
  files: WireEntity[];
}

/** Empty sections, to fill. */
export const emptyEntities = (): PulledEntities => ({
  collections: [],
  items: {},
  references: [],
  members: [],
  files: [],
});

/** The file the emulator imports. */
export function stateFile(entities: PulledEntities, exportedAt: Date): SiteExport {
  return {
    format: 'sitekit-emulator-state',
    version: 2,
    exportedAt: exportedAt.toISOString(),
    ...entities,
    identities: [],
    config: {},
  };
}

/** The wire form of an entity the SDK returned, by the transform tree of the operation that returned it. */
const wireEntity = <T>(field: string, entity: unknown, responseTree: unknown): T =>
  (toWire({ [field]: entity }, responseTree as never) as Record<string, T>)[field]!;

/** A collection as the collections API sends it. */
export const wireCollection = (collection: DataCollection): WireEntity =>
  wireEntity<WireEntity>('collection', collection, getDataCollection.response);

/** An item's data as the items API sends it (`{$date}` dates). */
export const wireItemData = (item: Item): WireEntity => encodeItemData(item) as WireEntity;

/** The references of one multi-reference field of one item, in their order. */
export function itemReferences(
  collectionId: string,
  field: string,
  referringId: string,
  referencedIds: readonly string[],
): ItemReference[] {
  return referencedIds.map((referencedId) => ({
    dataCollectionId: collectionId,
    relationshipName: field,
    referringItemId: referringId,
    referencedItemId: referencedId,
  }));
}

/** A member as the members API sends it. */
export const wireMember = (member: Member): WireEntity => wireEntity<WireEntity>('member', member, getMember.response);

/**
 * A member with its personal data replaced, its ID (and so every reference to it) kept: login
 * email `member-N@example.test`, name `Member N`, slug `member-N`, phones `+1 555 0100`-style
 * numbers, the contact's emails replaced. The copy is built from the fields known not to be
 * personal (IDs, statuses, privacy, dates), not by dropping the personal ones from the site's
 * member: a field the site adds that our model does not know (at the top, in the contact or in the
 * profile) is left behind rather than copied as it is. So addresses, birthdate, company, job
 * title, custom fields, photo, cover and title are dropped.
 */
export function anonymizeMember(member: Member, index: number): Member {
  const email = `member-${index}@example.test`;
  const { contact } = member;
  const anonymous: Member = {
    _id: member._id,
    ...(member.loginEmail !== undefined && { loginEmail: email }),
    loginEmailVerified: member.loginEmailVerified,
    status: member.status,
    contactId: member.contactId,
    privacyStatus: member.privacyStatus,
    activityStatus: member.activityStatus,
    _createdDate: member._createdDate,
    _updatedDate: member._updatedDate,
    lastLoginDate: member.lastLoginDate,
    profile: { nickname: `Member ${index}`, slug: `member-${index}` },
  };
  if (contact) {
    anonymous.contact = {
      contactId: contact.contactId,
      firstName: 'Member',
      lastName: String(index),
      ...(contact.phones && {
        phones: contact.phones.map((_, n) => `+1 555 ${String((index * 10 + n) % 10_000).padStart(4, '0')}`),
      }),
      ...(contact.emails && {
        emails: contact.emails.map((_, n) => (n === 0 ? email : `member-${index}-${n}@example.test`)),
      }),
    };
  }
  return JSON.parse(JSON.stringify(anonymous), reviveDates) as Member;
}

/** `JSON.parse` reviver that brings back the dates JSON turned into strings (the copy drops `undefined` keys). */
const DATE_KEYS = new Set(['_createdDate', '_updatedDate', 'lastLoginDate', 'createdDate', 'updatedDate']);
function reviveDates(key: string, value: unknown): unknown {
  return DATE_KEYS.has(key) && typeof value === 'string' ? new Date(value) : value;
}

/**
 * A media file descriptor as the site sent it (wire form: the SDK's public form keeps a media
 * reference as a `wix:image://` string, without the URL the site gave). Its URLs are kept as they
 * are; when the site is an emulator they are made relative again (it answers with its own origin).
 */
export const wireFile = (file: WireEntity, siteOrigin: string): WireEntity =>
  relativeMediaUrls(file, `${siteOrigin}/_media/`) as WireEntity;

function relativeMediaUrls(value: unknown, prefix: string): unknown {
  if (typeof value === 'string') return value.startsWith(prefix) ? `/_media/${value.slice(prefix.length)}` : value;
  if (Array.isArray(value)) return value.map((entry) => relativeMediaUrls(entry, prefix));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, relativeMediaUrls(entry, prefix)]));
  return value;
}
