/**
 * Icons: every HTML page the emulator serves names an inline icon, so a browser never asks for
 * `/favicon.ico` on its own; and when something asks anyway, the answer is not an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePKCE } from '../../../src/index.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ consoleDir: '/nonexistent-console-build' });
});
afterAll(() => emulator?.close());

const ICON_LINK = /<link rel="icon" href="data:image\/svg\+xml,[^"]+">/;

describe('icons', () => {
  it('GET /favicon.ico answers 204 when the console has no icon file', async () => {
    const response = await emulator.fetch('/favicon.ico');
    expect(response.status).toBe(204);
  });

  it('the hosted sign-in, landing, logout and "console not built" pages carry an inline icon', async () => {
    const { codeChallenge } = await generatePKCE();
    const authRequest = {
      redirectUri: 'http://localhost:5999/cb',
      clientId: emulator.info.clientId,
      codeChallenge,
      codeChallengeMethod: 'S256',
      responseMode: 'fragment',
      responseType: 'code',
      scope: 'offline_access',
      state: 'icon',
    };
    const created = (await (
      await emulator.fetch('/_api/redirects-api/v1/redirect-session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ auth: { authRequest, prompt: 'login' } }),
      })
    ).json()) as { redirectSession: { fullUrl: string } };
    const pages = [
      created.redirectSession.fullUrl,
      `${emulator.url}/_pages/signed-in`,
      `${emulator.url}/_pages/logout/unknown`,
      `${emulator.url}/`,
    ];
    for (const url of pages) expect(await (await fetch(url)).text(), url).toMatch(ICON_LINK);
  });
});
