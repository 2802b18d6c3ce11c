/**
 * The handler a client uses when the caller passes no `fetch`: `fetch` here, for browsers,
 * workers and edge runtimes. The package's `node` build replaces this module with
 * `default-handler.node.ts` at build time (see rollup.config.mjs), so the choice is made by the
 * package's export conditions and no Node built-in can reach a browser bundle.
 */
import { fetchHandler } from './fetch-handler.js';
import type { HttpHandler } from './handler.js';

/** A new default handler: `fetch` (the global one, looked up on each call). */
export const defaultHandler = (): HttpHandler => fetchHandler();
