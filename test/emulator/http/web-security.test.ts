/**
 * Security (issue 18), what a web page can do to the emulator: reset it from another origin
 * (finding 6), reach it through a rebound DNS name (finding 7), frame its sign-in pages (finding 13);
 * (issue 31, item 1) use its control API from another local page.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { setConfig } from '../../helpers/sign-in.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

/** A request with the headers exactly as given (fetch would not let a test set `Host`). */
function rawRequest(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { port } = new URL(emulator.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/**
 * Whether the state survived: a reset empties the request log, so a request logged before the
 * attempts is still listed after them only if nothing was reset.
 */
async function markState(): Promise<() => Promise<boolean>> {
  const marker = `/_emulator/marker-${Math.random().toString(36).slice(2)}`;
  await emulator.fetch(marker);
  return async () => {
    const { requests } = (await (await emulator.fetch('/_emulator/requests?limit=1000')).json()) as {
      requests: { path: string }[];
    };
    return requests.some((logged) => logged.path == marker);
  };
}

describe('control API writes (finding 6)', () => {
  it('refuses a reset from another origin, with or without a JSON body, and changes nothing', async () => {
    const untouched = await markState();
    const simple = await rawRequest('/_emulator/reset', {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    });
    expect(simple.status).toBe(403);
    const json = await rawRequest('/_emulator/reset', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{"seed":false}',
    });
    expect(json.status).toBe(403);
    expect(JSON.parse(json.body)).toMatchObject({ details: { applicationError: { code: 'PERMISSION_DENIED' } } });
    // A sandboxed frame (a user file's page, a data: URL) sends the opaque origin `null`.
    const opaque = await rawRequest('/_emulator/reset', {
      method: 'POST',
      headers: { origin: 'null', 'x-sitekit-emulator': '1', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(opaque.status).toBe(403);
    expect(await untouched()).toBe(true);
  });

  it('refuses a simple request (a form post, a no-cors fetch) even without an Origin', async () => {
    const untouched = await markState();
    for (const contentType of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      // Still simple requests: the browser reads only the type before the `;`.
      'text/plain; x=application/json',
      'text/plain;charset=application/json',
    ]) {
      const response = await rawRequest('/_emulator/reset', {
        method: 'POST',
        headers: contentType ? { 'content-type': contentType } : {},
        body: contentType ? 'seed=false' : undefined,
      });
      expect(response.status, String(contentType)).toBe(403);
      expect(response.body).toContain('x-sitekit-emulator');
    }
    const config = await rawRequest('/_emulator/config', {
      method: 'PUT',
      headers: { origin: 'http://localhost:5173', 'content-type': 'text/plain' },
      body: '{"captchaRequired":true}',
    });
    expect(config.status).toBe(403);
    expect(await untouched()).toBe(true);
  });

  it("accepts a JSON body or the control header from the emulator's own or a named origin, and from Node", async () => {
    const fromConsole = await rawRequest('/_emulator/reset', {
      method: 'POST',
      headers: { origin: emulator.url, 'x-sitekit-emulator': '1' },
    });
    expect(fromConsole.status).toBe(200);
    const fromNode = await emulator.fetch('/_emulator/reset', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(fromNode.status).toBe(200);

    await setConfig(emulator, { controlOrigins: ['https://app.example'] });
    const configured = await rawRequest('/_emulator/reset', {
      method: 'POST',
      headers: { origin: 'https://app.example', 'content-type': 'application/json; charset=utf-8' },
      body: '{}',
    });
    expect(configured.status).toBe(200);
    await setConfig(emulator, { controlOrigins: [] });
  });

  it("accepts a write from the emulator's own origin reached through an allowed name (the console behind a proxy)", async () => {
    await setConfig(emulator, { allowedHosts: ['proxy.example'] });
    try {
      const behindProxy = await rawRequest('/_emulator/config', {
        method: 'PUT',
        headers: { host: 'proxy.example', origin: 'https://proxy.example', 'content-type': 'application/json' },
        body: JSON.stringify({ config: { captchaRequired: false } }),
      });
      expect(behindProxy.status).toBe(200);
      const other = await rawRequest('/_emulator/config', {
        method: 'PUT',
        headers: { host: 'proxy.example', origin: 'https://elsewhere.example', 'content-type': 'application/json' },
        body: JSON.stringify({ config: { captchaRequired: false } }),
      });
      expect(other.status).toBe(403);
    } finally {
      await setConfig(emulator, { allowedHosts: [] });
    }
  });

  it('answers no CORS preflight of another origin', async () => {
    const preflight = await rawRequest('/_emulator/reset', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-sitekit-emulator',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the control API from other local pages (issue 31, item 1)', () => {
  const otherPort = 'http://localhost:5173';
  const signInAs = (headers: Record<string, string>) =>
    rawRequest('/_emulator/sign-in-as', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });

  it("refuses another port's page: no member's tokens, no export, no preflight", async () => {
    const signedIn = await signInAs({ origin: otherPort });
    expect(signedIn.status).toBe(403);
    expect(signedIn.body).not.toContain('accessToken');
    expect(JSON.parse(signedIn.body)).toMatchObject({ details: { applicationError: { code: 'PERMISSION_DENIED' } } });
    expect(signedIn.body).toContain('--control-origin http://localhost:5173');
    for (const origin of [otherPort, 'http://127.0.0.1:3000', 'http://[::1]:8080', 'http://app.localhost', 'null']) {
      // Spelled with an escape too: the rule follows the path the router matches.
      for (const path of ['/_emulator/export', '/%5Femulator/export', '/_emulator/info']) {
        const read = await rawRequest(path, { headers: { origin } });
        expect(read.status, `${origin} ${path}`).toBe(403);
        expect(read.headers['access-control-allow-origin'], origin).toBeUndefined();
        expect(read.body).not.toContain('passwordHash');
        expect(read.body).not.toContain(emulator.info.apiKey);
      }
    }
    const preflight = await rawRequest('/_emulator/sign-in-as', {
      method: 'OPTIONS',
      headers: { origin: otherPort, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    // The platform's CORS origins are not the control API's.
    await setConfig(emulator, { allowedCorsOrigins: ['https://app.example'] });
    try {
      expect((await signInAs({ origin: 'https://app.example' })).status).toBe(403);
    } finally {
      await setConfig(emulator, { allowedCorsOrigins: [] });
    }
  });

  it("still answers the emulator's own origin (the console), by any name it is reached at, and callers without an Origin", async () => {
    const { port } = new URL(emulator.url);
    expect((await signInAs({ origin: emulator.url })).status).toBe(200);
    const byName = await rawRequest('/_emulator/export', {
      headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` },
    });
    expect(byName.status).toBe(200);
    expect((await signInAs({})).status).toBe(200);
    // The platform API keeps answering the app's own dev server.
    const app = await rawRequest('/_emulator/info', { headers: { origin: otherPort } });
    expect(app.status).toBe(403);
    const token = await rawRequest('/oauth2/token', {
      method: 'POST',
      headers: { origin: otherPort, 'content-type': 'application/json' },
      body: JSON.stringify({ grantType: 'anonymous', clientId: emulator.info.clientId }),
    });
    expect(token.status).toBe(200);
    expect(token.headers['access-control-allow-origin']).toBe(otherPort);
  });

  it('answers the origins the user names: the controlOrigins setting and the start option', async () => {
    await setConfig(emulator, { controlOrigins: [otherPort] });
    try {
      const signedIn = await signInAs({ origin: otherPort });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers['access-control-allow-origin']).toBe(otherPort);
      expect((await signInAs({ origin: 'http://localhost:5174' })).status).toBe(403);
    } finally {
      await setConfig(emulator, { controlOrigins: [] });
    }
    const refused = await emulator.fetch('/_emulator/config', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ config: { controlOrigins: ['http://localhost:5173/'] } }),
    });
    expect(refused.status).toBe(400);

    const started = await startEmulator({ controlOrigins: [otherPort] });
    try {
      const { port } = new URL(started.url);
      const answer = await new Promise<number>((resolve, reject) =>
        httpRequest(
          { host: '127.0.0.1', port, path: '/_emulator/export', headers: { origin: otherPort } },
          (response) => {
            response.resume();
            resolve(response.statusCode!);
          },
        )
          .on('error', reject)
          .end(),
      );
      expect(answer).toBe(200);
    } finally {
      await started.close();
    }
    await expect(startEmulator({ controlOrigins: ['localhost:5173'] })).rejects.toThrow(/is not an origin/);
  });
});

describe('Host check against DNS rebinding (finding 7)', () => {
  it('refuses a name the emulator is not known by, on every route', async () => {
    for (const path of ['/_emulator/info', '/_emulator/export', '/', '/oauth2/token']) {
      const response = await rawRequest(path, { headers: { host: 'rebind.attacker.example' } });
      expect(response.status, path).toBe(403);
      expect(response.body).not.toContain(emulator.info.apiKey);
      expect(JSON.parse(response.body)).toMatchObject({ details: { applicationError: { code: 'HOST_NOT_ALLOWED' } } });
    }
  });

  it('answers loopback names and addresses, IP addresses and the configured hosts', async () => {
    const { port } = new URL(emulator.url);
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      'app.localhost',
      `[::1]:${port}`,
      // A fully qualified name's trailing dot names the same host.
      `localhost.:${port}`,
      'app.localhost.',
      '192.168.1.20',
      // Other spellings of an address (the URL parser's), still addresses.
      '2130706433',
      '[::ffff:127.0.0.1]',
    ]) {
      expect((await rawRequest('/_emulator/info', { headers: { host } })).status, host).toBe(200);
    }
    // A DNS name is never taken for an address, however it is spelled (a trailing dot, a port, capitals).
    for (const host of [
      'localhost.attacker.example',
      '127.0.0.1.nip.io',
      'user@localhost',
      'rebind.attacker.example.',
      'REBIND.attacker.example:80',
      'localhost.attacker.example.:4700',
    ]) {
      expect((await rawRequest('/_emulator/info', { headers: { host } })).status, host).toBe(403);
    }
    await setConfig(emulator, { allowedHosts: ['proxy.example', '.tunnel.example'] });
    try {
      for (const host of [
        'proxy.example',
        'PROXY.example:8080',
        'proxy.example.',
        'tunnel.example',
        'abc.tunnel.example',
      ])
        expect((await rawRequest('/_emulator/info', { headers: { host } })).status, host).toBe(200);
      // `.tunnel.example` is that domain and its subdomains, not any name ending in its letters.
      for (const host of ['other.example', 'eviltunnel.example', 'tunnel.example.attacker.example'])
        expect((await rawRequest('/_emulator/info', { headers: { host } })).status, host).toBe(403);
    } finally {
      await setConfig(emulator, { allowedHosts: [] });
    }
  });

  it('follows each change of allowedHosts for a Host it has answered before (the answers per Host are remembered)', async () => {
    const status = async () => (await rawRequest('/_emulator/info', { headers: { host: 'later.example' } })).status;
    const setHosts = (allowedHosts: string[]) => setConfig(emulator, { allowedHosts });
    expect(await status()).toBe(403);
    await setHosts(['later.example']);
    try {
      expect(await status()).toBe(200);
    } finally {
      await setHosts([]);
    }
    expect(await status()).toBe(403);
  });
});

describe('Host check: the start option', () => {
  it('answers the allowedHosts given at start (a Docker service name), and still no other', async () => {
    const started = await startEmulator({ allowedHosts: ['emulator'] });
    try {
      const { port } = new URL(started.url);
      const ask = (host: string) =>
        new Promise<number>((resolve, reject) =>
          httpRequest({ host: '127.0.0.1', port, path: '/_emulator/health', headers: { host } }, (response) => {
            response.resume();
            resolve(response.statusCode!);
          })
            .on('error', reject)
            .end(),
        );
      expect(await ask(`emulator:${port}`)).toBe(200);
      expect(await ask('rebind.attacker.example')).toBe(403);
    } finally {
      await started.close();
    }
  });
});

describe('hosted pages and framing (finding 13)', () => {
  /** Creates a redirect session for a sign-in (the emulator's answer: 400 for a redirect URI it refuses). */
  function redirectSession(options: {
    prompt: 'login' | 'none';
    responseMode: 'web_message' | 'fragment';
    redirectUri: string;
  }): Promise<Response> {
    const codeChallenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    return emulator.fetch('/_api/redirects-api/v1/redirect-session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        auth: {
          authRequest: {
            clientId: emulator.info.clientId,
            redirectUri: options.redirectUri,
            codeChallenge,
            codeChallengeMethod: 'S256',
            responseMode: options.responseMode,
            responseType: 'code',
            scope: 'offline_access',
            state: 'state',
          },
          prompt: options.prompt,
        },
      }),
    });
  }

  /** A redirect session's page URL for a sign-in with `prompt`. */
  async function signInPage(prompt: 'login' | 'none'): Promise<string> {
    const response = await redirectSession({
      prompt,
      responseMode: 'web_message',
      redirectUri: 'http://localhost:5173/callback',
    });
    return ((await response.json()) as { redirectSession: { fullUrl: string } }).redirectSession.fullUrl;
  }

  it("sends no code to the emulator's own API paths, where an expired download URL redirects anywhere (and the browser carries the code's fragment along)", async () => {
    const { port } = new URL(emulator.url);
    const fragmentSession = (redirectUri: string) =>
      redirectSession({ prompt: 'none', responseMode: 'fragment', redirectUri });
    for (const redirectUri of [
      `${emulator.url}/_media/download/file?expires=1&disposition=ATTACHMENT&expiredRedirect=https%3A%2F%2Fevil.example%2F`,
      `http://localhost:${port}/_media/download/file`,
      `http://[::1]:${port}/_emulator/info`,
      `${emulator.url}/_uploads/files/x`,
    ]) {
      const refused = await fragmentSession(redirectUri);
      expect(refused.status, redirectUri).toBe(400);
      expect(await refused.json()).toMatchObject({ details: { applicationError: { code: 'INVALID_REDIRECT_URI' } } });
    }
    // The console's pages, the landing page, and any path of another local port still receive codes.
    for (const redirectUri of [
      `${emulator.url}/site/callback`,
      `${emulator.url}/_pages/signed-in`,
      `http://localhost:${Number(port) + 1}/_media/callback`,
    ])
      expect((await fragmentSession(redirectUri)).status, redirectUri).toBe(200);
  });

  it('no origin may frame the sign-in, landing or logout pages', async () => {
    const logout = await emulator.fetch('/_api/redirects-api/v1/redirect-session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ logout: { clientId: emulator.info.clientId } }),
    });
    const logoutUrl = ((await logout.json()) as { redirectSession: { fullUrl: string } }).redirectSession.fullUrl;
    for (const url of [await signInPage('login'), `${emulator.url}/_pages/signed-in`, logoutUrl]) {
      const page = await fetch(url, { redirect: 'manual' });
      expect(page.headers.get('content-security-policy'), url).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options'), url).toBe('DENY');
    }
  });

  it('the policy holds for a HEAD of a page and for a path spelled with escapes, and only for the pages', async () => {
    for (const [method, path] of [
      ['HEAD', '/_pages/signed-in'],
      ['GET', '/%5Fpages/signed-in'],
    ]) {
      const page = await emulator.fetch(path!, { method, redirect: 'manual' });
      expect(page.status, `${method} ${path}`).toBe(200);
      expect(page.headers.get('content-security-policy'), `${method} ${path}`).toBe("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options'), `${method} ${path}`).toBe('DENY');
    }
    const api = await emulator.fetch('/_emulator/health');
    expect(api.headers.get('content-security-policy')).toBeNull();
  });

  it("the silent (prompt=none) page may be framed by the client's allowed origins only", async () => {
    const page = await fetch(await signInPage('none'), { redirect: 'manual' });
    const policy = page.headers.get('content-security-policy') ?? '';
    const ancestors = /frame-ancestors ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
    expect(ancestors).toContain('http://localhost:*');
    expect(ancestors).toContain("'self'");
    expect(ancestors).not.toContain('*');
    expect(ancestors.some((source) => source.includes('evil'))).toBe(false);
    expect(page.headers.get('x-frame-options')).toBeNull();
  });
});

describe('the console and framing (clickjacking)', () => {
  it('no other origin may frame the console: its pages write to the control API as the emulator itself (reset, sign in as)', async () => {
    for (const path of ['/', '/collections/Movies', '/bench']) {
      const page = await emulator.fetch(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type'), path).toContain('text/html');
      expect(page.headers.get('content-security-policy'), path).toBe("frame-ancestors 'self'");
      expect(page.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
  });
});
