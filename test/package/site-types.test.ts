/**
 * The bar of `sitekit-sdk types`, as a user meets it: the packed package unpacked into an app with
 * TypeScript (and none of the emulator's server packages), `npx sitekit-sdk types` run against an
 * emulator, then a file that queries a generated collection compiles with the right field name
 * and fails with a wrong one, with no generic written. Reads dist/ (built first when missing or
 * stale: `built-package.ts`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';
import { ensurePackageBuilt } from './built-package.js';
import { appWithPackage, packPackage } from './packed-app.js';

await ensurePackageBuilt();

let work: string;
let app: string;
let emulator: TestEmulator;

const tsconfig = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: [],
    noEmit: true,
    skipLibCheck: false,
  },
  include: ['src'],
};

/** `tsc -p .` in the app: its exit code and output. */
function compile(): { code: number; output: string } {
  try {
    const output = execFileSync(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
      cwd: app,
      encoding: 'utf8',
    });
    return { code: 0, output };
  } catch (error) {
    const { status, stdout } = error as { status: number; stdout: string };
    return { code: status, output: stdout };
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'sitekit-types-app-'));
  // The package's own dependencies, and TypeScript: nothing of the emulator's server.
  app = appWithPackage(packPackage(work), join(work, 'app'), ['jose', 'tus-js-client', 'typescript']);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  emulator = await startEmulator();
}, 120_000);
afterAll(async () => {
  await emulator?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('sitekit-sdk types in an app that installed the package', () => {
  it('types client.items.query by the collection, with no generic written', async () => {
    expect(existsSync(join(app, 'node_modules/fastify'))).toBe(false);
    const bin = join(
      app,
      'node_modules/sitekit-sdk',
      JSON.parse(readFileSync(join(app, 'node_modules/sitekit-sdk/package.json'), 'utf8')).bin['sitekit-sdk'],
    );
    const { stderr } = await promisify(execFile)(process.execPath, [bin, 'types', '--emulator', emulator.url], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(stderr).toContain('wrote src/site-types.ts');
    expect(readFileSync(join(app, 'src/site-types.ts'), 'utf8')).toContain('export interface Movie {');

    const query = (field: string) => `import { createClient } from 'sitekit-sdk';
import './site-types.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:4700' });
export const page = await client.items.query('Movies').eq('${field}', 'The Last Signal').find();
export const title: string | undefined = page.items[0]?.title;
`;
    writeFileSync(join(app, 'src/movies.ts'), query('title'));
    expect(compile()).toEqual({ code: 0, output: '' });

    writeFileSync(join(app, 'src/movies.ts'), query('titel'));
    const wrong = compile();
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toMatch(/src\/movies\.ts\(5,\d+\): error TS2345: Argument of type '"titel"'/);
  }, 120_000);
});
