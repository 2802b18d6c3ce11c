/**
 * Security (issue 18) in a real browser: what a page of another site can do to the emulator next to
 * it (finding 6: reset it with a no-cors fetch or a form post; read its API key), and what an uploaded
 * file can do on the emulator's origin (finding 3: stored XSS). The other site is
 * `http://evil.example:<port>`, mapped to a local server by Chromium's host resolver. Issue 31: a
 * page of another local port (an app's dev server) writes to the platform API (items 8) but cannot
 * use the control API (item 1).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';
import { chromiumArgs, chromiumPath, describeInBrowser, e2eTestTimeoutMs } from './harness.js';

describeInBrowser('security in the browser', () => {
  let emulator: Emulator;
  let browser: Browser;
  let attacker: Server;
  let attackerUrl: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, memory: true });
    attacker = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>evil</title><p>evil</p>');
    });
    attacker.listen(0, '127.0.0.1');
    await once(attacker, 'listening');
    attackerUrl = `http://evil.example:${(attacker.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [...chromiumArgs, '--host-resolver-rules=MAP evil.example 127.0.0.1'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    attacker?.close();
    await emulator?.close();
  });

  /** Whether the state survived: a reset empties the request log, which holds this marker until then. */
  async function markState(): Promise<() => Promise<boolean>> {
    const marker = `/_emulator/marker-${Math.random().toString(36).slice(2)}`;
    await fetch(emulator.url + marker);
    return async () => {
      const { requests } = (await (await fetch(`${emulator.url}/_emulator/requests?limit=1000`)).json()) as {
        requests: { path: string }[];
      };
      return requests.some((logged) => logged.path == marker);
    };
  }

  it(
    'a page of another site can neither reset the emulator nor read its API key',
    async () => {
      const untouched = await markState();
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${attackerUrl}/attack`);
        const outcome = await page.evaluate(async (target: string) => {
          const attempt = (run: () => Promise<unknown>) =>
            run().then(
              () => 'answered',
              () => 'failed',
            );
          return {
            // A no-cors fetch sends a simple request and gets an opaque answer: the server decides.
            noCors: await attempt(() => fetch(`${target}/_emulator/reset`, { method: 'POST', mode: 'no-cors' })),
            noCorsJson: await attempt(() =>
              fetch(`${target}/_emulator/reset`, {
                method: 'POST',
                mode: 'no-cors',
                headers: { 'content-type': 'application/json' },
                body: '{"seed":false}',
              }),
            ),
            // A CORS request with JSON is preflighted, and the preflight is refused.
            cors: await attempt(() =>
              fetch(`${target}/_emulator/reset`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: '{"seed":false}',
              }),
            ),
            info: await fetch(`${target}/_emulator/info`).then(
              (response) => response.text(),
              () => 'failed',
            ),
          };
        }, emulator.url);
        expect(outcome.cors).toBe('failed');
        expect(outcome.info).toBe('failed');
        expect(await untouched()).toBe(true);

        // A form post (a top-level navigation the browser sends without asking).
        await page.setContent(
          `<form method="post" action="${emulator.url}/_emulator/reset" enctype="text/plain"><input name='{"seed":false, "x":"' value='"}'></form>`,
        );
        const [response] = await Promise.all([
          page.waitForNavigation(),
          page.evaluate(() => document.forms[0]!.submit()),
        ]);
        expect(response?.status()).toBe(403);
        expect(await untouched()).toBe(true);
      } finally {
        await context.close();
      }
    },
    e2eTestTimeoutMs,
  );

  it(
    'a page on another local port writes through the platform API (PUT, PATCH, DELETE) but cannot use the control API',
    async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        // The same local server, reached as localhost: another project's dev server next to the emulator.
        await page.goto(`http://localhost:${(attacker.address() as AddressInfo).port}/app`);
        const outcome = await page.evaluate(
          async ({ target, apiKey }) => {
            const call = async (method: string, path: string, body?: unknown) => {
              try {
                const response = await fetch(`${target}${path}`, {
                  method,
                  headers: {
                    authorization: apiKey,
                    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
                  },
                  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
                });
                return { status: response.status, body: (await response.json()) as Record<string, any> };
              } catch (error) {
                return { status: 0, body: { failed: String(error) } };
              }
            };
            const created = await call('POST', '/wix-data/v2/items', {
              dataCollectionId: 'Movies',
              dataItem: { data: { title: 'from the app' } },
            });
            const id = created.body.dataItem?.id as string;
            const updated = await call('PUT', `/wix-data/v2/items/${id}`, {
              dataCollectionId: 'Movies',
              dataItem: { id, data: { title: 'updated from the app' } },
            });
            const members = await call('POST', '/members/v1/members/query', {});
            const memberId = members.body.members?.[0]?.id as string;
            const member = await call('PATCH', `/members/v1/members/${memberId}`, {
              member: { profile: { nickname: 'patched from the app' } },
            });
            const removed = await call('DELETE', `/wix-data/v2/items/${id}?dataCollectionId=Movies`);
            const signInAs = await call('POST', '/_emulator/sign-in-as', { email: 'ada@example.com' });
            const exported = await call('GET', '/_emulator/export');
            return {
              statuses: [created.status, updated.status, member.status, removed.status],
              signInAs: signInAs.status,
              exported: exported.status,
            };
          },
          { target: emulator.url, apiKey: emulator.info.apiKey },
        );
        expect(outcome.statuses).toEqual([200, 200, 200, 200]);
        // Refused (403, without a CORS grant): the page sees only a failed fetch.
        expect(outcome.signInAs).toBe(0);
        expect(outcome.exported).toBe(0);
      } finally {
        await context.close();
      }
    },
    e2eTestTimeoutMs,
  );

  it(
    "a visitor's HTML or SVG upload never runs script on the emulator's origin: it is downloaded",
    async () => {
      const { apiKey, clientId } = emulator.info;
      const visitor = (await (
        await fetch(`${emulator.url}/oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId, grantType: 'anonymous' }),
        })
      ).json()) as { access_token: string };
      const script = `<script>document.title = 'ran'; fetch('/_emulator/info').then((r) => r.text()).then((t) => { document.title = t; });</script>`;
      for (const [fileName, mimeType, content] of [
        ['page.html', 'text/html', `<!doctype html><title>file</title>${script}`],
        ['image.svg', 'image/svg+xml', `<svg xmlns="http://www.w3.org/2000/svg">${script}</svg>`],
      ] as const) {
        const generated = (await (
          await fetch(`${emulator.url}/site-media/v1/files/generate-upload-url`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: visitor.access_token },
            body: JSON.stringify({ mimeType, fileName }),
          })
        ).json()) as { uploadUrl: string };
        const uploaded = (await (
          await fetch(`${generated.uploadUrl}?filename=${fileName}`, { method: 'PUT', body: content })
        ).json()) as { file: { id: string } };

        const context = await browser.newContext({ acceptDownloads: true });
        try {
          const page = await context.newPage();
          const fileUrl = `${emulator.url}/_media/files/${uploaded.file.id}`;
          const [download] = await Promise.all([
            page.waitForEvent('download'),
            page.goto(fileUrl).catch(() => undefined),
          ]);
          expect(download.url()).toBe(fileUrl);
          expect(await page.title()).not.toContain('ran');
          expect(await page.title()).not.toContain(apiKey);
        } finally {
          await context.close();
        }
      }
    },
    e2eTestTimeoutMs,
  );
});
