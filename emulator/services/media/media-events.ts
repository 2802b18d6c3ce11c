/** Domain events of media files (`wix.media.site_media.v1.file_descriptor_*`). */
import { domainEvent, type DomainEvent } from '../../events.js';
import type { EmulatorContext } from '../../service.js';
import { wireFile, type FileDescriptor } from './file-store.js';

const FILE_FQDN = 'wix.media.site_media.v1.file_descriptor';

/** The event of a file change: `updated` and `deleted` carry the entity; `file_ready` and `file_failed` are actions with `{file, externalInfo}`. */
export function fileEvent(
  context: EmulatorContext,
  slug: 'updated' | 'deleted' | 'file_ready' | 'file_failed',
  file: FileDescriptor,
  externalInfo?: Record<string, unknown>,
  identity?: Record<string, unknown>,
): DomainEvent {
  const entity = wireFile(context, file);
  const change =
    slug == 'updated'
      ? { updatedEvent: { currentEntity: entity } }
      : slug == 'deleted'
        ? { deletedEvent: { deletedEntity: entity } }
        : { actionEvent: { body: { file: entity, ...(externalInfo ? { externalInfo } : {}) } } };
  return domainEvent(FILE_FQDN, slug, file.id, change, identity);
}
