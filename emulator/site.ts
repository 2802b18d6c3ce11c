/**
 * The demo site's identity: ids, API key, OAuth client and the RSA key pair that signs access
 * tokens and (part 2) webhooks. Created on first start, then read back from the store, so a
 * restarted emulator keeps accepting the tokens and keys it handed out.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { exportPKCS8, exportSPKI, importPKCS8, importSPKI, type CryptoKey } from 'jose';
import { newSigningKeyPair, SIGNING_ALGORITHM } from './auth/key-pairs.js';
import type { Migration, Store } from './store/store.js';

/** The demo site, as `/_emulator/info` shows it (plus the private key, never shown). */
export interface SiteIdentity {
  siteId: string;
  /** The site owner's id: `_owner` of items written with the API key. */
  ownerId: string;
  /** Makes its caller elevated (admin). */
  apiKey: string;
  /** The demo OAuth client (visitors and members). */
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

/** The algorithm of the site's key pair (declared beside the key pairs' making). */
export { SIGNING_ALGORITHM };

/** Reads the site's identity, creating it on the first start. */
export async function loadSiteIdentity(store: Store): Promise<SiteIdentity> {
  const rows = store.all<{ key: string; value: string }>('SELECT key, value FROM site');
  let values = Object.fromEntries(rows.map((row) => [row.key, row.value]));
  if (!values.siteId) {
    const { privateKey, publicKey } = await newSigningKeyPair();
    values = {
      siteId: randomUUID(),
      ownerId: randomUUID(),
      // A recognisable prefix, so a leaked demo key is obviously not a production one.
      apiKey: `emulator.${randomBytes(24).toString('base64url')}`,
      clientId: randomUUID(),
      privateKeyPem: await exportPKCS8(privateKey),
      publicKeyPem: await exportSPKI(publicKey),
    };
    store.transaction(() => {
      for (const [key, value] of Object.entries(values))
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
