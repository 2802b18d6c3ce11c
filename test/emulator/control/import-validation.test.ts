/**
 * An imported state (`POST /_emulator/import`, `--seed`) is checked at its root: every row has the
 * columns and types its table expects, JSON columns hold JSON (objects where objects are
 * expected), ids are within the platform's limits. A bad row is a 400 naming the table, row and
 * column, and nothing of the import is written.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateTableColumns } from '../../../emulator/control/state.js';
import { STATE_COLUMN_CONTENTS } from '../../../emulator/control/state-columns.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { testEngineHoldsFiles } from '../../helpers/engine.js';

type Row = Record<string, unknown>;
interface Exported {
  tables: Record<string, Row[]>;
}
interface ErrorAnswer {
  message: string;
  details: { validationError: { fieldViolations: { field: string; description: string; violatedRule: string }[] } };
}

/** The demo site exported by a version 1 emulator (its first 10 items). */
const VERSION_1_FIXTURE = join(import.meta.dirname, '../fixtures/state-version-1.json');

let emulator: TestEmulator;
let exported: Exported;
let scratch: string;

beforeAll(async () => {
  emulator = await startEmulator();
  // A version 1 export (tables of rows, as older emulators wrote them): still imported, row by row checked.
  exported = JSON.parse(readFileSync(VERSION_1_FIXTURE, 'utf8')) as Exported;
  scratch = mkdtempSync(join(tmpdir(), 'sitekit-import-'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A copy of the demo export with `change` applied to it. */
function changedExport(change: (tables: Record<string, Row[]>) => void): Exported {
  const copy = structuredClone(exported);
  change(copy.tables);
  return copy;
}

const importState = (state: unknown) =>
  emulator.fetch('/_emulator/import', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(state),
  });

/** The refused import's violations as `field: description`, after checking it changed nothing. */
async function refusal(state: unknown): Promise<string[]> {
  const answer = await importState(state);
  const body = (await answer.json()) as ErrorAnswer;
  expect(answer.status, JSON.stringify(body)).toBe(400);
  expect(body.message).toMatch(/^INVALID_ARGUMENT: /);
  // All or nothing: the demo state is whole, and every item reads.
  expect(await emulator.admin.items.query('Movies').count()).toBe(300);
  expect((await emulator.admin.items.query('Movies').limit(1000).find()).items).toHaveLength(300);
  return body.details.validationError.fieldViolations.map(
    (violation) => `${violation.field}: ${violation.description}`,
  );
}

const movie = (tables: Record<string, Row[]>, index = 0) => tables.items![index]!;

describe('JSON columns hold JSON', () => {
  it('an item whose data is not JSON is refused naming its table, row and column, and reads still answer', async () => {
    const state = changedExport((tables) => {
      movie(tables, 7).data = 'not json';
      // A good change in the same file is not applied either.
      movie(tables, 0).data = JSON.stringify({ ...JSON.parse(movie(tables, 0).data as string), title: 'Changed' });
    });
    expect(await refusal(state)).toEqual(['tables.items.7.data: must hold JSON text']);
    const first = exported.tables.items![0]!;
    const stored = await emulator.admin.items.get('Movies', first.id as string);
    expect(stored!.title).toBe((JSON.parse(first.data as string) as { title: string }).title);
  });

  it.each([
    ['items', 'data', '[1, 2]', 'must hold the JSON text of an object'],
    ['items', 'data', '"text"', 'must hold the JSON text of an object'],
    ['collections', 'body', '42', 'must hold the JSON text of an object'],
    ['collections', 'body', '{"id": ', 'must hold JSON text'],
  ])('%s.%s holding %s is refused', async (table, column, value, description) => {
    const state = changedExport((tables) => {
      tables[table]![0]![column] = value;
    });
    expect(await refusal(state)).toEqual([`tables.${table}.0.${column}: ${description}`]);
  });

  it('every other JSON column is checked too (members, media files, identities, config, webhook events)', async () => {
    const state = changedExport((tables) => {
      tables.members = [
        { id: 'm1', login_email: null, slug: 'm1', created_at: '2024-01-01T00:00:00.000Z', data: 'null' },
      ];
      tables.identities = [{ member_id: 'm1', connections: '{}' }];
      tables.config = [{ key: 'cors', value: '{oops' }];
      tables.webhook_events = [{ event_id: 'e1', event: '[]', bad_signature: 0 }];
    });
    expect(await refusal(state)).toEqual([
      'tables.config.0.value: must hold JSON text',
      'tables.identities.0.connections: must hold the JSON text of an array',
      'tables.members.0.data: must hold the JSON text of an object',
      'tables.webhook_events.0.event: must hold the JSON text of an object',
    ]);
  });
});

describe('columns and types', () => {
  it('a TEXT column given a number, an INTEGER column given text, null where the table needs a value, a column left out', async () => {
    const state = changedExport((tables) => {
      movie(tables, 0).created_date = 20240101;
      movie(tables, 1).data = null;
      delete movie(tables, 2).collection_id;
      tables.item_references = [
        { collection_id: 'Movies', field: 'cast', referring_id: 'a', referenced_id: 'b', position: 'first' },
      ];
      tables.webhook_events = [{ event_id: 'e1', event: '{}', bad_signature: 0.5 }];
    });
    expect(await refusal(state)).toEqual([
      'tables.item_references.0.position: must be an integer or null',
      'tables.items.0.created_date: must be a string',
      'tables.items.1.data: must not be null',
      'tables.items.2.collection_id: is required',
      'tables.webhook_events.0.bad_signature: must be an integer or null',
    ]);
  });

  it('a row that repeats another row’s key is refused naming that row', async () => {
    const state = changedExport((tables) => {
      tables.items!.push({ ...movie(tables, 3) });
    });
    const index = exported.tables.items!.length;
    expect(await refusal(state)).toEqual([
      `tables.items.${index}.id: repeats the collection_id, id of an earlier row: each must be unique`,
    ]);
  });
});

describe('ids', () => {
  it.each([
    ['media_files', 'id', '..', 'is not an id: "." and ".." cannot be a path segment'],
    ['members', 'id', '.', 'is not an id: "." and ".." cannot be a path segment'],
    ['items', 'id', '', 'is not an id: must not be blank'],
    ['items', 'id', '   ', 'is not an id: must not be blank'],
    ['items', 'id', 'x'.repeat(256), 'is not an id: must be at most 255 characters'],
    ['items', 'id', 'new\nline', 'is not an id: must not hold a control character'],
    ['items', 'collection_id', 'Not a collection', 'is not a collection id'],
    ['collections', 'id', '../Movies', 'is not a collection id'],
  ])('%s.%s %j is refused', async (table, column, value, description) => {
    const state = changedExport((tables) => {
      if (table == 'members')
        tables.members = [
          { id: 'm1', login_email: null, slug: 'm1', created_at: '2024-01-01T00:00:00.000Z', data: '{"id":"m1"}' },
        ];
      if (table == 'media_files') {
        // The demo has no media: a file described as an upload would be.
        const created = '2024-01-01T00:00:00.000Z';
        tables.media_files = [
          {
            id: 'file-1',
            state: 'OK',
            display_name: 'a.txt',
            size: 1,
            media_type: 'document',
            private: 0,
            uploader: 'admin',
            created_at: created,
            updated_at: created,
            data: '{"id":"file-1"}',
          },
        ];
      }
      tables[table]![0]![column] = value;
    });
    const violations = await refusal(state);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(new RegExp(`^tables\\.${table}\\.0\\.${column}: is not (an|a collection) id`));
    expect(violations[0]).toContain(description);
  });

  it('a declared test member’s id follows the same rule', async () => {
    const violations = await refusal({
      ...exported,
      members: [
        { id: '..', email: 'dots@example.test' },
        { id: 'x'.repeat(256), email: 'long@example.test' },
        { id: 'fine', email: 'fine@example.test' },
      ],
    });
    expect(violations).toEqual([
      'members.0.id: must be an id: "." and ".." cannot be a path segment',
      'members.1.id: must be an id: must be at most 255 characters',
    ]);
    // Nor is the good one written.
    await expect(emulator.admin.members.getMember('fine')).rejects.toThrow();
  });
});

describe('what keeps working', () => {
  it('a version 1 export imports as it is, with test members declared beside its tables', async () => {
    const answer = await importState({
      ...exported,
      members: [{ id: 'tess', email: 'tess@example.test', password: 'correct horse battery' }],
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(((await answer.json()) as { members: string[] }).members).toEqual(['tess']);
    expect(await emulator.admin.items.query('Movies').count()).toBe(exported.tables.items!.length);
    expect((await emulator.admin.members.getMember('tess'))._id).toBe('tess');
  });

  it('every table and column the checks name is one the store has', () => {
    const columns = stateTableColumns(emulator.context.store);
    for (const [table, contents] of Object.entries(STATE_COLUMN_CONTENTS))
      for (const column of Object.keys(contents)) expect(columns.get(table), `${table}.${column}`).toContain(column);
  });
});

describe('--seed', () => {
  it('a seed file with a bad row fails the start with the message of the 400', async () => {
    const state = changedExport((tables) => {
      movie(tables, 4).data = 'not json';
    });
    const seedFile = join(scratch, 'bad-seed.json');
    writeFileSync(seedFile, JSON.stringify(state));
    const answer = (await (await importState(state)).json()) as ErrorAnswer;
    expect(answer.message).toBe('INVALID_ARGUMENT: tables.items.4.data: must hold JSON text');
    await expect(startEmulator({ seed: seedFile })).rejects.toThrow(answer.message);
  });

  it('is refused even when the data folder already holds a site (the seed would not be applied)', async ({ skip }) => {
    if (!(await testEngineHoldsFiles())) return skip('a data folder: wasm refuses one (engine-choice.test.ts)');
    const dataDir = join(scratch, 'data');
    const first = await startEmulator({ memory: false, dataDir });
    await first.close();
    const seedFile = join(scratch, 'bad-members-seed.json');
    writeFileSync(
      seedFile,
      JSON.stringify({
        ...changedExport((tables) => {
          movie(tables, 2).data = '{"_id": broken';
        }),
        members: [{ id: '..', email: 'dots@example.test' }],
      }),
    );
    await expect(startEmulator({ memory: false, dataDir, seed: seedFile })).rejects.toThrow(
      'INVALID_ARGUMENT: members.0.id: must be an id: "." and ".." cannot be a path segment',
    );
    writeFileSync(seedFile, JSON.stringify(changedExport((tables) => void (movie(tables, 2).data = '{"_id": broken'))));
    await expect(startEmulator({ memory: false, dataDir, seed: seedFile })).rejects.toThrow(
      'INVALID_ARGUMENT: tables.items.2.data: must hold JSON text',
    );
    // A good seed still starts it, and is not applied: the site keeps its state.
    writeFileSync(seedFile, JSON.stringify(changedExport((tables) => void (tables.items = []))));
    const again = await startEmulator({ memory: false, dataDir, seed: seedFile });
    try {
      expect(await again.admin.items.query('Movies').count()).toBe(300);
    } finally {
      await again.close();
    }
  });
});
