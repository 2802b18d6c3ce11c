/**
 * What an imported row's columns must hold beyond their SQL type: the columns the services read
 * with `JSON.parse` (and which JSON), and the columns that hold a collection's or an entity's id.
 * SQLite keeps whatever it is given in a TEXT column, so without these an imported item whose
 * `data` is `not json` was stored and made every read of it a 500. Kept in step with the stores'
 * migrations: a table or column named here that the store does not have fails
 * test/emulator/control/import-validation.test.ts.
 */

/**
 * What one column holds: `json` any JSON value, `jsonObject` a JSON object, `jsonArray` a JSON
 * array, `collectionId` a collection id the platform accepts, `entityId` the id of an item, a
 * member or a media file.
 */
export type ColumnContent = 'json' | 'jsonObject' | 'jsonArray' | 'collectionId' | 'entityId';

/** Table → column → what it holds, for the columns whose SQL type does not say enough. */
export const STATE_COLUMN_CONTENTS: Readonly<Record<string, Readonly<Record<string, ColumnContent>>>> = {
  auth_secrets: { member_id: 'entityId', data: 'jsonObject' },
  collections: { id: 'collectionId', body: 'jsonObject' },
  config: { value: 'json' },
  identities: { member_id: 'entityId', connections: 'jsonArray' },
  item_references: { collection_id: 'collectionId', referring_id: 'entityId', referenced_id: 'entityId' },
  items: { collection_id: 'collectionId', id: 'entityId', data: 'jsonObject' },
  media_files: { id: 'entityId', data: 'jsonObject' },
  media_uploads: { request: 'jsonObject' },
  members: { id: 'entityId', data: 'jsonObject' },
  redirect_sessions: { session: 'jsonObject' },
  webhook_events: { event: 'jsonObject' },
};
