/**
 * Secrets handed to clients (session tokens, state tokens, recovery tokens, authorization codes,
 * browser sessions): random, stored only as their SHA-256, each with a purpose, an owner, an
 * expiry and, once spent, the time it was used. One table and one helper for all of them.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EmulatorContext } from '../../../service.js';
import type { Migration } from '../../../store/store.js';

/** What the secret helpers read: the store, and the clock their expiry follows. */
export type SecretScope = Pick<EmulatorContext, 'store' | 'clock'>;

/** What a secret is for; a secret of one purpose never passes for another. */
export type SecretPurpose = 'session' | 'state' | 'recovery' | 'authorization-code' | 'browser-session';

/** A stored secret (never the secret itself). */
export interface StoredSecret<Data = Record<string, unknown>> {
  memberId: string;
  /** Whatever the purpose needs: the verification code's hash, the PKCE challenge... */
  data: Data;
  createdAt: string;
  expiresAt: string;
}

export const secretMigrations: Migration[] = [
  {
    id: 'identity-001-secrets',
    sql: `CREATE TABLE auth_secrets (
      secret_hash TEXT PRIMARY KEY,
      purpose TEXT NOT NULL,
      member_id TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at TEXT
    );
    CREATE INDEX auth_secrets_by_member ON auth_secrets (member_id, purpose)`,
  },
];

/** The stored form of a secret (also of short codes). */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

interface SecretRow {
  member_id: string;
  data: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Creates a secret; returns it (the only time it exists in clear). */
export function issueSecret(
  scope: SecretScope,
  purpose: SecretPurpose,
  memberId: string,
  lifetimeSeconds: number,
  data: object = {},
): string {
  const secret = `${purpose}.${randomBytes(32).toString('base64url')}`;
  const now = scope.clock.now();
  scope.store.run(
    'INSERT INTO auth_secrets (secret_hash, purpose, member_id, data, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
    [
      hashSecret(secret),
      purpose,
      memberId,
      JSON.stringify(data),
      new Date(now).toISOString(),
      new Date(now + lifetimeSeconds * 1000).toISOString(),
    ],
  );
  return secret;
}

/** Why a secret was refused. */
export type SecretProblem = 'unknown' | 'used' | 'expired';

/** The secret's record while it is usable, else why not. Reads only: spending is {@link spendSecret}. */
export function readSecret<Data = Record<string, unknown>>(
  scope: SecretScope,
  purpose: SecretPurpose,
  secret: unknown,
): StoredSecret<Data> | SecretProblem {
  if (typeof secret != 'string' || !secret) return 'unknown';
  const row = scope.store.get<SecretRow>(
    'SELECT member_id, data, created_at, expires_at, used_at FROM auth_secrets WHERE secret_hash = ? AND purpose = ?',
    [hashSecret(secret), purpose],
  );
  if (!row) return 'unknown';
  if (row.used_at) return 'used';
  if (Date.parse(row.expires_at) <= scope.clock.now()) return 'expired';
  return {
    memberId: row.member_id,
    data: JSON.parse(row.data) as Data,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** Marks a secret used: it never works again. */
export function spendSecret(scope: SecretScope, purpose: SecretPurpose, secret: string): void {
  scope.store.run('UPDATE auth_secrets SET used_at = ? WHERE secret_hash = ? AND purpose = ? AND used_at IS NULL', [
    scope.clock.iso(),
    hashSecret(secret),
    purpose,
  ]);
}

/** Replaces the data of a usable secret (a re-sent verification code). */
export function updateSecretData(scope: SecretScope, purpose: SecretPurpose, secret: string, data: object): void {
  scope.store.run('UPDATE auth_secrets SET data = ? WHERE secret_hash = ? AND purpose = ?', [
    JSON.stringify(data),
    hashSecret(secret),
    purpose,
  ]);
}

/** Ends every unspent secret of a member (of some purposes): blocked, deleted, password changed. */
export function revokeSecrets(scope: SecretScope, memberId: string, purposes: readonly SecretPurpose[]): void {
  const marks = purposes.map(() => '?').join(', ');
  scope.store.run(
    `UPDATE auth_secrets SET used_at = ? WHERE member_id = ? AND used_at IS NULL AND purpose IN (${marks})`,
    [scope.clock.iso(), memberId, ...purposes],
  );
}
