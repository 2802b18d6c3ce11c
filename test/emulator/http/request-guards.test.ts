/**
 * The request guards as rules over header values, case by case: which origins are loopback, which
 * `Host` names the emulator (and when a remembered answer is asked again), which origins may use
 * the control API, which writes are simple requests, which paths are the control API's.
 * web-security.test.ts proves the same rules through the server.
 */
import { describe, expect, it } from 'vitest';
import {
  controlRequestProblem,
  createHostCheck,
  isAllowedHost,
  isAllowedOrigin,
  isControlOrigin,
  isControlPath,
  isLocalhostName,
  isLoopbackOrigin,
} from '../../../emulator/http/request-guards.js';

describe('loopback origins', () => {
  it('are http(s) pages of 127.0.0.1, [::1], localhost and its subdomains, on any port', () => {
    for (const origin of [
      'http://127.0.0.1:3000',
      'https://127.0.0.1',
      'http://[::1]:8080',
      'https://[::1]',
      'http://localhost:5173',
      'https://localhost',
      'http://app.localhost:3000',
    ])
      expect(isLoopbackOrigin(origin), origin).toBe(true);
  });

  it('are not other schemes, other names, lookalikes or what is not an origin', () => {
    for (const origin of [
      'ftp://localhost',
      'ws://127.0.0.1:3000',
      'file:///home',
      'null',
      '',
      'http://127.0.0.2',
      'http://[::2]',
      'http://localhost.attacker.example',
      'http://evillocalhost',
      'http://notlocalhost',
    ])
      expect(isLoopbackOrigin(origin), origin).toBe(false);
    expect(isLocalhostName('localhost.example')).toBe(false);
    expect(isLocalhostName('a.b.localhost')).toBe(true);
  });

  it('or a configured origin may call the platform API from a browser', () => {
    expect(isAllowedOrigin('http://127.0.0.1:3000', [])).toBe(true);
    expect(isAllowedOrigin('https://app.example', ['https://app.example'])).toBe(true);
    expect(isAllowedOrigin('https://app.example', ['https://other.example'])).toBe(false);
    expect(isAllowedOrigin('https://app.example:8443', ['https://app.example'])).toBe(false);
  });
});

describe('the Host check', () => {
  it('allows addresses, localhost names, the bound name in any case and the allowed hosts', () => {
    for (const host of [
      '127.0.0.1:4700',
      '10.1.2.3',
      '[::1]:4700',
      '[2001:db8::1]',
      'localhost:4700',
      'LOCALHOST',
      'app.localhost',
      'localhost.',
      'emulator.internal:4700',
      'EMULATOR.internal',
      'proxy.example',
      'proxy.example.',
      'tunnel.example',
      'a.b.tunnel.example',
    ])
      expect(isAllowedHost(host, 'Emulator.Internal', ['Proxy.Example', '.tunnel.example']), host).toBe(true);
  });

  it('refuses no Host, other names, lookalikes, and what is not a host', () => {
    for (const host of [
      undefined,
      '',
      'attacker.example',
      'eviltunnel.example',
      'tunnel.example.attacker.example',
      'proxy.example.attacker.example',
      'xproxy.example',
      'emulator.internal.attacker.example',
      'localhost/path',
      'user@localhost',
      'localhost?x',
      'localhost#x',
      'a\\localhost',
      'bad host',
    ])
      expect(isAllowedHost(host, 'emulator.internal', ['proxy.example', '.tunnel.example']), String(host)).toBe(false);
  });

  it('remembers each answer, asks again when the allowed hosts change, and keeps no more than 64', () => {
    let configured: readonly string[] = [];
    let reads = 0;
    const check = createHostCheck('127.0.0.1', ['docker-service'], () => {
      reads++;
      return configured;
    });
    expect(check(undefined)).toBe(false);
    expect(check('')).toBe(false);
    expect(reads).toBe(0);
    expect(check('docker-service:4700')).toBe(true);
    expect(check('later.example')).toBe(false);
    configured = ['later.example'];
    expect(check('later.example')).toBe(true);
    expect(check('docker-service')).toBe(true);
    configured = [];
    expect(check('later.example')).toBe(false);
    // Past 64 remembered answers they are dropped, and the next ones are still right.
    for (let n = 0; n < 70; n++) expect(check(`host-${n}.example`)).toBe(false);
    expect(check('127.0.0.1')).toBe(true);
    expect(check('later.example')).toBe(false);
  });

  it('forgets its answers at the 64th distinct Host, not before', () => {
    // A setting changed in place (the same array) is not noticed: only the answers' bound makes
    // the check ask again, so the answer for `later.example` shows when it was forgotten.
    const configured: string[] = [];
    const check = createHostCheck('127.0.0.1', [], () => configured);
    expect(check('later.example')).toBe(false);
    configured.push('later.example');
    for (let n = 1; n < 63; n++) check(`host-${n}.example`);
    expect(check('later.example')).toBe(false);
    check('host-63.example');
    expect(check('later.example')).toBe(true);
  });
});

