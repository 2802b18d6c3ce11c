/**
 * `targetOf`: the `http.request` options of a URL, taken apart without the URL parser when the
 * URL is plain. Whatever path it takes, the result must be what Node's own parsing gives
 * (`urlToHttpOptions(new URL(url))`), which is what `http.request(url)` and `fetch` send, and the
 * `Host` header the handler writes itself must be the one `http.request` would write.
 */
import { urlToHttpOptions } from 'node:url';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { targetOf } from '../../../src/http/node-target.js';

/** The fields `targetOf` sets, as Node's own parser gives them (its `port` is a number or absent). */
function nodeOptions(url: string): Record<string, unknown> {
  const parsed = urlToHttpOptions(new URL(url));
  const expected: Record<string, unknown> = {
    protocol: parsed.protocol,
    hostname: parsed.hostname,
    port: parsed.port === undefined || parsed.port === '' ? undefined : Number(parsed.port),
    path: parsed.path,
    host: hostHeader(parsed.protocol!, parsed.hostname!, parsed.port),
  };
  return expected;
}

/**
 * The `Host` header `http.request` writes for these options (Node's rule, in `_http_client.js`):
 * an IPv6 address in brackets, and the port unless it is the agent's default (80, or 443 for https).
 */
function hostHeader(protocol: string, hostname: string, port: number | string | null | undefined): string {
  const name = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  const defaultPort = protocol === 'https:' ? 443 : 80;
  return port != null && port !== '' && Number(port) !== defaultPort ? `${name}:${port}` : name;
}

/** The same fields of `targetOf`'s answer. */
function targetOptions(url: string): Record<string, unknown> {
  const { options, host } = targetOf(url);
  const actual: Record<string, unknown> = {
    protocol: options.protocol,
    hostname: options.hostname,
    port: options.port,
    path: options.path,
    host,
  };
  expect(options.auth).toBeUndefined();
  return actual;
}

const URLS: readonly string[] = [
  // Origins: default and explicit ports, IPv6, https, letter case.
  'http://example.com/a',
  'https://example.com/a',
  'http://example.com:80/a',
  'https://example.com:443/a',
  'http://example.com:8080/a',
  'https://example.com:8443/a',
  'http://example.com:0080/a',
  'http://127.0.0.1:3000/wix-data/v2/items/a?dataCollectionId=Movies',
  'http://[::1]:8080/x',
  'http://[::1]/x',
  'https://[2001:db8::1]:9443/p?q=1',
  'http://HOST.Example.COM/Path',
  'HTTP://Host/x',
  'http://ΑΒΓ.com/x',
  'http://host:/x',
  // Queries with escapes.
  'http://h/p?q=%20a%2Fb&x=%C3%A9',
  'http://h/a?%',
  'http://h/%zz',
  // Dot segments, plain and escaped, in the path (resolved) and in the query (kept).
  'http://h/a/./b',
  'http://h/a/../b',
  'http://h/a/%2e/b',
  'http://h/a/%2E%2E/b',
  'http://h/a/.%2e/b',
  'http://h/a/..',
  'http://h/a/.',
  'http://h/a/..?x=/../',
  'http://h/a?x=/./',
  'http://h/.hidden/..x',
  'http://h//double',
  // Characters a URL escapes or drops: spaces, quotes, backslashes, controls, non-ASCII, braces.
  'http://h/a b',
  'http://h/a?b c',
  "http://h/it's",
  'http://h/say"hi"',
  'http://h/a?q="x"',
  "http://h/a?q='x'",
  'http://h/a\\b',
  'http://h/a?b\\c',
  'http://h/a\tb',
  'http://h/é',
  'http://h/a?q=é',
  'http://h/a{b}|c^d`e<f>',
  'http://h/~user/a;b=c/@x',
  // Fragments are never sent.
  'http://h/a#frag',
  'http://h/a?x=1#frag',
  'http://h/#',
  'http://host#f',
  // No path, a query without a path.
  'http://host',
  'http://host?x=1',
  'https://h:443',
  'http://h:80?q',
  // A slash after the host that is not the path's: inside a query or a fragment, after a backslash.
  'http://host?x=/y',
  'http://host#/y',
  'http://h/a?b#c/d',
  'http://host\\x/y',
  // What the URL parser trims, drops or rewrites in the origin.
  ' http://h/a',
  'http://h/a ',
  'http://h\t.example/a',
  'http://[::ffff:127.0.0.1]/a',
  'http://0x7f.1/a',
];

