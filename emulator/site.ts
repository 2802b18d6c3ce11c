/**
 * A site's identity: ids, API key, OAuth client and the RSA key pair that signs access tokens and
 * webhooks. Created when the site is (the default site: on first start), then read back from its
 * store, so a restarted emulator keeps accepting the tokens and keys it handed out.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { importPKCS8, importSPKI, type CryptoKey } from 'jose';
import { SIGNING_ALGORITHM } from './auth/key-pairs.js';
import type { Migration, Store } from './store/store.js';

/** A site, as `/_emulator/info` shows it (plus the private key, never shown). */
export interface SiteIdentity {
  siteId: string;
  /** The site owner's id: `_owner` of items written with the API key. */
  ownerId: string;
  /** Makes its caller elevated (admin). */
  apiKey: string;
  /** The site's OAuth client (visitors and members). */
  clientId: string;
  /** SPKI PEM of the key pair: verifies access tokens and webhooks. */
  publicKeyPem: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

/** The site identity table (kept by reset, export and import). */
export const siteMigrations: Migration[] = [
  { id: 'core-001-site', sql: 'CREATE TABLE site (key TEXT PRIMARY KEY, value TEXT NOT NULL)' },
];

/** A key pair in PEM form, as a site's identity keeps it. */
export interface KeyPairPems {
  privateKeyPem: string;
  publicKeyPem: string;
}

/** The algorithm of the site's key pair (declared beside the key pairs' making). */
export { SIGNING_ALGORITHM };

/** A site's identity as its store keeps it (the `site` table: key → value). */
export type IdentityValues = Record<string, string>;

/** The identity values of a new site: fresh ids and API key, the given key pair. */
export function newIdentityValues(keys: KeyPairPems): IdentityValues {
  return {
    siteId: randomUUID(),
    ownerId: randomUUID(),
    // A recognisable prefix, so a leaked emulator key is obviously not a production one.
    apiKey: `emulator.${randomBytes(24).toString('base64url')}`,
    clientId: randomUUID(),
    privateKeyPem: keys.privateKeyPem,
    publicKeyPem: keys.publicKeyPem,
  };
}

/**
 * Reads the site's identity from its store; a store without one gets `newIdentity()` (asked for
 * only then: its key pair takes a while to make).
 */
export async function loadSiteIdentity(
  store: Store,
  newIdentity: () => Promise<IdentityValues>,
): Promise<SiteIdentity> {
  const rows = store.all<{ key: string; value: string }>('SELECT key, value FROM site');
  let values: IdentityValues = Object.fromEntries(rows.map((row) => [row.key, row.value]));
  if (!values.siteId) {
    values = await newIdentity();
    const written = values;
    store.transaction(() => {
      for (const [key, value] of Object.entries(written))
        store.run('INSERT INTO site (key, value) VALUES (?, ?)', [key, value]);
    });
  }
  return {
    siteId: values.siteId!,
    ownerId: values.ownerId!,
    apiKey: values.apiKey!,
    clientId: values.clientId!,
    publicKeyPem: values.publicKeyPem!,
    privateKey: await importPKCS8(values.privateKeyPem!, SIGNING_ALGORITHM),
    publicKey: await importSPKI(values.publicKeyPem!, SIGNING_ALGORITHM),
  };
}
