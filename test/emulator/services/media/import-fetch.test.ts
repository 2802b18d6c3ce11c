/**
 * The import guard's address rules, range by range and at each range's edges: which addresses are
 * not the public internet (IPv4, IPv6, and IPv6 forms that carry an IPv4 address), which are the
 * emulator itself, what a source URL is judged by before any DNS lookup, and which redirects the
 * fetch follows. security.test.ts proves the guard through imports.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressProblem,
  type ImportReach,
  type ResolveAll,
  fetchImportSource,
  guardedLookup,
  ImportSourceRefused,
  sourceProblem,
} from '../../../../emulator/services/media/import-fetch.js';

const closed = { privateAddressesAllowed: false, emulatorPort: 4700 };
const open = { privateAddressesAllowed: true, emulatorPort: 4700 };
const PRIVATE = 'importsFromPrivateAddresses';
const ITSELF = 'the emulator itself';

describe('addresses that are not the public internet', () => {
  it('are refused, first and last of each IPv4 range, unless the setting allows them', () => {
    for (const address of [
      '0.0.0.1',
      '0.255.255.255',
      '10.0.0.0',
      '10.255.255.255',
      '100.64.0.0',
      '100.127.255.255',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.0.0',
      '169.254.255.255',
      '172.16.0.0',
      '172.31.255.255',
      '192.0.0.0',
      '192.0.0.255',
      '192.168.0.0',
      '192.168.255.255',
      '198.18.0.0',
      '198.19.255.255',
      '224.0.0.1',
      '239.255.255.255',
      '240.0.0.0',
      '255.255.255.255',
    ]) {
      expect(addressProblem(address, 80, closed), address).toContain(PRIVATE);
      expect(addressProblem(address, 80, open), address).toBeUndefined();
    }
  });

  it('are refused in IPv6: unspecified, loopback, unique local, link-local, multicast (a zone too)', () => {
    for (const address of ['::', '::1', 'fc00::1', 'fdff:ffff::1', 'fe80::1', 'febf::1', 'ff02::1', 'fe80::1%eth0'])
      expect(addressProblem(address, 80, closed), address).toContain(PRIVATE);
  });

  it('are refused in the IPv6 forms that carry an IPv4 address: mapped, compatible, NAT64, 6to4', () => {
    for (const address of [
      '::ffff:10.0.0.1',
      '::ffff:a00:1',
      '[::ffff:192.168.1.1]',
      '::10.1.2.3',
      '::10.0.0.0',
      '64:ff9b::a00:1',
      '64:ff9b::10.0.0.1',
      '2002:a00:1::',
      '2002:c0a8:101::1',
    ])
      expect(addressProblem(address, 80, closed), address).toContain(PRIVATE);
  });

  it('are not the public addresses beside each range, nor public IPv4 in an IPv6 form', () => {
    for (const address of [
      '1.1.1.1',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.0.1.0',
      '192.167.255.255',
      '192.169.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
      '2001:4860:4860::8888',
      'fbff::1',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '64:ff9b::808:808',
      '2002:808:808::',
      // ff9b in a global address's second group is not NAT64 (64:ff9b::/96).
      '2001:ff9b::a00:1',
      // A public address whose octets have two and three digits, in its IPv4-mapped form.
      '::ffff:93.184.215.14',
    ])
      expect(addressProblem(address, 80, closed), address).toBeUndefined();
  });
});

describe('the emulator itself', () => {
  it("is this machine on the emulator's port, in every spelling, setting or not", () => {
    for (const address of ['127.0.0.1', '127.9.9.9', '0.0.0.0', '::1', '::', '::ffff:127.0.0.1', '[::1]'])
      for (const reach of [open, closed]) expect(addressProblem(address, 4700, reach), address).toContain(ITSELF);
    const own = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && !entry.internal && entry.family == 'IPv4');
    if (own) {
      expect(addressProblem(own.address, 4700, open)).toContain(ITSELF);
      expect(addressProblem(`::ffff:${own.address}`, 4700, open)).toContain(ITSELF);
    }
  });

  it('is not another port of this machine, nor another machine on that port', () => {
    expect(addressProblem('127.0.0.1', 4701, open)).toBeUndefined();
    expect(addressProblem('8.8.8.8', 4700, open)).toBeUndefined();
    expect(addressProblem('8.8.8.8', 4700, closed)).toBeUndefined();
  });
});

describe('a source URL before any lookup', () => {
  it('is judged by its address or localhost name, on its port (the default of its scheme too)', () => {
    expect(sourceProblem(new URL('http://localhost:4700/x'), open)).toContain(ITSELF);
    expect(sourceProblem(new URL('http://app.localhost/x'), closed)).toContain(PRIVATE);
    expect(sourceProblem(new URL('http://app.localhost/x'), open)).toBeUndefined();
    expect(sourceProblem(new URL('https://[::1]/x'), closed)).toContain(PRIVATE);
    expect(sourceProblem(new URL('http://10.0.0.1/x'), closed)).toContain(PRIVATE);
    expect(sourceProblem(new URL('http://127.0.0.1/x'), { ...open, emulatorPort: 80 })).toContain(ITSELF);
    expect(sourceProblem(new URL('https://127.0.0.1/x'), { ...open, emulatorPort: 443 })).toContain(ITSELF);
    expect(sourceProblem(new URL('https://127.0.0.1/x'), { ...open, emulatorPort: 80 })).toBeUndefined();
  });

  it('with a DNS name, waits for the lookup', () => {
    expect(sourceProblem(new URL('http://example.com/x'), closed)).toBeUndefined();
    expect(sourceProblem(new URL('http://localhost.example.com/x'), closed)).toBeUndefined();
  });
});

describe('the lookup of a source name', () => {
  /** What the guarded lookup answers for `hostname`: the addresses, or the error's name and message. */
  const lookedUp = (hostname: string, reach: ImportReach, all: boolean) =>
    new Promise<unknown>((resolve) =>
      guardedLookup(reach, 80)(hostname, { all }, (error, address, family) =>
        resolve(error ? `${error.name}: ${error.message}` : { address, family }),
      ),
    );

  it('refuses a name that resolves to a refused address, before any connection, one address or all asked', async () => {
    for (const all of [false, true])
      expect(await lookedUp('localhost', closed, all)).toMatch(/^ImportSourceRefused: .*importsFromPrivateAddresses/);
  });

  it('answers the allowed addresses, as one or as a list', async () => {
    // localhost is 127.0.0.1, ::1 or both, by the machine.
    const loopback = expect.stringMatching(/^(127\.0\.0\.1|::1)$/);
    expect(await lookedUp('localhost', open, false)).toEqual({ address: loopback, family: expect.any(Number) });
    expect(await lookedUp('localhost', open, true)).toEqual({
      address: expect.arrayContaining([{ address: loopback, family: expect.any(Number) }]),
      family: undefined,
    });
    expect(await lookedUp('localhost', { ...open, emulatorPort: 80 }, true)).toMatch(/the emulator itself/);
  });

  it('keeps only the allowed addresses of a name that resolves to private and public ones (a rebinding answer)', async () => {
    // An answer no local resolver gives: a private address first, then a public one.
    const answer = [
      { address: '10.0.0.1', family: 4 },
      { address: '93.184.215.14', family: 4 },
      { address: 'fd00::1', family: 6 },
    ];
    const mixed: ResolveAll = (_hostname, _options, callback) => callback(null, answer);
    const lookup = (all: boolean) =>
      new Promise<unknown>((resolve, reject) =>
        guardedLookup(closed, 80, mixed)('rebinding.example', { all }, (error, address, family) =>
          error ? reject(error) : resolve({ address, family }),
        ),
      );
    expect(await lookup(false)).toEqual({ address: '93.184.215.14', family: 4 });
    expect(await lookup(true)).toEqual({ address: [{ address: '93.184.215.14', family: 4 }], family: undefined });
    // No address at all (no error either).
    const none: ResolveAll = (_hostname, _options, callback) => callback(null, []);
    await expect(
      new Promise((resolve, reject) =>
        guardedLookup(closed, 80, none)('empty.example', { all: true }, (error) =>
          error ? reject(error) : resolve(0),
        ),
      ),
    ).rejects.toThrow('empty.example has no address');
  });
});

