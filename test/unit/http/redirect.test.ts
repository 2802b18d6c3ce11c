/** Redirects followed as fetch follows them (used by the node:http handler). */
import { describe, expect, it } from 'vitest';
import type { HttpRequest } from '../../../src/http/handler.js';
import { redirectRequest } from '../../../src/http/redirect.js';

const post: HttpRequest = {
  url: 'https://api.test/a',
  method: 'POST',
  headers: { authorization: 'key', 'content-type': 'application/json', 'x-app': '1' },
  body: '{"a":1}',
};

describe('redirectRequest', () => {
  it('a 303, and a 301/302 of a POST, become a GET without body or body headers', () => {
    for (const status of [301, 302, 303]) {
      expect(redirectRequest(post, status, '/b')).toEqual({
        url: 'https://api.test/b',
        method: 'GET',
        headers: { authorization: 'key', 'x-app': '1' },
      });
    }
  });

  it('a 307/308 keeps the method and a body that can be sent again, but not a stream', () => {
    expect(redirectRequest(post, 307, 'https://api.test/c')).toEqual({ ...post, url: 'https://api.test/c' });
    expect(redirectRequest({ ...post, body: new ReadableStream() }, 308, '/c')).toBeUndefined();
  });

  it('drops credentials on the way to another origin', () => {
    const next = redirectRequest(
      { ...post, method: 'GET', body: undefined, headers: { authorization: 'key', cookie: 'c', 'x-app': '1' } },
      302,
      'https://elsewhere.test/x',
    );
    expect(next?.headers).toEqual({ 'x-app': '1' });
  });
});
