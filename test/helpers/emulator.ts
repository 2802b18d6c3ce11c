/**
 * The one way tests start an emulator: in-process, on a free port, in memory, with clients
 * made by our SDK (its public surface only), on the engine `SITEKIT_ENGINE` names (./engine.ts).
 */
import { startEmulator as start, type Emulator, type EmulatorOptions } from '../../emulator/index.js';
import {
  ApiKeyStrategy,
  OAuthStrategy,
  createClient,
  type ApiKeyAuth,
  type Client,
  type OAuthAuth,
} from '../../src/index.js';
import { testEngine } from './engine.js';

/** A running test emulator and clients for it. */
export interface TestEmulator extends Emulator {
  /** An elevated client (the demo API key). */
  admin: Client<ApiKeyAuth>;
  /** A visitor client (OAuth anonymous grant, on first call). */
  visitor: Client<OAuthAuth>;
  /** A fresh, independent visitor client each call. */
  newVisitor(): Client<OAuthAuth>;
  /** A raw fetch against the emulator: `path` is appended to its URL. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** Starts an emulator (`{port: 0, memory: true}` unless told otherwise) with its clients. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  // No key pairs made ahead unless a test asks (sitePool): most tests make no site, and the pairs
  // would cost the loaded CI machine CPU for nothing.
  const emulator = await start({ port: 0, memory: true, engine: testEngine, sitePool: 0, ...options });
  const { url, info } = emulator;
  const newVisitor = () => createClient({ baseUrl: url, auth: OAuthStrategy({ clientId: info.clientId }) });
  return Object.assign(emulator, {
    admin: createClient({ baseUrl: url, auth: ApiKeyStrategy({ apiKey: info.apiKey, siteId: info.siteId }) }),
    visitor: newVisitor(),
    newVisitor,
    fetch: (path: string, init?: RequestInit) => fetch(url + path, init),
  });
}
