/**
 * The event table: for each namespace, the event-type prefix (`<entityFqdn>_`), the entity's
 * name in the `on...` methods and the slugs. Everything else is derived: the event type is
 * prefix + slug, the method `on` + entity + PascalCase slug (e.g. `onFileDescriptorFileReady`).
 * Kept to strings so the eagerly loaded registry stays small; the transform trees live in the
 * lazily loaded processing module.
 */
import type { NamespaceEvents } from './types.js';

/** A namespace that has events. */
export type Namespace = keyof NamespaceEvents;

const TABLE: readonly (readonly [Namespace, string, string, string])[] = [
  ['collections', 'wix.data.v2.data_collection_', 'DataCollection', 'created updated deleted changed cloned'],
  ['items', 'wix.data.v2.data_item_', 'DataItem', 'created updated deleted'],
  ['media', 'wix.media.site_media.v1.file_descriptor_', 'FileDescriptor', 'updated deleted file_ready file_failed'],
  ['members', 'wix.members.v1.member_', 'Member', 'created updated deleted'],
];

/** Every known event type → `[namespace, on... method name]`. A Map, so `constructor` is never a known type. */
export const EVENTS = new Map<string, readonly [Namespace, string]>();
for (const [namespace, prefix, entity, slugs] of TABLE) {
  for (const slug of slugs.split(' ')) {
    EVENTS.set(prefix + slug, [namespace, `on${entity}${slug.replace(/(?:^|_)(.)/g, (_, c: string) => c.toUpperCase())}`]);
  }
}
