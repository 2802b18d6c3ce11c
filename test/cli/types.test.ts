/**
 * `sitekit-sdk types` against an in-process emulator: a collection with every field type gives a
 * file that compiles, and that types the client with no generic written (test/types/registry/
 * usage.ts, whose `@ts-expect-error` lines must all meet an error); `--sample` adds undeclared
 * fields; `--check` passes on a current file and fails, naming the change, once a field is added;
 * `--watch` rewrites the file when a collection changes.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataCollection } from '../../src/index.js';
import type { CommandIo } from '../../cli/command-io.js';
import { runCommand } from '../../cli/commands.js';
import { typesCommand } from '../../cli/types-command.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

const root = resolve(import.meta.dirname, '../..');
const OPEN = { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } as const;

/** A collection with a field of every type of the spec (and a legacy one). */
const EVERYTHING: DataCollection = {
  _id: 'Everything',
  displayName: 'Every field type',
  permissions: OPEN,
  fields: [
    { key: 'text', type: 'TEXT', displayName: 'Text' },
    { key: 'number', type: 'NUMBER' },
    { key: 'date', type: 'DATE' },
    { key: 'dateTime', type: 'DATETIME' },
    { key: 'image', type: 'IMAGE' },
    { key: 'flag', type: 'BOOLEAN' },
    { key: 'document', type: 'DOCUMENT' },
    { key: 'link', type: 'URL' },
    { key: 'html', type: 'RICH_TEXT' },
    { key: 'video', type: 'VIDEO' },
    { key: 'anything', type: 'ANY' },
    { key: 'tags', type: 'ARRAY_STRING' },
    { key: 'documents', type: 'ARRAY_DOCUMENT' },
    { key: 'audio', type: 'AUDIO' },
    { key: 'time', type: 'TIME' },
    { key: 'language', type: 'LANGUAGE' },
    { key: 'content', type: 'RICH_CONTENT' },
    { key: 'gallery', type: 'MEDIA_GALLERY' },
    { key: 'address', type: 'ADDRESS' },
    { key: 'page', type: 'PAGE_LINK' },
    { key: 'favourite', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'Movies' } } },
    { key: 'related', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'Movies' } } },
    { key: 'details', type: 'OBJECT', typeMetadata: { object: { fields: [{ key: 'pages', type: 'NUMBER' }] } } },
    { key: 'scores', type: 'ARRAY', typeMetadata: { array: { elementType: 'NUMBER' } } },
    { key: 'legacy', type: 'LEGACY_COLOR' },
  ],
};

let emulator: TestEmulator;
let dir: string;

/** Runs `types` with the arguments against the test emulator; its exit code and what it printed. */
async function runTypes(...args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {} };
  const code = await typesCommand(['--emulator', emulator.url, ...args], io);
  return { code, stderr };
}

/** The compiler options of the small app that `compileWithUsage` compiles. */
const appCompilerOptions = {
  strict: true,
  noEmit: true,
  noUnusedLocals: true,
  skipLibCheck: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023', 'DOM'],
  types: [],
  paths: { 'sitekit-sdk': [join(root, 'src/index.ts')] },
};

/**
 * TypeScript 7 (`typescript7`, an alias dev dependency beside 5.9, whose `tsc` bin stays 5.9's):
 * what `npm install typescript` gives a new app today. It has no compiler API, so its command is run.
 */
const typescript7 = join(root, 'node_modules/typescript7/bin/tsc');

/** Which TypeScript compiles the app: 5.9 (the repository's) or 7. */
type Compiler = 'typescript 5.9' | 'typescript 7';

