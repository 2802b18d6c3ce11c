/**
 * The transport cases over the `node:http` handler: the module the package's `node` build swaps in
 * (rollup.config.mjs) is swapped here the same way, so the transport under test is the one Node
 * users get.
 */
import { describe, vi } from 'vitest';
import { transportCases } from './transport-cases.js';

vi.mock('../../src/http/default-handler.js', () => import('../../src/http/default-handler.node.js'));

describe('transport over node:http', transportCases);