describe('the fetch of a source', () => {
  /** The accept-encoding of each request the source server got. */
  const encodings: (string | undefined)[] = [];
  const held: ServerResponse[] = [];
  const source = createServer((request, response) => {
    encodings.push(request.headers['accept-encoding']);
    const [, kind, value] = request.url!.split('/');
    if (kind == 'hops' && Number(value) > 0)
      return void response.writeHead(302, { location: `/hops/${Number(value) - 1}` }).end();
    if (kind == 'status') return void response.writeHead(Number(value), { location: '/hops/0' }).end();
    if (kind == 'bare') return void response.writeHead(302).end();
    // Never answered (until the tests end).
    if (kind == 'hold') return void held.push(response);
    if (kind == 'to') return void response.writeHead(302, { location: decodeURIComponent(value!) }).end();
    // A relative location: `end` beside `/relative/start`.
    if (kind == 'relative' && value == 'start') return void response.writeHead(302, { location: 'end' }).end();
    if (kind == 'relative') return void response.writeHead(203).end();
    response.writeHead(200).end('done');
  });
  let origin: string;
  beforeAll(async () => {
    source.listen(0, '127.0.0.1');
    await once(source, 'listening');
    origin = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    for (const response of held) response.end();
    source.close();
  });

  const reach = { privateAddressesAllowed: true, emulatorPort: 1 };
  /** The final status of fetching `path`, or the refusal's message. */
  const fetched = async (path: string): Promise<number | string> => {
    try {
      const response = await fetchImportSource(new URL(origin + path), {}, reach, AbortSignal.timeout(10_000));
      response.resume();
      return response.statusCode!;
    } catch (error) {
      if (error instanceof ImportSourceRefused) return error.message;
      throw error;
    }
  };

  it('follows up to 5 redirects, each a 3xx with a location; asks for the bytes as stored', async () => {
    expect(await fetched('/hops/5')).toBe(200);
    expect(await fetched('/hops/6')).toBe('more than 5 redirects');
    expect(await fetched('/status/300')).toBe(200);
    expect(await fetched('/status/399')).toBe(200);
    for (const status of [200, 299, 400]) expect(await fetched(`/status/${status}`)).toBe(status);
    expect(await fetched('/bare/')).toBe(302);
    expect(new Set(encodings)).toEqual(new Set(['identity']));
  });

  it("resolves a relative location against the redirect's own URL, not the first one", async () => {
    expect(await fetched(`/to/${encodeURIComponent('/relative/start')}`)).toBe(203);
  });

  it('stops when its signal aborts (the time limit of an import)', async () => {
    const controller = new AbortController();
    const arrived = once(source, 'request');
    const fetching = fetchImportSource(new URL(`${origin}/hold/`), {}, reach, controller.signal);
    await arrived;
    controller.abort();
    await expect(fetching).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses a source address before connecting to it', async () => {
    const before = encodings.length;
    await expect(
      fetchImportSource(
        new URL(`${origin}/x`),
        {},
        { ...reach, privateAddressesAllowed: false },
        AbortSignal.timeout(10_000),
      ),
    ).rejects.toThrow(/importsFromPrivateAddresses/);
    expect(encodings.length).toBe(before);
  });

  it('follows a redirect to https, over TLS', async () => {
    // The source server speaks plain HTTP: it hears the TLS handshake, which fails.
    const handshake = once(source, 'clientError') as Promise<[Error & { rawPacket?: Buffer }]>;
    const tls = `https://127.0.0.1:${(source.address() as AddressInfo).port}/`;
    await expect(fetched(`/to/${encodeURIComponent(tls)}`)).rejects.toThrow();
    const [error] = await handshake;
    // A TLS record of the handshake type.
    expect(error.rawPacket?.[0]).toBe(0x16);
  });

  it('refuses a redirect to what is not an http(s) URL', async () => {
    expect(await fetched(`/to/${encodeURIComponent('ftp://127.0.0.1/file')}`)).toBe('a redirect to ftp:, not http(s)');
    expect(await fetched(`/to/${encodeURIComponent('http://[::1')}`)).toBe(
      'a redirect to http://[::1, which is not a URL',
    );
    expect(await fetched(`/to/${encodeURIComponent('javascript:alert(1)')}`)).toBe(
      'a redirect to javascript:, not http(s)',
    );
  });
});
