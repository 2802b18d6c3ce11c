/** The domain event types the platform sends (wire.md, "Domain events"): no imports, so the CLI can list them. */

export const ITEM_FQDN = 'wix.data.v2.data_item';
export const COLLECTION_FQDN = 'wix.data.v2.data_collection';
export const MEMBER_FQDN = 'wix.members.v1.member';
export const FILE_FQDN = 'wix.media.site_media.v1.file_descriptor';

/** Every event type the platform sends, each of which `POST /_emulator/webhooks/trigger` can send. */
export const TRIGGER_EVENT_TYPES: readonly string[] = [
  ...['created', 'updated', 'deleted'].map((slug) => `${ITEM_FQDN}_${slug}`),
  ...['created', 'updated', 'deleted', 'changed', 'cloned'].map((slug) => `${COLLECTION_FQDN}_${slug}`),
  ...['created', 'updated', 'deleted'].map((slug) => `${MEMBER_FQDN}_${slug}`),
  ...['file_ready', 'file_failed', 'updated', 'deleted'].map((slug) => `${FILE_FQDN}_${slug}`),
];
