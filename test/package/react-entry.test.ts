/**
 * The packed package, as users install it (`npm pack`, unpacked into a temporary app's
 * node_modules): `sitekit-sdk/react` imports in ESM and CJS and type-checks under NodeNext; its entry
 * starts with 'use client'; and `sitekit-sdk` alone loads where React is not installed at all.
 * Reads dist/ (built first when missing or stale: `built-package.ts`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from './built-package.js';
import { appWithPackage, packPackage } from './packed-app.js';

const root = resolve(import.meta.dirname, '../..');
// Built first when missing or stale, so the first run on a fresh clone tests it too.
await ensurePackageBuilt();

const HOOKS = [
  'SiteKitProvider',
  'useClient',
  'useAuth',
  'useCurrentMember',
  'useUpload',
  'queryOptions',
  'infiniteQueryOptions',
  'mutationOptions',
];

let work: string;
let tarball: string;
/** An app folder with the unpacked package in node_modules, and links to the given installed packages. */
const app = (name: string, linked: string[]) => appWithPackage(tarball, join(work, name), linked);
const run = (folder: string, file: string, source: string) => {
  writeFileSync(join(folder, file), source);
  return execFileSync(process.execPath, [file], { cwd: folder, encoding: 'utf8' }).trim();
};

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sitekit-packed-'));
  tarball = packPackage(work);
}, 60_000);
afterAll(() => work && rmSync(work, { recursive: true, force: true }));

describe('the packed sitekit-sdk/react', () => {
  const withReact = [
    'react',
    'react-dom',
    'scheduler',
    'jose',
    'tus-js-client',
    '@tanstack/react-query',
    '@tanstack/query-core',
    '@types/react',
  ];

  it('imports in ESM and CJS, with the entry marked as client code', () => {
    const folder = app('with-react', withReact);
    const names = JSON.stringify(HOOKS);
    expect(
      run(
        folder,
        'esm.mjs',
        `import * as react from 'sitekit-sdk/react';\nconsole.log(${names}.map((n) => typeof react[n]).join());\n`,
      ),
    ).toBe(HOOKS.map(() => 'function').join());
    expect(
      run(
        folder,
        'cjs.cjs',
        `const react = require('sitekit-sdk/react');\nconsole.log(${names}.map((n) => typeof react[n]).join());\n`,
      ),
    ).toBe(HOOKS.map(() => 'function').join());
    for (const file of ['react.mjs', 'react.cjs'])
      expect(readFileSync(join(folder, 'node_modules/sitekit-sdk/dist', file), 'utf8').split('\n')[0]).toBe(
        "'use client';",
      );
  });

  it('type-checks from ESM and CJS (NodeNext)', () => {
    const folder = app('types', withReact);
    const usage = (from: string) => `${from}
const client = createClient({ auth: OAuthStrategy({ clientId: 'c' }) });
const options = queryOptions(client.items.query<{ title: string }>('Movies').limit(5), { returnTotalCount: true });
const titles: string[] = [];
void options.queryFn({ signal: new AbortController().signal }).then((page) => titles.push(...page.items.map((item) => item.title)));
const element = createElement(SiteKitProvider, { client }, null);
export const used = [element, useAuth, useCurrentMember, useUpload];
// @ts-expect-error: the query function must start from the client
queryOptions(client, 42);
// @ts-expect-error: a member query takes no find options
queryOptions(client.members.queryMembers(), { returnTotalCount: true });
`;
    writeFileSync(
      join(folder, 'esm.mts'),
      usage(
        `import { createElement } from 'react';\nimport { createClient, OAuthStrategy } from 'sitekit-sdk';\nimport { SiteKitProvider, useAuth, useCurrentMember, useUpload, queryOptions } from 'sitekit-sdk/react';`,
      ),
    );
    writeFileSync(
      join(folder, 'cjs.cts'),
      usage(
        `import { createElement } from 'react';\nimport { createClient, OAuthStrategy } from 'sitekit-sdk';\nimport { SiteKitProvider, useAuth, useCurrentMember, useUpload, queryOptions } from 'sitekit-sdk/react';`,
      ),
    );
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          lib: ['ES2022', 'DOM'],
        },
        files: ['esm.mts', 'cjs.cts'],
      }),
    );
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: folder, encoding: 'utf8' });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout);
    }
    expect(output).toBe('');
  }, 60_000);

  it('leaves React out of sitekit-sdk: it loads (ESM and CJS) where React is not installed', () => {
    const folder = app('without-react', ['jose', 'tus-js-client']);
    expect(existsSync(join(folder, 'node_modules/react'))).toBe(false);
    expect(
      run(folder, 'esm.mjs', `import { createClient } from 'sitekit-sdk';\nconsole.log(typeof createClient);\n`),
    ).toBe('function');
    expect(
      run(folder, 'cjs.cjs', `const { createClient } = require('sitekit-sdk');\nconsole.log(typeof createClient);\n`),
    ).toBe('function');
  });
});
