/**
 * A site's entities, as the SDK reads them (public form), turned into the rows of the emulator's
 * state tables (the `GET /_emulator/export` format that `--seed` and `POST /_emulator/import`
 * load): back to the wire form the emulator stores, with the columns each table indexes. Also the
 * anonymization of members. Kept in step with the emulator's stores (data/collection-store.ts,
 * data/items/item-store.ts, members/member-store.ts, media/file-store.ts): the round trip test
 * (test/cli/pull.test.ts) fails when they part.
 */
import { getDataCollection, getMember } from '../generated/operations.js';
import type { DataCollection, Item, Member } from '../src/index.js';
import { encodeItemData, toWire } from '../src/wire/index.js';
import type { StateExport } from '../emulator/control/state.js';

/** One row of a state table: column → value. */
export type StateRow = Record<string, string | number | null>;

/** The tables a pull fills; every other table of the emulator is left empty by the import. */
export interface PulledTables {
  collections: StateRow[];
  items: StateRow[];
  item_references: StateRow[];
  members: StateRow[];
  media_files: StateRow[];
}

/** Empty tables, to fill. */
export const emptyTables = (): PulledTables => ({
  collections: [],
  items: [],
  item_references: [],
  members: [],
  media_files: [],
});

/** The file the emulator imports. */
export function stateFile(tables: PulledTables, exportedAt: Date): StateExport {
  return { format: 'sitekit-emulator-state', version: 1, exportedAt: exportedAt.toISOString(), tables: { ...tables } };
}

/** The wire form of an entity the SDK returned, by the transform tree of the operation that returned it. */
const wireEntity = <T>(field: string, entity: unknown, responseTree: unknown): T =>
  (toWire({ [field]: entity }, responseTree as never) as Record<string, T>)[field]!;

/** A `collections` row. */
export function collectionRow(collection: DataCollection): StateRow {
  const wire = wireEntity<{ id: string; createdDate: string }>('collection', collection, getDataCollection.response);
  return { id: wire.id, body: JSON.stringify(wire), created_date: wire.createdDate };
}

/** An `items` row: the item's data in wire form (`{$date}` dates), with the default order's and ownership's columns. */
export function itemRow(collectionId: string, item: Item): StateRow {
  const data = encodeItemData(item) as Record<string, unknown> & { _id: string };
  const created = (data._createdDate as { $date?: string } | undefined)?.$date ?? new Date(0).toISOString();
  return {
    collection_id: collectionId,
    id: data._id,
    data: JSON.stringify(data),
    created_date: created,
    owner: typeof data._owner === 'string' ? data._owner : null,
  };
}

/** The `item_references` rows of one multi-reference field of one item, in their order. */
export function referenceRows(
  collectionId: string,
  field: string,
  referringId: string,
  referencedIds: readonly string[],
): StateRow[] {
  return referencedIds.map((referencedId, position) => ({
    collection_id: collectionId,
    field,
    referring_id: referringId,
    referenced_id: referencedId,
    position,
  }));
}

/** A `members` row. */
export function memberRow(member: Member): StateRow {
  const wire = wireEntity<{ id: string; loginEmail?: string; createdDate: string; profile?: { slug?: string } }>(
    'member',
    member,
    getMember.response,
  );
  return {
    id: wire.id,
    // The emulator compares login emails as the platform does: trimmed and lowercased.
    login_email: wire.loginEmail ? wire.loginEmail.trim().toLowerCase() : null,
    slug: wire.profile?.slug ?? wire.id,
    created_at: wire.createdDate,
    data: JSON.stringify(wire),
  };
}

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
 * A `media_files` row, from the descriptor as the site sent it (wire form: the SDK's public form
 * keeps a media reference as a `wix:image://` string, without the URL the site gave). Its URLs are
 * kept as they are; when the site is an emulator they are made relative again (it stores
 * `/_media/...` paths and answers with its own origin).
 */
export function mediaRow(file: Record<string, unknown>, siteOrigin: string): StateRow {
  const stored = relativeMediaUrls(file, `${siteOrigin}/_media/`) as Record<string, unknown>;
  return {
    id: stored.id as string,
    state: (stored.state as string | undefined) ?? 'OK',
    display_name: (stored.displayName as string | undefined) ?? '',
    size: Number(stored.sizeInBytes ?? 0),
    media_type: (stored.mediaType as string | undefined) ?? 'UNKNOWN',
    private: stored.private ? 1 : 0,
    // Files the API key wrote are the owner's; the emulator keeps no other uploader a copy could name.
    uploader: 'owner',
    created_at: stored.createdDate as string,
    updated_at: stored.updatedDate as string,
    data: JSON.stringify(stored),
  };
}

function relativeMediaUrls(value: unknown, prefix: string): unknown {
  if (typeof value === 'string') return value.startsWith(prefix) ? `/_media/${value.slice(prefix.length)}` : value;
  if (Array.isArray(value)) return value.map((entry) => relativeMediaUrls(entry, prefix));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, relativeMediaUrls(entry, prefix)]));
  return value;
}