/** Errors of the project in `project` as TypeScript 5.9's API reports them: `file:line message`. */
function errorsOfTypeScript5(project: string): string[] {
  const { options } = ts.convertCompilerOptionsFromJson(appCompilerOptions, project);
  const program = ts.createProgram([join(project, 'usage.ts'), join(project, 'site-types.ts')], options);
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? `${d.file.fileName.slice(project.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start!).line + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

/** Errors of the project in `project` as TypeScript 7's `tsc` prints them: `file:line message` (and its details). */
function errorsOfTypeScript7(project: string): string[] {
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: appCompilerOptions, files: ['usage.ts', 'site-types.ts'] }),
  );
  const run = spawnSync(process.execPath, [typescript7, '-p', '.', '--pretty', 'false'], {
    cwd: project,
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  const output = `${run.stdout}${run.stderr}`.trim();
  if (run.status === 0) return [];
  // One error per unindented line; its indented lines (the overloads' reasons) belong to it.
  return output.split(/\n(?=\S)/).map((error) => error.replace(/^(\S+)\((\d+),\d+\): error TS\d+: /, '$1:$2 ').trim());
}

/**
 * Type errors of the generated file compiled with test/types/registry/usage.ts (or the `usage`
 * source given), the SDK resolved to src/, by TypeScript 5.9 or 7.
 */
function compileWithUsage(generated: string, usage?: string, compiler: Compiler = 'typescript 5.9'): string[] {
  const project = mkdtempSync(join(tmpdir(), 'sitekit-types-'));
  try {
    writeFileSync(join(project, 'site-types.ts'), generated);
    if (usage === undefined) copyFileSync(join(root, 'test/types/registry/usage.ts'), join(project, 'usage.ts'));
    else writeFileSync(join(project, 'usage.ts'), usage);
    return compiler == 'typescript 7' ? errorsOfTypeScript7(project) : errorsOfTypeScript5(project);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  emulator = await startEmulator();
  dir = mkdtempSync(join(tmpdir(), 'sitekit-types-out-'));
  await emulator.admin.collections.createDataCollection(EVERYTHING);
  await emulator.admin.items.insert<{ text: string; nickname: string }>('Everything', {
    _id: 'one',
    text: 'declared',
    nickname: 'not declared',
  });
});
afterAll(async () => {
  await emulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sitekit-sdk types', () => {
  it('writes a file that types every field type and registers the collections (no generic needed)', async () => {
    const out = join(dir, 'src/site-types.ts');
    expect(await runTypes('--out', out, '--sample', '20')).toMatchObject({ code: 0 });
    const generated = readFileSync(out, 'utf8');
    expect(generated).toContain('export interface Everything {');
    expect(generated).toContain('export interface Movie {');
    expect(generated).toContain("declare module 'sitekit-sdk'");
    expect(generated).toMatch(/Not declared: found in sampled items.*\n {2}nickname\?: string;/);
    expect(generated).toContain('  legacy?: unknown;');
    expect(compileWithUsage(generated)).toEqual([]);
  }, 60_000);

  it('the same file and usage compile with TypeScript 7 (what `npm install typescript` gives)', async () => {
    const out = join(dir, 'typescript7/site-types.ts');
    expect(await runTypes('--out', out, '--sample', '20')).toMatchObject({ code: 0 });
    expect(compileWithUsage(readFileSync(out, 'utf8'), undefined, 'typescript 7')).toEqual([]);
  }, 60_000);

  it.each<Compiler>(['typescript 5.9', 'typescript 7'])(
    'with %s, a wrong field in insert is named at the call, not reported as a wrong collection ID',
    async (compiler) => {
      const out = join(dir, `insert-${compiler.replace(' ', '-')}.ts`);
      await runTypes('--out', out);
      const usage =
        "import { createClient } from 'sitekit-sdk';\nvoid createClient({}).items.insert('Movies', { titel: 'Jaws' });\n";
      const errors = compileWithUsage(readFileSync(out, 'utf8'), usage, compiler);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^usage\.ts:2 /);
      expect(errors[0]).toContain("'titel' does not exist in type");
      expect(errors[0]).not.toContain('not a collection of SiteCollections');
    },
    60_000,
  );

  it("an unknown collection ID's error says what to do, at the call", async () => {
    const out = join(dir, 'for-messages.ts');
    await runTypes('--out', out);
    const usage = "import { createClient } from 'sitekit-sdk';\nvoid createClient({}).items.query('Moviez');\n";
    const [error] = compileWithUsage(readFileSync(out, 'utf8'), usage);
    expect(error).toMatch(/^usage\.ts:2 No overload matches this call/);
    expect(error).toContain('Argument of type \'"Moviez"\' is not assignable');
    expect(error).toContain(
      'not a collection of SiteCollections: run `sitekit-sdk types` again, or give its item type',
    );
  }, 60_000);

  it('without the registration, the same usage does not compile (the checks come from the file)', async () => {
    const out = join(dir, 'unregistered.ts');
    await runTypes('--out', out, '--sample', '20');
    const unregistered = readFileSync(out, 'utf8').replace(/declare module 'sitekit-sdk' \{[\s\S]*\n\}\n/, '');
    const errors = compileWithUsage(unregistered);
    expect(errors.some((error) => error.includes("Unused '@ts-expect-error' directive"))).toBe(true);
  }, 60_000);

  it('reads a live site given by --url, --api-key and --site-id as it reads the emulator', async () => {
    const fromEmulator = join(dir, 'from-emulator.ts');
    const fromUrl = join(dir, 'from-url.ts');
    await runTypes('--out', fromEmulator);
    let stderr = '';
    const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {} };
    const { apiKey, siteId } = emulator.info;
    const site = ['--url', emulator.url, '--api-key', apiKey, '--site-id', siteId];
    expect(await typesCommand([...site, '--out', fromUrl], io)).toBe(0);
    expect(stderr).toContain(`wrote ${fromUrl} from ${emulator.url}`);
    expect(readFileSync(fromUrl, 'utf8')).toBe(readFileSync(fromEmulator, 'utf8'));
  });

  it('--check passes on a current file, then fails naming the field added', async () => {
    const out = join(dir, 'check/site-types.ts');
    expect(await runTypes('--check', '--out', out)).toMatchObject({ code: 1 });
    await runTypes('--out', out);
    expect(await runTypes('--check', '--out', out)).toEqual({ code: 0, stderr: expect.stringContaining('up to date') });

    const movies = await emulator.admin.collections.getDataCollection('Movies');
    await emulator.admin.collections.updateDataCollection({
      ...movies,
      fields: [...movies.fields!, { key: 'awards', type: 'ARRAY_STRING' }],
    });
    const stale = await runTypes('--check', '--out', out);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('Movies: field awards added (string[])');
    expect(readFileSync(out, 'utf8')).not.toContain('awards');
  });

  it('--watch rewrites the file when a collection changes', async () => {
    const out = join(dir, 'watch/site-types.ts');
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let stderr = '';
    const io: CommandIo = {
      stdout: () => {},
      stderr: (text) => void (stderr += text),
      env: {},
      untilStopped: () => stopped,
    };
    const watching = typesCommand(['--emulator', emulator.url, '--out', out, '--watch', '--interval', '50'], io);
    await expect.poll(() => stderr).toContain('watching');
    expect(readFileSync(out, 'utf8')).not.toContain('Watched');
    await emulator.admin.collections.createDataCollection({
      _id: 'Watched',
      fields: [{ key: 'seen', type: 'BOOLEAN' }],
    });
    await expect.poll(() => readFileSync(out, 'utf8'), { timeout: 5000 }).toContain('export interface Watched {');
    expect(stderr).toContain('collection Watched added');
    stop();
    expect(await watching).toBe(0);
  });

  it('--watch says once that the site went away and once that it is back, not an error per poll', async () => {
    const out = join(dir, 'watch-away/site-types.ts');
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let stderr = '';
    /** While true, every read fails as when the emulator is stopped; counts the reads that failed. */
    let down = false;
    let failedReads = 0;
    const io: CommandIo = {
      stdout: () => {},
      stderr: (text) => void (stderr += text),
      env: {},
      untilStopped: () => stopped,
      fetch: async (input, init) => {
        if (!down) return fetch(input, init);
        failedReads++;
        throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      },
    };
    const watching = typesCommand(['--emulator', emulator.url, '--out', out, '--watch', '--interval', '20'], io);
    await expect.poll(() => stderr).toContain('watching');
    down = true;
    await expect.poll(() => failedReads).toBeGreaterThan(6);
    down = false;
    await expect.poll(() => stderr).toContain('is back');
    stop();
    expect(await watching).toBe(0);
    const lines = stderr.trim().split('\n').slice(2);
    expect(lines).toEqual([
      expect.stringMatching(/^the emulator at http:\S+ stopped answering \(.+\); still watching$/),
      expect.stringMatching(/^the emulator at http:\S+ is back$/),
    ]);
  });

  it('against a server that is not the platform or an emulator, says what answered', async () => {
    const page = createServer((_, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>My app</body></html>'),
    );
    page.listen(0, '127.0.0.1');
    await once(page, 'listening');
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    /** Runs `sitekit-sdk types` as the CLI does, so a failure is printed as it would be. */
    const typesLine = async (...args: string[]) => {
      let stderr = '';
      const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {} };
      return { code: await runCommand(['types', ...args], io), stderr };
    };
    try {
      const live = await typesLine('--url', url, '--api-key', 'key', '--site-id', 'site', '--out', join(dir, 'no.ts'));
      expect(live.code).toBe(1);
      expect(live.stderr).toBe(
        `sitekit-sdk types failed: ${url} is not the platform's API or a sitekit emulator: GET ${url}/wix-data/v2/collections?paging.limit=1 answered 200 with text/html ("<!doctype html><html><body>My app</body>…"), where the API answers JSON. --url names the API (e.g. https://www.wixapis.com), not a site's pages.\n`,
      );
      const local = await typesLine('--emulator', url, '--out', join(dir, 'no.ts'));
      expect(local.code).toBe(1);
      expect(local.stderr).toContain(
        `${url} is not a sitekit emulator: ${url}/_emulator/info answered 200 with text/html ("<!doctype html>`,
      );
      expect(live.stderr + local.stderr).not.toContain('Unexpected token');
    } finally {
      page.close();
    }
  });
});
