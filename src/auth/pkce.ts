/**
 * PKCE (RFC 7636): a random verifier and its S256 challenge. Synchronous on purpose:
 * `generateOAuthData` returns a plain object in the official SDK, and ported code stores it at
 * once (`JSON.stringify(generateOAuthData(...))`), while `crypto.subtle.digest` only exists as a
 * promise. So SHA-256 is computed here, in a few hundred bytes; randomness comes from
 * `crypto.getRandomValues` (browsers and Node 20).
 */
import { RequestError } from '../errors/index.js';
import { base64UrlBytes } from '../http/query.js';
import type { OAuthData } from './types.js';

/** `length` random characters from letters, digits, `-` and `_`. */
export const randomString = (length: number): string =>
  base64UrlBytes(crypto.getRandomValues(new Uint8Array(length))).slice(0, length);

/** Rotates right (shift counts are taken mod 32, so `<< -n` is `<< 32 - n`). */
const rotr = (x: number, n: number) => (x >>> n) | (x << -n);

/**
 * SHA-256 (FIPS 180-4) of the UTF-8 bytes of `text`. The constants are derived from primes, not
 * tabled: the first 32 bits of the fractional parts of their square and cube roots (`| 0` keeps
 * the low 32 bits of the integer part of `root * 2 ** 32`, which are exactly those bits).
 */
export function sha256(text: string): Uint8Array {
  let H: number[] = [];
  const K: number[] = [];
  const W: number[] = [];
  const message = new TextEncoder().encode(text);
  const length = message.length;
  const padded = new Uint8Array((length + 72) & -64);
  const view = new DataView(padded.buffer);
  padded.set(message);
  padded[length] = 128;
  // The message, a 1 bit, zeros, and the bit length in the last 4 bytes (of 8), in whole 64-byte blocks.
  view.setUint32(padded.length - 4, length * 8);
  for (let n = 2, d; K.length < 64; n++) {
    for (d = 2; n % d; d++);
    if (d == n) {
      if (H.length < 8) H.push((n ** 0.5 * 2 ** 32) | 0);
      K.push((n ** (1 / 3) * 2 ** 32) | 0);
    }
  }
  for (let j = 0; j < padded.length; j += 64) {
    let v = H; // the working variables a to h
    for (let t = 0; t < 64; t++) {
      const x = W[t - 15]!;
      const y = W[t - 2]!;
      const [a, b, c, d, e, f, g, h] = v as [number, number, number, number, number, number, number, number];
      // The message schedule W[t] is computed where the round first uses it.
      const t1 =
        h +
        (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) +
        ((e & f) ^ (~e & g)) +
        K[t]! +
        (W[t] =
          t < 16
            ? view.getInt32(j + 4 * t)
            : (W[t - 16]! +
                (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) +
                W[t - 7]! +
                (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10))) |
              0);
      v = [
        (t1 + (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0,
        a,
        b,
        c,
        (d + t1) | 0,
        e,
        f,
        g,
      ];
    }
    H = H.map((x, i) => (x + v[i]!) | 0);
  }
  H.forEach((x, i) => view.setInt32(4 * i, x));
  return padded.slice(0, 32);
}

/**
 * A PKCE pair: a verifier of `length` characters (43 to 128, default 43) and its S256 challenge.
 *
 * @example
 * ```ts
 * const { codeVerifier, codeChallenge } = generatePKCE(64);
 * ```
 */
export function generatePKCE(length = 43): { codeVerifier: string; codeChallenge: string } {
  if (!(length >= 43 && length <= 128))
    throw new RequestError(`Expected a length between 43 and 128. Received ${length}.`, { field: 'length' });
  const codeVerifier = randomString(length);
  return { codeVerifier, codeChallenge: base64UrlBytes(sha256(codeVerifier)) };
}

/** What a redirect sign-in keeps until the user comes back: a PKCE pair, a random state, and where to return. */
export function createOAuthData(redirectUri: string, originalUri = ''): OAuthData {
  return { ...generatePKCE(), state: randomString(43), redirectUri, originalUri };
}
