/**
 * The package's declaration files as users get them: built from the sources (the declaration part
 * of rollup.config.mjs, into a temporary package folder, so a stale `dist/` cannot hide a change),
 * then (1) compiled in a Node-only project (`--strict --lib es2022 --types node`: no DOM names in
 * public types) from ESM and CJS, and (2) compared with the committed API report
 * (`etc/sitekit.api.md`), which must carry no bundler-made names and no internals.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiReport, buildDeclarations, REPORT_PATH, ROOT, temporaryPackageDir } from '../../scripts/api-report.js';

/** The entries of the client (the emulator's entry has its own, Node-only, surface). */
const CLIENT_ENTRIES = ['sitekit-sdk', 'sitekit-sdk/react'];

/** Implementation details that must never reach the published types. */
const INTERNALS = [
  'Transport',
  'TransportOptions',
  'attach',
  'noAuth',
  'bindOperations',
  'namespaceOperations',
  'errorFromResponse',
  'buildRequest',
];

/**
 * Type-level helpers that public declarations may use without exporting them (users never name
 * them; hovers show what they expand to).
 */
const UNEXPORTED_HELPERS = ['RenamedKey', 'NothingRegistered'];

/** What a Node-only user writes: the client, its strategies, storage adapters, errors, typed results. */
const NODE_USER_CODE = `
import { createClient, ApiKeyStrategy, OAuthStrategy, memoryTokenStorage, localStorageTokenStorage, isSiteKitError, type DataCollection, type Tokens } from 'sitekit-sdk';

export async function main(): Promise<string[]> {
  const admin = createClient({ baseUrl: 'http://127.0.0.1:4700', auth: ApiKeyStrategy({ apiKey: 'key', siteId: 'site' }), timeoutMs: 5_000 });
  const collection: DataCollection = await admin.collections.getDataCollection('Movies');
  const page = await admin.items.query<{ title: string; year: number }>('Movies').ge('year', 1970).find({ returnTotalCount: true });
  const rows = await admin.items.aggregate<{ title: string; year: number }>('Movies').group('year').count().run();
  const counts: number[] = rows.items.map((row) => row.count);
  const saved: Tokens | null = null;
  const visitor = createClient({ auth: OAuthStrategy({ clientId: 'client', storage: saved ? memoryTokenStorage(saved) : localStorageTokenStorage() }) });
  try {
    await visitor.members.getCurrentMember();
  } catch (error) {
    if (isSiteKitError(error)) return [error.code, String(counts)];
  }
  return [collection._id ?? '', ...page.items.map((movie) => movie.title)];
}
`;

/** Typed raw calls (`sitekit-sdk/openapi`, with its optional peer openapi-fetch) are for Node too. */
const NODE_RAW_CALLS_CODE = `
import { createClient, ApiKeyStrategy } from 'sitekit-sdk';
import { createRawClient } from 'sitekit-sdk/openapi';

export async function collectionName(): Promise<string | undefined> {
  const raw = createRawClient(createClient({ auth: ApiKeyStrategy({ apiKey: 'key', siteId: 'site' }) }));
  const { data, error } = await raw.GET('/wix-data/v2/collections/{dataCollectionId}', { params: { path: { dataCollectionId: 'Movies' } } });
  if (error) throw error;
  return data.collection?.displayName;
}
`;

/** A test suite's emulator, and a service module's extra route (Fastify's request and reply, as declared). */
const EMULATOR_USER_CODE = `
import { createEmulator, type ServiceModule } from 'sitekit-sdk/emulator';

export const echo: ServiceModule = {
  name: 'echo',
  routes(app) {
    app.get('/echo', (request, reply) => reply.code(200).header('x-echo', request.id).send({ url: request.url }));
  },
};

export async function storeSize(): Promise<number> {
  const emulator = await createEmulator();
  const rows = emulator.context.store.all('SELECT 1 AS one');
  await emulator.close();
  return rows.length;
}
`;

/** `tsc --strict --lib es2022 --types node`, as a Node-only project compiles. */
const NODE_ONLY_OPTIONS: ts.CompilerOptions = {
  strict: true,
  lib: ['lib.es2022.d.ts'],
  types: ['node'],
  // @types/node comes from the repository (what `npm install -D @types/node` gives a user).
  typeRoots: [join(ROOT, 'node_modules/@types')],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  // The package's own declarations are what is under test.
  skipLibCheck: false,
  noEmit: true,
};

let work: string;
let report: string;

/** The report's section of one entry: its exports, then what they use without exporting. */
function sectionOf(specifier: string): string {
  const start = report.indexOf(`\n## ${specifier}\n`);
  if (start < 0) throw new Error(`no section for ${specifier} in the report`);
  const end = report.indexOf('\n## ', start + 1);
  return report.slice(start, end < 0 ? undefined : end);
}

beforeAll(async () => {
  work = temporaryPackageDir();
  await buildDeclarations(join(work, 'dist'));
  copyFileSync(join(ROOT, 'package.json'), join(work, 'package.json'));
  report = apiReport(work);
}, 180_000);
afterAll(() => work && rmSync(work, { recursive: true, force: true }));

