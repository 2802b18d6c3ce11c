/** The members section of an export (version 2): members as the members API answers them (FULL). */
import { invalidField } from '../../../errors.js';
import type { EntitySections } from '../../../service.js';
import { checkStoredValue, isRecord } from '../../../untrusted-json.js';
import { entityIdProblem } from '../../../control/state-rows.js';
import { saveMember, type Member } from './member-store.js';

/** The members section. */
export const memberEntities: EntitySections = {
  export: ({ store }) => ({
    members: store
      .all<{ data: string }>('SELECT data FROM members ORDER BY rowid')
      .map((row) => JSON.parse(row.data) as Record<string, unknown>),
  }),
  import({ store }, { members }) {
    members.forEach((member, index) => {
      const at = `members.${index}`;
      const problem = typeof member.id == 'string' ? entityIdProblem(member.id) : 'must be a member id';
      if (problem) throw invalidField(`${at}.id`, problem);
      if (!isRecord(member.profile) || typeof member.profile.slug != 'string')
        throw invalidField(`${at}.profile.slug`, 'must be the member slug', 'REQUIRED_FIELD');
      if (typeof member.createdDate != 'string') throw invalidField(`${at}.createdDate`, 'must be an ISO time');
      checkStoredValue(member, at);
      saveMember(store, member as unknown as Member);
    });
  },
};
