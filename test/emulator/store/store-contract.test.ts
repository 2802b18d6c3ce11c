/**
 * The store's contract, run on every engine (node:sqlite, better-sqlite3, wasm) that loads here,
 * or on the one `SITEKIT_ENGINE` names: the same behaviour whichever holds the data. Transactions
 * are atomic but begun at their first statement that writes, so an operation that only reads pays
 * for no BEGIN IMMEDIATE and COMMIT (and takes no write lock).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../emulator/store/engine.js';
import { openStore } from '../../../emulator/store/sqlite-store.js';
import type { Store } from '../../../emulator/store/store.js';
import { contractEngines, engineIfAvailable } from '../../helpers/engine.js';

describe.each(contractEngines)('the store on %s', (name) => {
  let engine: Engine | undefined;
  beforeAll(async () => {
    engine = await engineIfAvailable(name);
  });

  let directory: string;
  let file: string | null;
  let store: Store;
  beforeEach(({ skip }) => {
    if (!engine) return skip(`${name} is not available on Node ${process.versions.node}`);
    directory = mkdtempSync(join(tmpdir(), 'sitekit-store-'));
    // On disk where the engine can (WAL and its locks are part of the contract), else in memory.
    file = engine.holdsFiles ? join(directory, 'emulator.sqlite') : null;
    store = openStore(engine, file);
    store.exec('CREATE TABLE things (id TEXT PRIMARY KEY, n INTEGER)');
    store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['a', 1]);
  });
  afterEach(() => {
    if (!engine) return;
    store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const ids = () => store.all<{ id: string }>('SELECT id FROM things ORDER BY id').map((row) => row.id);
  const fails = (work: () => void) => expect(() => store.transaction(work)).toThrow('undo');
  const undo = () => {
    throw new Error('undo');
  };

  describe('transactions', () => {
    it('take no write lock while they only read: another connection may write meanwhile', ({ skip }) => {
      if (!file) return skip(`${name} holds no file, so no other connection can share it`);
      const other = engine!.open(file);
      try {
        other.exec('PRAGMA busy_timeout = 0');
        const seen = store.transaction(() => {
          const row = store.get<{ n: number }>('SELECT n FROM things WHERE id = ?', ['a']);
          // Under BEGIN IMMEDIATE this write would fail at once (SQLITE_BUSY).
          other.prepare('INSERT INTO things (id, n) VALUES (?, ?)').run(['other', 2]);
          return row?.n;
        });
        expect(seen).toBe(1);
        expect(ids()).toEqual(['a', 'other']);
      } finally {
        other.close();
      }
    });

    it('hold the write lock from their first write to their end', ({ skip }) => {
      if (!file) return skip(`${name} holds no file, so no other connection can share it`);
      const other = engine!.open(file);
      try {
        other.exec('PRAGMA busy_timeout = 0');
        store.transaction(() => {
          store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['mine', 1]);
          expect(() => other.prepare('INSERT INTO things (id, n) VALUES (?, ?)').run(['other', 2])).toThrow(
            expect.objectContaining({ code: expect.stringMatching(/^SQLITE_BUSY/) }),
          );
        });
        expect(ids()).toEqual(['a', 'mine']);
      } finally {
        other.close();
      }
    });

    it('roll back every write made after reads when the work throws', () => {
      fails(() => {
        expect(store.get('SELECT n FROM things WHERE id = ?', ['a'])).toEqual({ n: 1 });
        store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['b', 2]);
        store.run('UPDATE things SET n = 5 WHERE id = ?', ['a']);
        undo();
      });
      expect(store.all('SELECT id, n FROM things')).toEqual([{ id: 'a', n: 1 }]);
    });

    it('commit the writes together when the work returns', () => {
      const result = store.transaction(() => {
        store.get('SELECT n FROM things WHERE id = ?', ['a']);
        store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['b', 2]);
        store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['c', 3]);
        return 'done';
      });
      expect(result).toBe('done');
      expect(ids()).toEqual(['a', 'b', 'c']);
    });

    it('count a write made by a query (RETURNING, WITH) or by exec as the transaction’s, rolled back with it', () => {
      fails(() => {
        expect(store.get('INSERT INTO things (id, n) VALUES (?, ?) RETURNING id', ['r', 1])).toEqual({ id: 'r' });
        undo();
      });
      fails(() => {
        store.run('WITH doomed AS (SELECT ? AS id) DELETE FROM things WHERE id IN (SELECT id FROM doomed)', ['a']);
        undo();
      });
      fails(() => {
        store.exec("INSERT INTO things (id, n) VALUES ('e', 1)");
        undo();
      });
      expect(ids()).toEqual(['a']);
    });

    it('nest as savepoints, also when the outer one has not written yet', () => {
      store.transaction(() => {
        fails(() => {
          store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['inner', 1]);
          undo();
        });
        store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['outer', 1]);
      });
      expect(ids()).toEqual(['a', 'outer']);
      fails(() => {
        store.transaction(() => store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['kept-until-outer-fails', 1]));
        undo();
      });
      expect(ids()).toEqual(['a', 'outer']);
    });

    it('refuse work that returns a promise, and roll back what it wrote', () => {
      expect(() =>
        store.transaction(() => {
          store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['async', 1]);
          return Promise.resolve();
        }),
      ).toThrow(/promise/);
      expect(ids()).toEqual(['a']);
    });

    it('roll back when COMMIT itself fails (a deferred foreign key), and the store goes on', () => {
      store.exec(
        'CREATE TABLE parents (id TEXT PRIMARY KEY); CREATE TABLE children (parent TEXT REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)',
      );
      expect(() =>
        store.transaction(() => {
          store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['with-orphan', 1]);
          store.run('INSERT INTO children (parent) VALUES (?)', ['nobody']);
        }),
      ).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }));
      expect(ids()).toEqual(['a']);
      store.transaction(() => store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['after', 1]));
      expect(ids()).toEqual(['a', 'after']);
    });
  });

  describe('statements', () => {
    it('tell a statement that may write from one that only reads, as SQLite’s sqlite3_stmt_readonly', () => {
      const connection = engine!.open(null);
      try {
        connection.exec('CREATE TABLE t (id INTEGER)');
        const writes = (sql: string) => connection.prepare(sql).writes;
        expect(writes('SELECT id FROM t WHERE id = ?')).toBe(false);
        expect(writes('WITH x AS (SELECT 1 AS id) SELECT id FROM x')).toBe(false);
        expect(writes("SELECT json_extract('{}', '$.a')")).toBe(false);
        expect(writes('INSERT INTO t (id) VALUES (?)')).toBe(true);
        expect(writes('INSERT INTO t (id) VALUES (1) RETURNING id')).toBe(true);
        expect(writes('WITH x AS (SELECT 1 AS id) DELETE FROM t WHERE id IN (SELECT id FROM x)')).toBe(true);
        expect(writes('UPDATE t SET id = 2')).toBe(true);
        expect(writes('CREATE TABLE u (id INTEGER)')).toBe(true);
      } finally {
        connection.close();
      }
    });

    it('bind positional and @named parameters, report changes, and reuse a statement with new values', () => {
      expect(store.run('INSERT INTO things (id, n) VALUES (@id, @n)', { id: 'b', n: 2 })).toEqual({ changes: 1 });
      expect(store.run('UPDATE things SET n = n + 10 WHERE n < ?', [5])).toEqual({ changes: 2 });
      expect(store.run('UPDATE things SET n = n + 10 WHERE n < ?', [0])).toEqual({ changes: 0 });
      expect(store.get('SELECT n FROM things WHERE id = @id', { id: 'b' })).toEqual({ n: 12 });
      expect(store.get('SELECT n FROM things WHERE id = @id', { id: 'missing' })).toBeUndefined();
      expect(store.all('SELECT id FROM things WHERE n > ? ORDER BY id', [0])).toEqual([{ id: 'a' }, { id: 'b' }]);
    });

    it('store and return blobs as Buffers, big integers, reals and nulls as given', () => {
      store.exec('CREATE TABLE values_ (b BLOB, i INTEGER, r REAL, z TEXT)');
      store.run('INSERT INTO values_ VALUES (?, ?, ?, ?)', [Buffer.from([0, 1, 255]), 2n ** 40n, 1.5, null]);
      const row = store.get<{ b: Buffer; i: number; r: number; z: null }>('SELECT * FROM values_');
      expect(Buffer.isBuffer(row?.b)).toBe(true);
      expect([...row!.b]).toEqual([0, 1, 255]);
      expect(row).toMatchObject({ i: 2 ** 40, r: 1.5, z: null });
    });

    it('name SQLite’s error code on a constraint failure, as the services expect', () => {
      expect(() => store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['a', 2])).toThrow(
        expect.objectContaining({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY', message: expect.stringMatching(/UNIQUE/) }),
      );
      store.exec('CREATE TABLE owned (owner TEXT NOT NULL REFERENCES things (id))');
      expect(() => store.run('INSERT INTO owned (owner) VALUES (?)', ['nobody'])).toThrow(
        expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }),
      );
    });

    it('have JSON1 and unicode_lower (JavaScript’s lower-casing, beyond ASCII)', () => {
      expect(
        store.get(`SELECT json_extract(?, '$.a[1]') AS second, unicode_lower('ÉCOLE Ärger') AS lower`, ['{"a":[1,2]}']),
      ).toEqual({ second: 2, lower: 'école ärger' });
      expect(store.all(`SELECT value FROM json_each(?) ORDER BY value`, ['[3,1,2]'])).toEqual([
        { value: 1 },
        { value: 2 },
        { value: 3 },
      ]);
    });

    it('keep a file in WAL mode with synchronous=FULL', ({ skip }) => {
      if (!file) return skip(`${name} holds no file`);
      expect(store.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(store.get('PRAGMA synchronous')).toEqual({ synchronous: 2 });
      expect(store.get('PRAGMA foreign_keys')).toEqual({ foreign_keys: 1 });
    });
  });

  describe('onChange', () => {
    it('calls listeners on every change to the table, whatever statement makes it, and again on rollback', () => {
      let calls = 0;
      store.onChange('things', () => calls++);
      store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['b', 2]);
      store.exec("UPDATE things SET n = 3 WHERE id = 'b'");
      store.run('DELETE FROM things WHERE id = ?', ['b']);
      expect(calls).toBe(3);
      calls = 0;
      fails(() => {
        store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['c', 2]);
        undo();
      });
      // Once for the insert, once more for its rollback.
      expect(calls).toBe(2);
    });
  });
});
