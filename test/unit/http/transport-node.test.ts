/**
 * The transport cases over the `node:http` handler: the module the package's `node` build swaps in
 * (rollup.config.mjs) is swapped here the same way, so the transport under test is the one Node
 * users get.
 */
import { describe, expect, it, vi } from 'vitest';
import { transportCases } from './transport-cases.js';

vi.mock('../../../src/http/default-handler.js', () => import('../../../src/http/default-handler.node.js'));

describe('transport over node:http', transportCases);

describe('the handler under test', () => {
  it('is node:http: it asks for compressed answers itself (fetch adds that below the interception)', async () => {
    const { default: nock } = await import('nock');
    const { createClient } = await import('../../../src/client.js');
    let acceptEncoding: unknown;
    nock('https://api.test')
      .get('/x')
      .reply(function () {
        acceptEncoding = this.req.headers['accept-encoding'];
        return [200, ''];
      });
    await createClient({ baseUrl: 'https://api.test' }).fetchWithAuth('/x');
    expect(acceptEncoding).toBe('gzip, deflate, br');
  });
});