/**
 * Type-checks `files` (name → source) in a project folder that has the built package installed;
 * returns the errors and the names of the files checked.
 */
function typecheck(files: Record<string, string>, options: ts.CompilerOptions): { output: string; checked: string[] } {
  const project = join(work, 'node-project');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  if (!existsSync(join(project, 'node_modules/sitekit-sdk')))
    symlinkSync(work, join(project, 'node_modules/sitekit-sdk'), 'dir');
  for (const [name, source] of Object.entries(files)) writeFileSync(join(project, name), source);
  const program = ts.createProgram(
    Object.keys(files).map((name) => join(project, name)),
    options,
  );
  // The package's declarations and the project's files are checked (not all of @types/node: slow,
  // and not under test); what they use from other files is resolved and checked as used.
  const packageRoot = realpathSync(work);
  const checked = program.getSourceFiles().filter((file) => {
    const inPackage = relative(packageRoot, file.fileName);
    return !inPackage.startsWith('..') && !inPackage.includes('node_modules');
  });
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  const output = ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => project,
    getNewLine: () => '\n',
  });
  return { output, checked: checked.map((file) => basename(file.fileName)) };
}

describe('the published declarations', () => {
  it('compile in a Node-only project: --strict --lib es2022 --types node, from ESM and CJS', () => {
    const files = { 'user.mts': NODE_USER_CODE, 'user.cts': NODE_USER_CODE, 'raw-calls.mts': NODE_RAW_CALLS_CODE };
    const { output, checked } = typecheck(files, NODE_ONLY_OPTIONS);
    expect(output).toBe('');
    expect(checked).toEqual(
      expect.arrayContaining(['index.d.mts', 'index.d.cts', 'openapi.d.mts', ...Object.keys(files)]),
    );
  }, 120_000);

  it('the Node-only check sees a DOM-only name in the package declarations', () => {
    writeFileSync(join(work, 'dist/dom-probe.d.mts'), 'export declare function probe(storage: Storage): void;\n');
    try {
      const { output } = typecheck(
        { 'probe.mts': "import { probe } from '../dist/dom-probe.mjs';\nexport const used = probe;\n" },
        NODE_ONLY_OPTIONS,
      );
      expect(output).toMatch(/dom-probe\.d\.mts.*Cannot find name 'Storage'/);
    } finally {
      rmSync(join(work, 'dist/dom-probe.d.mts'));
    }
  }, 120_000);

  it("name no package an install lacks in the emulator's: Fastify's types come with them", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: object };
    const installed = Object.keys(manifest.dependencies);
    for (const file of ['emulator.d.mts', 'emulator.d.cts']) {
      const text = readFileSync(join(work, 'dist', file), 'utf8');
      const packages = [...text.matchAll(/^(?:import|export)\b[^;]*?from '([^'.][^']*)'/gm)].map((match) => match[1]!);
      const missing = packages.filter(
        (name) => !name.startsWith('node:') && !installed.some((dependency) => name.split('/')[0] === dependency),
      );
      expect(missing, file).toEqual([]);
    }
    const { output } = typecheck(
      { 'service.mts': EMULATOR_USER_CODE, 'service.cts': EMULATOR_USER_CODE },
      NODE_ONLY_OPTIONS,
    );
    expect(output).toBe('');
  }, 120_000);

  it('match the committed API report (etc/sitekit.api.md; `npm run api:report` rewrites it)', () => {
    const committed = readFileSync(REPORT_PATH, 'utf8');
    // One assertion on the whole text: the diff vitest prints is the API change to review.
    expect(report, 'etc/sitekit.api.md is stale: run `npm run api:report` and review the diff').toBe(committed);
  });

  it('give public types their own names: no bundler renames (Name$1), methods resolve with named types', () => {
    expect(report.match(/\b[A-Za-z_]\w*\$\d+\b/g) ?? []).toEqual([]);
    // No anonymous expansions such as NonNullable<GetDataCollectionResponse['collection']>.
    expect(report.match(/\w+Response\['\w+'\]/g) ?? []).toEqual([]);
    expect(report).toMatch(/getDataCollection\(dataCollectionId: string, [^\n]*\): Promise<DataCollection>;/);
  });

  it.each(CLIENT_ENTRIES)('keep internals out of %s', (specifier) => {
    const section = sectionOf(specifier);
    for (const name of INTERNALS) expect(section.match(new RegExp(`\\b${name}\\b`, 'g')) ?? [], name).toEqual([]);
  });

  it.each(CLIENT_ENTRIES)('export every name %s uses, except type-level helpers', (specifier) => {
    const section = sectionOf(specifier);
    const unexported = section.slice(section.indexOf('\n### '));
    const names = [...unexported.matchAll(/^(?:declare )?(?:interface|type|class|function|const|enum) (\w+)/gm)].map(
      (match) => match[1],
    );
    expect(names.filter((name) => !UNEXPORTED_HELPERS.includes(name!))).toEqual([]);
  });
});
