/**
 * Identities: the sign-in side of a member (password hash, whether a reset is required, external
 * provider connections). Every identity is a member with the same id; the member row holds the
 * login email, its verification and the status.
 */
import type { Migration, Store } from '../../../store/store.js';
import type { Member } from '../members/member-store.js';

/** The sign-in side of a member. */
export interface Identity {
  memberId: string;
  /** scrypt hash; `null` for members created without a password (they set one from an activation email). */
  passwordHash: string | null;
  /** A password reset is required before the next login (`-19973`). */
  resetRequired: boolean;
  /** External identity-provider connections: `{idpConnectionId, idpUserId}`. */
  connections: { idpConnectionId: string; idpUserId: string }[];
  revision: number;
}

export const identityMigrations: Migration[] = [
  {
    id: 'identity-002-identities',
    sql: `CREATE TABLE identities (
      member_id TEXT PRIMARY KEY,
      password_hash TEXT,
      reset_required INTEGER NOT NULL DEFAULT 0,
      connections TEXT NOT NULL DEFAULT '[]',
      revision INTEGER NOT NULL DEFAULT 1
    )`,
  },
];

interface IdentityRow {
  member_id: string;
  password_hash: string | null;
  reset_required: number;
  connections: string;
  revision: number;
}

/** The identity of a member (members created by an admin have one without a password). */
export function findIdentity(store: Store, memberId: string): Identity {
  const row = store.get<IdentityRow>('SELECT * FROM identities WHERE member_id = ?', [memberId]);
  if (!row) return { memberId, passwordHash: null, resetRequired: false, connections: [], revision: 1 };
  return {
    memberId,
    passwordHash: row.password_hash,
    resetRequired: row.reset_required == 1,
    connections: JSON.parse(row.connections),
    revision: row.revision,
  };
}

/** Writes an identity, bumping its revision. */
export function saveIdentity(store: Store, identity: Identity): void {
  store.run(
    `INSERT INTO identities (member_id, password_hash, reset_required, connections, revision) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (member_id) DO UPDATE SET password_hash = excluded.password_hash, reset_required = excluded.reset_required,
       connections = excluded.connections, revision = identities.revision + 1`,
    [identity.memberId, identity.passwordHash, identity.resetRequired ? 1 : 0, JSON.stringify(identity.connections)],
  );
}

/** Forgets a member's identity (the member was deleted). */
export function deleteIdentity(store: Store, memberId: string): void {
  store.run('DELETE FROM identities WHERE member_id = ?', [memberId]);
}

const IDENTITY_STATUS: Record<Member['status'], string> = {
  PENDING: 'PENDING',
  APPROVED: 'ACTIVE',
  BLOCKED: 'BLOCKED',
  OFFLINE: 'OFFLINE',
};

/** The identity as the identity services answer it (`Identity` of the schema). */
export function wireIdentity(
  member: Member,
  identity: Identity,
  emailVerificationRequired: boolean,
): Record<string, unknown> {
  const reasons: string[] = [];
  if (member.status == 'PENDING') reasons.push('PENDING_ADMIN_APPROVAL_REQUIRED');
  if (emailVerificationRequired && !member.loginEmailVerified) reasons.push('PENDING_EMAIL_VERIFICATION_REQUIRED');
  const contact = member.contact as {
    firstName?: string;
    lastName?: string;
    emails?: string[];
    phones?: string[];
    addresses?: Record<string, unknown>[];
  };
  const emails = contact.emails ?? [];
  const phones = contact.phones ?? [];
  return {
    id: member.id,
    identifiers: member.loginEmail ? [{ email: member.loginEmail }] : [],
    revision: String(identity.revision),
    createdDate: member.createdDate,
    updatedDate: member.updatedDate,
    connections: identity.connections.map((connection) => ({ idpConnection: connection })),
    identityProfile: {
      ...(member.profile.nickname ? { nickname: member.profile.nickname } : {}),
      ...(contact.firstName ? { firstName: contact.firstName } : {}),
      ...(contact.lastName ? { lastName: contact.lastName } : {}),
      privacyStatus: member.privacyStatus,
      // The lists the official types promise, always there: the member's contact lists (untagged:
      // a member's contact does not tag them), and no labels or custom fields (the emulator keeps none).
      emails,
      phones,
      secondaryEmails: emails.map((email) => ({ email, tag: 'UNTAGGED' })),
      phonesV2: phones.map((phone) => ({ phone, tag: 'UNTAGGED' })),
      addresses: (contact.addresses ?? []).map((address) => ({ address, tag: 'UNTAGGED' })),
      labels: [],
      customFields: [],
    },
    ...(member.loginEmail ? { email: { address: member.loginEmail, isVerified: member.loginEmailVerified } } : {}),
    status: {
      name: reasons.length && member.status == 'APPROVED' ? 'PENDING' : IDENTITY_STATUS[member.status],
      reasons,
    },
    factors: identity.passwordHash ? [{ factorId: `${member.id}-password`, type: 'PASSWORD', status: 'ACTIVE' }] : [],
  };
}
