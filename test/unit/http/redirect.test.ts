/** Redirects followed as fetch follows them (used by the node:http handler). */
import { describe, expect, it } from 'vitest';
import type { HttpRequest } from '../../../src/http/handler.js';
import { REDIRECT_STATUSES, redirectRequest } from '../../../src/http/redirect.js';

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

  it('the statuses followed are the five fetch follows', () => {
    expect([...REDIRECT_STATUSES].sort()).toEqual([301, 302, 303, 307, 308]);
  });

  it('every body header is dropped with the body', () => {
    const headers = {
      'content-type': 'text/plain',
      'content-length': '7',
      'content-encoding': 'gzip',
      'content-language': 'en',
      'content-location': '/a',
      'x-app': '1',
    };
    expect(redirectRequest({ ...post, headers }, 303, '/b')?.headers).toEqual({ 'x-app': '1' });
  });

  it('a 303 of a GET or a HEAD keeps its method; a 301/302 of any method but POST keeps it and its body', () => {
    for (const method of ['GET', 'HEAD'])
      expect(redirectRequest({ ...post, method, body: undefined }, 303, '/b')).toEqual({
        ...post,
        method,
        body: undefined,
        url: 'https://api.test/b',
      });
    for (const status of [301, 302])
      for (const method of ['PUT', 'PATCH', 'DELETE'])
        expect(redirectRequest({ ...post, method }, status, '/b')).toEqual({
          ...post,
          method,
          url: 'https://api.test/b',
        });
  });

  it('a 307/308 keeps the method and a body that can be sent again, but not a stream', () => {
    expect(redirectRequest(post, 307, 'https://api.test/c')).toEqual({ ...post, url: 'https://api.test/c' });
    expect(redirectRequest({ ...post, body: new ReadableStream() }, 308, '/c')).toBeUndefined();
  });

  it('drops credentials on the way to another origin', () => {
    const next = redirectRequest(
      {
        ...post,
        method: 'GET',
        body: undefined,
        headers: { authorization: 'key', cookie: 'c', 'proxy-authorization': 'p', 'x-app': '1' },
      },
      302,
      'https://elsewhere.test/x',
    );
    expect(next?.headers).toEqual({ 'x-app': '1' });
  });

  it('another port or scheme on the same host is another origin too: credentials are dropped', () => {
    const previous = { ...post, method: 'GET', body: undefined, headers: { authorization: 'key', 'x-app': '1' } };
    for (const location of ['https://api.test:8443/x', 'http://api.test/x'])
      expect(redirectRequest(previous, 302, location)?.headers, location).toEqual({ 'x-app': '1' });
    expect(redirectRequest(previous, 302, 'https://api.test:443/x')?.headers).toEqual(previous.headers);
  });
});
