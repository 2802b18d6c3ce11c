/**
 * PKCE (RFC 7636): a random verifier and its S256 challenge, the base64url SHA-256 of the
 * verifier. The digest is WebCrypto's `crypto.subtle.digest` (browsers in a secure context, Node
 * 20); where a page has no `crypto.subtle` (plain http from a host other than localhost), our own
 * SHA-256 (./sha256.ts) instead. Randomness comes from `crypto.getRandomValues`, which every page
 * has. Part of the redirect flow's chunk (./redirect-flow.ts), loaded on first use.
 */
import { RequestError } from '../errors/index.js';
import { base64UrlBytes } from '../http/query.js';
import { sha256 } from './sha256.js';
import type { OAuthData } from './types.js';

/** `length` random characters from letters, digits, `-` and `_`. */
export const randomString = (length: number): string =>
  base64UrlBytes(crypto.getRandomValues(new Uint8Array(length))).slice(0, length);

/** The SHA-256 digest of `bytes`: WebCrypto's where the page has it, else ours. */
async function sha256Digest(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle?.digest) return new Uint8Array(await subtle.digest('SHA-256', bytes));
  return sha256(bytes);
}

/** The S256 code challenge of `codeVerifier`: base64url (no padding) of the SHA-256 of its ASCII bytes. */
export async function codeChallengeOf(codeVerifier: string): Promise<string> {
  return base64UrlBytes(await sha256Digest(new TextEncoder().encode(codeVerifier)));
}

/**
 * A PKCE pair: a verifier of `length` characters (a whole number from 43 to 128, default 43) and its S256 challenge.
 *
 * @example
 * ```ts
 * const { codeVerifier, codeChallenge } = await generatePKCE(64);
 * ```
 */
export async function generatePKCE(length = 43): Promise<{ codeVerifier: string; codeChallenge: string }> {
  if (!(Number.isInteger(length) && length >= 43 && length <= 128))
    throw new RequestError(`Expected a length between 43 and 128. Received ${length}.`, { field: 'length' });
  const codeVerifier = randomString(length);
  return { codeVerifier, codeChallenge: await codeChallengeOf(codeVerifier) };
}

/** What a redirect sign-in keeps until the user comes back: a PKCE pair, a random state, and where to return. */
export async function createOAuthData(redirectUri: string, originalUri = ''): Promise<OAuthData> {
  return { ...(await generatePKCE()), state: randomString(43), redirectUri, originalUri };
}
