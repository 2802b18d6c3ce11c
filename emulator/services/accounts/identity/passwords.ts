/**
 * Password hashing with scrypt (node:crypto). Only the hash is ever stored; the clear password
 * lives for the length of one request and is never logged.
 */
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { invalidField } from '../../../errors.js';

const KEY_LENGTH = 32;
// N=2^14, r=8, p=1: the parameters RFC 7914 suggests for interactive logins (about 16 MiB, tens of ms).
const COST: ScryptOptions = { N: 16_384, r: 8, p: 1 };
/** Bounds the platform puts on a password (anything longer is refused, not truncated). */
const MIN_LENGTH = 4;
const MAX_LENGTH = 100;

const derive = (password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** Checks a new password against the platform's bounds; `field` names it in the violation. */
export function requireNewPassword(password: unknown, field = 'password'): string {
  if (typeof password != 'string' || !password) throw invalidField(field, 'must not be empty', 'REQUIRED_FIELD');
  if (password.length < MIN_LENGTH || password.length > MAX_LENGTH)
    throw invalidField(field, `must be ${MIN_LENGTH} to ${MAX_LENGTH} characters long`, 'PASSWORD');
  return password;
}

/** The stored form: `scrypt$N$r$p$<salt>$<key>` (base64url), self-describing so the cost can change later. */
const storedForm = (salt: Buffer, key: Buffer) =>
  ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');

/** Hashes a password (off the event loop's thread). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return storedForm(salt, await derive(password, salt, COST));
}

/**
 * Hashes a password synchronously: only for test identities and demo data, written inside a
 * synchronous transaction. `salt` is random unless given (the demo password's is fixed, so that
 * its hash is made once, at build: `emulator/demo-assets.ts`).
 */
export function hashPasswordSync(password: string, salt: Buffer = randomBytes(16)): string {
  return storedForm(salt, scryptSync(password.normalize('NFC'), salt, KEY_LENGTH, COST));
}

/** Whether `password` matches `stored` (constant-time comparison). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, blockSize, parallelization, salt, key] = stored.split('$');
  if (scheme != 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(cost),
    r: Number(blockSize),
    p: Number(parallelization),
  });
  return actual.length == expected.length && timingSafeEqual(actual, expected);
}
