/** The identities section of an export (version 2): members' sign-in data (password hashes, never passwords). */
import type { EntitySections } from '../../../service.js';
import { findIdentity, saveIdentity } from './identity-store.js';

/** The identities section. */
export const identityEntities: EntitySections = {
  export: ({ store }) => ({
    identities: store.all<{ member_id: string }>('SELECT member_id FROM identities ORDER BY rowid').map((row) => {
      const { memberId, passwordHash, resetRequired, connections } = findIdentity(store, row.member_id);
      return { memberId, passwordHash, resetRequired, connections };
    }),
  }),
  import({ store }, { identities }) {
    for (const identity of identities)
      saveIdentity(store, {
        memberId: identity.memberId,
        passwordHash: identity.passwordHash ?? null,
        resetRequired: identity.resetRequired ?? false,
        connections: (identity.connections ?? []) as { idpConnectionId: string; idpUserId: string }[],
        revision: 1,
      });
  },
};
