/**
 * The key pairs that sign a site's access tokens and webhooks. Making one (RSA-2048: a search for
 * two primes) took 180–770 ms here, most of an in-process emulator's start. An in-process
 * emulator asks for the next pair to be made in the background once it has its own
 * ({@link prepareNextKeyPair}), so the next emulator of the process finds it ready. Each pair is
 * still made at run time for one site and handed out once: no two emulators ever share a
 * private key, and none ships in the package.
 */
import { generateKeyPair, type CryptoKey } from 'jose';

/** The algorithm of a site's key pair. */
export const SIGNING_ALGORITHM = 'RS256';

/** A site's key pair, exportable (the site table keeps it as PEM). */
export interface SigningKeyPair {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

const makeKeyPair = (): Promise<SigningKeyPair> =>
  generateKeyPair(SIGNING_ALGORITHM, { extractable: true, modulusLength: 2048 });

/** The pair made ahead for the next site, if one was asked for and not taken yet. */
let prepared: Promise<SigningKeyPair> | undefined;

/** A new key pair for a new site: the one made ahead when there is one (it is then no one else's), else a fresh one. */
export function newSigningKeyPair(): Promise<SigningKeyPair> {
  const pair = prepared ?? makeKeyPair();
  prepared = undefined;
  return pair;
}

/**
 * Starts making the next site's key pair in the background (libuv's thread pool: the event loop
 * goes on), unless one is already on its way. A failure is left to whoever takes it.
 */
export function prepareNextKeyPair(): void {
  if (prepared) return;
  const pair = makeKeyPair();
  // Taken later, or never: its rejection must not surface as unhandled meanwhile.
  pair.catch(() => undefined);
  prepared = pair;
}