describe('targetOf', () => {
  it.each(['http://u:p@host/', 'http://u@host/x', 'http://:p@host/x', 'http://u%40x:p%3A@host/x', 'http://u:secret@h'])(
    '%s: refused with a TypeError, not turned into Basic auth (fetch refuses it too); the secret not repeated',
    (url) => {
      expect(() => targetOf(url)).toThrow(TypeError);
      expect(() => targetOf(url)).not.toThrow(/secret|u:p|u%40x/);
    },
  );

  it.each(URLS)('%s: the options Node gives', (url) => {
    expect(targetOptions(url)).toEqual(nodeOptions(url));
  });

  it.each(URLS)('%s: the same again, from the origin table', (url) => {
    targetOf(url);
    expect(targetOptions(url)).toEqual(nodeOptions(url));
  });

  it('any URL made of the pieces that matter: the options Node gives, first time or from the table', () => {
    const origins = ['http://h', 'https://h', 'http://h:8080', 'HTTP://H.example', 'http://[::1]:81', 'https://h:443'];
    const pieces = [
      '/',
      '/',
      'a',
      'Z9',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2F',
      '%',
      '%zz',
      '?',
      '?',
      '#',
      '&',
      '=',
      '@',
      ':',
      ';',
      '~',
      ' ',
      '"',
      "'",
      '\\',
      '\t',
      'é',
      '😀',
      '{',
      '|',
      '[',
      '`',
    ];
    const urls = fc
      .tuple(fc.constantFrom(...origins), fc.array(fc.constantFrom(...pieces), { maxLength: 12 }))
      .map(([origin, parts]) => origin + parts.join(''));
    fc.assert(
      fc.property(urls, (url) => {
        let expected: Record<string, unknown>;
        try {
          expected = nodeOptions(url);
        } catch {
          // (Not a URL at all, e.g. a bracket or a bare `%` right after the host: targetOf throws too.)
          expect(() => targetOf(url)).toThrow();
          return;
        }
        // (An `@` right after the host makes it a user name: refused, as fetch refuses it.)
        if (new URL(url).username) expect(() => targetOf(url)).toThrow(TypeError);
        else expect(targetOptions(url)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('says whether the request goes over TLS', () => {
    expect(targetOf('https://secure.example/x').secure).toBe(true);
    expect(targetOf('https://secure.example/x').secure).toBe(true);
    expect(targetOf('http://plain.example/x').secure).toBe(false);
    expect(targetOf('HTTPS://Upper.example/x?%20').secure).toBe(true);
  });

  it('gives new options each call: the handler sets method, headers and agent on them', () => {
    const first = targetOf('http://fresh.example/a');
    first.options.method = 'POST';
    first.options.headers = { authorization: 'secret' };
    const second = targetOf('http://fresh.example/b');
    expect(second.options).not.toBe(first.options);
    expect(second.options.method).toBeUndefined();
    expect(second.options.headers).toBeUndefined();
    expect(second.options.path).toBe('/b');
  });

  it('rejects what the URL parser rejects', () => {
    expect(() => targetOf('http://bad host/x')).toThrow();
    expect(() => targetOf('http://h:99999/x')).toThrow();
    expect(() => targetOf('/relative/path')).toThrow();
  });

  describe('the origin table', () => {
    /** Counts the URLs constructed while the test runs (the table's misses and the slow path). */
    let constructed = 0;
    const OriginalURL = globalThis.URL;
    const restore = () => void (globalThis.URL = OriginalURL);
    const countURLs = () => {
      constructed = 0;
      globalThis.URL = new Proxy(OriginalURL, {
        construct(target, args, newTarget) {
          constructed++;
          return Reflect.construct(target, args, newTarget);
        },
      });
    };
    afterEach(restore);

    it('parses an origin once: later plain URLs to it construct no URL', () => {
      countURLs();
      const first = targetOf('http://cached.example:8081/one?a=1');
      expect(constructed).toBe(1);
      const second = targetOf('http://cached.example:8081/two/three?b=%2F');
      expect(constructed).toBe(1);
      restore();
      expect(first.options).toMatchObject({ hostname: 'cached.example', port: 8081, path: '/one?a=1' });
      expect(second.options).toMatchObject({ hostname: 'cached.example', port: 8081, path: '/two/three?b=%2F' });
      expect(targetOptions('http://cached.example:8081/two/three?b=%2F')).toEqual(
        nodeOptions('http://cached.example:8081/two/three?b=%2F'),
      );
    });

    it('a URL that is not plain is parsed whole even when its origin is known', () => {
      targetOf('http://known.example/plain');
      countURLs();
      const target = targetOf('http://known.example/a/../b c');
      expect(constructed).toBe(1);
      restore();
      expect(target.options.path).toBe('/b%20c');
    });

    it('more origins than the table holds: every answer still right, an emptied origin parsed again', () => {
      const urls = Array.from(
        { length: 200 },
        (_, index) => `http://origin-${index}.example:${9000 + index}/item/${index}?n=${index}`,
      );
      for (const url of urls) expect(targetOptions(url)).toEqual(nodeOptions(url));
      // Twice over: the table has been emptied (at least once) on the way.
      for (const url of urls) expect(targetOptions(url)).toEqual(nodeOptions(url));
      countURLs();
      targetOf(urls[0]!);
      expect(constructed).toBe(1);
      targetOf(urls[0]!);
      expect(constructed).toBe(1);
    });
  });

  // Node's parser (and so `http.request(url)` and `fetch`) drops a query that is only `?`: a fast
  // path that kept it would ask for `/a?` where fetch asks for `/a`. The transport's own URLs never
  // end in `?`, but `fetchWithAuth` passes a caller's URL through as it is.
  it('an empty query (`/a?`) is dropped, as Node and fetch drop it', () => {
    expect(targetOptions('http://h/a?')).toEqual(nodeOptions('http://h/a?'));
  });

  // `new URL` trims spaces at the ends of its input: an origin parsed alone would take `http://h /x`
  // (a space before the path, say from a base URL read from an environment variable) as host `h`,
  // where the whole URL is refused by URL parsing, and so by fetch and `http.request`.
  it('an authority that ends in a space (`http://h /x`) is refused, as URL parsing refuses it', () => {
    expect(() => new URL('http://h /x')).toThrow();
    expect(() => targetOf('http://h /x')).toThrow();
  });
});
