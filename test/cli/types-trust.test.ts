/**
 * What `sitekit-sdk types` trusts of a remote site's names (issue 31, item 5): nothing but their
 * being data. Field types named after `Object.prototype` members, keys that are not strings, and
 * control characters (terminal escapes, bidirectional overrides) in IDs, keys and display names
 * give a valid file, with every control character escaped, and terminal output without any. The
 * remote is an in-process emulator whose fault rules answer with what a hostile site would.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { CommandIo } from '../../cli/command-io.js';
import { runCommand } from '../../cli/commands.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let remote: TestEmulator;
let dir: string;
beforeAll(async () => {
  remote = await startEmulator();
  dir = mkdtempSync(join(tmpdir(), 'sitekit-types-trust-'));
});
afterEach(() => remote.faults.clear());
afterAll(async () => {
  await remote?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Any control character a terminal or an editor would act on (line feeds and tabs aside). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A terminal escape that clears the screen, one that sets the window title, and a right-to-left override. */
const ESCAPES = '\u001b[2J\u001b]0;owned\u0007\u009b31m\u202e';

/** The hostile collections, as the collections API answers them (wire form). */
const HOSTILE = [
  {
    id: 'Hostile',
    displayName: `Display ${ESCAPES} */ declare const injected: 1; /*`,
    fields: [
      { key: 'a', type: 'constructor' },
      { key: 'b', type: '__proto__' },
      { key: 'c', type: 'toString' },
      { key: 'd', type: 'hasOwnProperty' },
      { key: 'list', type: 'ARRAY', typeMetadata: { array: { elementType: 'valueOf' } } },
      {
        key: 'nested',
        type: 'OBJECT',
        typeMetadata: {
          object: {
            fields: [
              { key: 42, type: 'TEXT' },
              { key: { toString: 'x' }, type: 'TEXT' },
              { key: ['a', 'b'], type: 'TEXT' },
              { key: null, type: 'TEXT' },
              { key: 'typed', type: 7 },
              { key: 'fine', type: 'TEXT' },
            ],
          },
        },
      },
      { key: `key${ESCAPES}`, type: 'TEXT', displayName: `Name${ESCAPES}` },
      { key: 'ref', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: `Other${ESCAPES}` } } },
    ],
  },
  { id: `Esc${ESCAPES}aped`, fields: [] },
  { id: 'constructor', fields: [] },
  { id: 42, fields: [] },
];

/** Makes the remote answer its collection list with `collections`. */
const answerCollections = (collections: unknown[]) =>
  remote.faults.add({
    operation: 'listDataCollections',
    status: 200,
    body: { collections, pagingMetadata: { count: collections.length, offset: 0 } },
  });

/** Runs `types` against the remote (through `fetchFunction` when given); its exit code and all it printed. */
async function types(args: string[], fetchFunction?: typeof fetch): Promise<{ code: number; printed: string }> {
  let printed = '';
  const io: CommandIo = {
    stdout: (text) => void (printed += text),
    stderr: (text) => void (printed += text),
    env: {},
    ...(fetchFunction ? { fetch: fetchFunction } : {}),
  };
  const site = ['--url', remote.url, '--api-key', remote.info.apiKey, '--site-id', remote.info.siteId];
  return { code: await runCommand(['types', ...site, ...args], io), printed };
}

/** Syntax errors of a TypeScript source. */
const syntaxErrors = (source: string): string[] =>
  (ts.transpileModule(source, { reportDiagnostics: true }).diagnostics ?? []).map((diagnostic) =>
    ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  );

it('writes a valid file whatever the names: prototype member types, keys that are not strings, control characters', async () => {
  await answerCollections(HOSTILE);
  const out = join(dir, 'hostile.ts');
  const { code, printed } = await types(['--out', out]);
  expect(code, printed).toBe(0);
  const written = readFileSync(out, 'utf8');
  expect(syntaxErrors(written)).toEqual([]);
  expect(written).not.toMatch(RAW_CONTROL);
  // The display name's `*/` cannot close its comment: what follows stays in it.
  expect(written).toContain('*\\/ declare const injected');
  // The prototype-named types are unknown types, said so; the nested string key is kept.
  expect(written).toContain('a?: unknown;');
  expect(written).toContain('field type constructor');
  expect(written).toContain('fine?: string;');
  expect(written).toContain('\\u001b[2J');
  expect(printed).not.toMatch(RAW_CONTROL);
});

it('--check words the changes with control characters escaped', async () => {
  await answerCollections([{ id: 'Plain', fields: [] }]);
  const out = join(dir, 'check.ts');
  expect((await types(['--out', out])).code).toBe(0);
  await remote.faults.clear();
  await answerCollections(HOSTILE);
  const { code, printed } = await types(['--out', out, '--check']);
  expect(code).toBe(1);
  expect(printed).toContain('collection Esc\\u001b[2J');
  expect(printed).not.toMatch(RAW_CONTROL);
});

it('samples items whose keys are prototype members', async () => {
  await answerCollections([{ id: 'Sampled', fields: [] }]);
  // The items query answered as a hostile site would: keys no JSON body of ours may carry.
  const hostileItems: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.includes('/wix-data/v2/items/query')) return fetch(input, init);
    const data = '{"_id": "one", "__proto__": 1, "constructor": "c", "toString": true, "hasOwnProperty": [1]}';
    return new Response(
      `{"dataItems": [{"id": "one", "dataCollectionId": "Sampled", "data": ${data}}], "pagingMetadata": {"count": 1}}`,
      {
        headers: { 'content-type': 'application/json' },
      },
    );
  };
  const out = join(dir, 'sampled.ts');
  const { code, printed } = await types(['--out', out, '--sample', '5'], hostileItems);
  expect(code, printed).toBe(0);
  const written = readFileSync(out, 'utf8');
  expect(syntaxErrors(written)).toEqual([]);
  expect(written).toContain('constructor?: string;');
  expect(written).toContain('hasOwnProperty?: number[];');
});
