/**
 * The emulator's server packages (Fastify and its schema validator, the TUS upload server) come
 * bundled in the built package (dist/vendor/): in an app where the packed package is installed and
 * neither fastify nor @tus/* is, `sitekit-sdk/emulator` starts (ESM and CommonJS), validates
 * requests with the production error shape, takes a resumable upload from the package's own SDK,
 * and serves the console. Reads dist/ (built first when missing or stale: `built-package.ts`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from './built-package.js';
import { appWithPackage, packPackage } from './packed-app.js';

const root = resolve(import.meta.dirname, '../..');
await ensurePackageBuilt();

let work: string;
let app: string;
/** Runs `source` as `file` in the app with this Node; its output. */
const run = async (file: string, source: string) => {
  writeFileSync(join(app, file), source);
  const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: app, encoding: 'utf8' });
  return stdout.trim();
};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sitekit-bundled-server-'));
  // The package's dependencies and the database; no server package.
  app = appWithPackage(packPackage(work), join(work, 'app'), ['jose', 'tus-js-client', 'better-sqlite3']);
}, 60_000);
afterAll(() => work && rmSync(work, { recursive: true, force: true }));

describe('the packed emulator, in an app without its server packages', () => {
  it('has none of them to find: they are bundled', async () => {
    const found = await run(
      'find.cjs',
      `for (const name of ['fastify', '@fastify/ajv-compiler', '@tus/server', '@tus/file-store']) {
         try { require.resolve(name); console.log(name); } catch {}
       }`,
    );
    expect(found).toBe('');
  });

  it('starts from ESM, refuses a bad body in the production shape, takes a resumable upload and serves the console', async () => {
    const output = await run(
      'serve.mjs',
      `import { startEmulator } from 'sitekit-sdk/emulator';
       import { ApiKeyStrategy, createClient } from 'sitekit-sdk';
       const emulator = await startEmulator({ memory: true, port: 0 });
       try {
         const { apiKey, siteId } = emulator.info;
         const bad = await fetch(emulator.url + '/wix-data/v2/items', {
           method: 'POST',
           headers: { authorization: apiKey, 'wix-site-id': siteId, 'content-type': 'application/json' },
           body: JSON.stringify({ dataCollectionId: 'Movies', dataItem: 5 }),
         });
         const client = createClient({ baseUrl: emulator.url, auth: ApiKeyStrategy({ apiKey, siteId }), retry: false });
         const bytes = new Uint8Array(70_000).map((_, index) => index % 251);
         const file = await client.media.upload(bytes, { mimeType: 'application/octet-stream', fileName: 'a.bin', resumable: true });
         const page = await fetch(emulator.url + '/');
         console.log(JSON.stringify({ status: bad.status, body: await bad.json(), size: file.sizeInBytes, page: page.status }));
       } finally {
         await emulator.close();
       }`,
    );
    const result = JSON.parse(output);
    expect(result.status).toBe(400);
    expect(result.body.details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: 'dataItem', description: 'must be object' }),
    ]);
    expect(result.size).toBe('70000');
    expect(result.page).toBe(200);
  }, 60_000);

  it('starts from CommonJS, sharing the bundled files with the ESM build', async () => {
    const output = await run(
      'serve.cjs',
      `const { startEmulator } = require('sitekit-sdk/emulator');
       startEmulator({ memory: true, port: 0 }).then(async (emulator) => {
         const info = await (await fetch(emulator.url + '/_emulator/info')).json();
         console.log(info.siteId === emulator.info.siteId);
         await emulator.close();
       });`,
    );
    expect(output).toBe('true');
    const emulatorCjs = readFileSync(join(root, 'dist/emulator.cjs'), 'utf8');
    expect(emulatorCjs).toContain("require('./vendor/server-packages.cjs')");
  }, 60_000);

  it('ships the bundled packages’ licenses beside them', () => {
    const licenses = readFileSync(join(app, 'node_modules/sitekit-sdk/dist/vendor/LICENSES.md'), 'utf8');
    for (const name of ['fastify', 'avvio', 'ajv', 'find-my-way', '@tus/server', '@tus/file-store'])
      expect(licenses).toMatch(new RegExp(`^## ${name.replace('/', '\\/')}@\\d`, 'm'));
  });
});