describe('the control API', () => {
  const json = { contentType: 'application/json', controlHeader: false };

  it("answers pages of the emulator's own origin (by the name the Host says) and named origins only", () => {
    expect(isControlOrigin('http://127.0.0.1:4700', '127.0.0.1:4700', [])).toBe(true);
    expect(isControlOrigin('http://proxy.example', 'PROXY.example', [])).toBe(true);
    expect(isControlOrigin('http://localhost:5173', '127.0.0.1:4700', [])).toBe(false);
    expect(isControlOrigin('http://127.0.0.1:4700', undefined, [])).toBe(false);
    expect(isControlOrigin('not an origin', 'not an origin', [])).toBe(false);
    expect(isControlOrigin('https://app.example', '127.0.0.1:4700', ['https://app.example'])).toBe(true);
  });

  it('refuses another origin, for a read as for a write, naming the setting', () => {
    for (const write of [false, true]) {
      const problem = controlRequestProblem(
        { ...json, origin: 'http://localhost:5173', host: '127.0.0.1:4700' },
        write,
        [],
      );
      expect(problem).toContain('http://localhost:5173');
      expect(problem).toContain('controlOrigins');
    }
    // An empty or opaque (`null`) Origin is still an Origin: a browser page sent it.
    for (const origin of ['', 'null'])
      expect(controlRequestProblem({ ...json, origin, host: '127.0.0.1:4700' }, false, []), origin).toContain(
        'controlOrigins',
      );
    expect(controlRequestProblem({ ...json, origin: 'http://127.0.0.1:4700', host: '127.0.0.1:4700' }, true, [])).toBe(
      undefined,
    );
  });

  it('takes a write typed JSON or carrying the control header, and refuses a simple request', () => {
    for (const contentType of [
      'application/json',
      'Application/JSON; charset=utf-8',
      ' application/json ',
      'application/merge-patch+json',
      'application/vnd.api+json;v=1',
    ])
      expect(controlRequestProblem({ contentType, controlHeader: false }, true, []), contentType).toBeUndefined();
    for (const contentType of [
      undefined,
      '',
      'text/plain',
      'text/plain; x=application/json',
      'text/plain;charset=application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=application/json',
      'text/json',
      'text/plain+json',
      'application/jsonp',
      'application/json-seq',
      '+json',
      'x-application/thing+json',
    ]) {
      const problem = controlRequestProblem({ contentType, controlHeader: false }, true, []);
      expect(problem, String(contentType)).toContain('x-sitekit-emulator: 1');
    }
    expect(controlRequestProblem({ contentType: 'text/plain', controlHeader: true }, true, [])).toBeUndefined();
    // A read needs neither.
    expect(controlRequestProblem({ contentType: 'text/plain', controlHeader: false }, false, [])).toBeUndefined();
  });

  it("is every path under /_emulator/, by the route's pattern or the decoded path", () => {
    expect(isControlPath('/_emulator/reset', '/%5Femulator/reset')).toBe(true);
    // The route decides, even where the URL does not decode (a parameter with a bad escape).
    expect(isControlPath('/_emulator/requests/:id', '/%5Femulator/requests/%E0%A4%A')).toBe(true);
    for (const url of ['/_emulator/info', '/_emulator', '/_emulator?x=1', '/%5Femulator/info', '/%5femulator/faults?x'])
      expect(isControlPath(undefined, url), url).toBe(true);
    for (const url of ['/wix-data/v2/items', '/_emulatorx', '/x/_emulator/info', '/_emulator%', '/%E0%A4%A/_emulator/'])
      expect(isControlPath(undefined, url), url).toBe(false);
    expect(isControlPath('/wix-data/v2/items/query', '/_emulator/info?')).toBe(true);
    expect(isControlPath('/wix-data/v2/items/query', '/wix-data/v2/items/query?next=/_emulator/')).toBe(false);
  });
});
