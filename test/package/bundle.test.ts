/**
 * The built package as an app's bundler sees it: `import { createClient } from 'sitekit-sdk'` bundled
 * for a browser must pull no Node built-in (the `fetch` build), and bundled for Node it gets the
 * `node` build (node:http). Reads dist/ (built first when missing or stale: `built-package.ts`).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from './built-package.js';

const root = resolve(import.meta.dirname, '../..');
const app = mkdtempSync(join(tmpdir(), 'sitekit-bundle-'));

beforeAll(async () => {
  await ensurePackageBuilt();
  // An app with sitekit installed: node_modules/sitekit-sdk is the package itself.
  mkdirSync(join(app, 'node_modules'));
  symlinkSync(root, join(app, 'node_modules/sitekit-sdk'), 'dir');
  writeFileSync(join(app, 'app.mjs'), "import { createClient } from 'sitekit-sdk';\nconsole.log(createClient);\n");
}, 120_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

const isNodeBuiltin = (path: string): boolean =>
  path.startsWith('node:') || builtinModules.includes(path.split('/')[0]!);

/** Bundles the app (code splitting on, so lazy chunks are checked too); returns what went in and what stayed external. */
async function bundle(platform: 'browser' | 'node'): Promise<{ inputs: string[]; externals: string[] }> {
  const result = await build({
    entryPoints: [join(app, 'app.mjs')],
    absWorkingDir: app,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform,
    outdir: join(app, `out-${platform}`),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const metafile: Metafile = result.metafile;
  return {
    inputs: Object.keys(metafile.inputs),
    externals: Object.values(metafile.outputs).flatMap((output) =>
      output.imports.filter((imported) => imported.external).map((imported) => imported.path),
    ),
  };
}

describe('the package entry bundled by an app', () => {
  it('for a browser: the fetch build, and no Node built-in anywhere (lazy chunks included)', async () => {
    const { inputs, externals } = await bundle('browser');
    expect(inputs.some((input) => input.endsWith('dist/index.mjs'))).toBe(true);
    expect(inputs.filter((input) => input.includes('dist/node/'))).toEqual([]);
    expect(externals.filter(isNodeBuiltin)).toEqual([]);
    // Typed raw calls are a subpath of their own: the core bundle carries none of it.
    expect(inputs.filter((input) => /openapi/.test(input))).toEqual([]);
  });

  it('for Node: the node build, which sends through node:http', async () => {
    const { inputs, externals } = await bundle('node');
    expect(inputs.some((input) => input.endsWith('dist/node/index.mjs'))).toBe(true);
    expect(externals).toContain('node:http');
  });
});
