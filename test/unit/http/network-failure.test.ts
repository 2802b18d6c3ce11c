/** Which thrown values are network failures (NetworkError, retried) and which are not (passed through, once). */
import { describe, expect, it } from 'vitest';
import { isNetworkFailure } from '../../../src/http/network-failure.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isNetworkFailure', () => {
  it.each([
    ['Chrome', new TypeError('Failed to fetch')],
    ['Firefox', new TypeError('NetworkError when attempting to fetch resource.')],
    ['Safari', new TypeError('Load failed')],
    [
      "Node's fetch",
      new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED') }),
    ],
    [
      "Node's fetch, body cut short",
      new TypeError('terminated', { cause: withCode('other side closed', 'UND_ERR_SOCKET') }),
    ],
    ['a refused socket', withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED')],
    ['a reset socket', withCode('socket hang up', 'ECONNRESET')],
    ['DNS', withCode('getaddrinfo ENOTFOUND nowhere.invalid', 'ENOTFOUND')],
    ['TLS', withCode('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT')],
    ['a malformed reply', withCode('Parse Error: Invalid header value char', 'HPE_INVALID_HEADER_TOKEN')],
    ['a message-only reset (mocks)', new Error('socket hang up')],
  ])('%s is a network failure', (_case, error) => {
    expect(isNetworkFailure(error)).toBe(true);
  });

  it.each([
    ['a bug in a custom fetch', new ReferenceError('responze is not defined')],
    ['a TypeError of a bug', new TypeError("Cannot read properties of undefined (reading 'headers')")],
    ['an abort', new DOMException('This operation was aborted', 'AbortError')],
    ['a thrown string', 'boom'],
    ['nothing', undefined],
    ['a mock with no route', withCode('Nock: No match for request', 'ERR_NOCK_NO_MATCH')],
  ])('%s is not', (_case, error) => {
    expect(isNetworkFailure(error)).toBe(false);
  });
});
