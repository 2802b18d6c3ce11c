/**
 * The default handler of the package's `node` build (swapped in for `default-handler.ts` by
 * rollup.config.mjs): `node:http`/`node:https` over keep-alive connections.
 */
import type { HttpHandler } from './handler.js';
import { nodeHttpHandler } from './node-handler.js';

/** A new default handler: `node:http`/`node:https` with the shared keep-alive agents. */
export const defaultHandler = (): HttpHandler => nodeHttpHandler();
