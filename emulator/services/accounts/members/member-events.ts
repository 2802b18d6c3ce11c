/** Domain events of members (`wix.members.v1.member_created` / `_updated` / `_deleted`). */
import { domainEvent, eventIdentity } from '../../../events.js';
import type { ServiceCall } from '../../../service.js';
import type { Member } from './member-store.js';

const MEMBER_FQDN = 'wix.members.v1.member';

/** Queues the event of a member change; the entity is the FULL member in wire form. */
export function emitMemberEvent(
  call: Pick<ServiceCall, 'emit' | 'caller'>,
  slug: 'created' | 'updated' | 'deleted',
  member: Member,
): void {
  const change =
    slug == 'created'
      ? { createdEvent: { entity: member } }
      : slug == 'updated'
        ? { updatedEvent: { currentEntity: member } }
        : { deletedEvent: { deletedEntity: member } };
  call.emit(domainEvent(MEMBER_FQDN, slug, member.id, change, eventIdentity(call.caller)));
}
