/**
 * The store's transactions: atomic as ever, but begun at their first statement that writes, so an
 * operation that only reads pays for no BEGIN IMMEDIATE and COMMIT (and takes no write lock).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../emulator/store/sqlite.js';
import type { Store } from '../../../emulator/store/store.js';

let directory: string;
let store: Store;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'sitekit-store-'));
  store = openSqliteStore({ file: join(directory, 'emulator.sqlite') });
  store.exec('CREATE TABLE things (id TEXT PRIMARY KEY, n INTEGER)');
  store.run('INSERT INTO things (id, n) VALUES (?, ?)', ['a', 1]);
});
afterEach(() => {
  store.close();
  rmSync(directory, { recursive: true, force: true });
});

const ids = () => store.all<{ id: string }>('SELECT id FROM things ORDER BY id').map((row) => row.id);
const fails = (work: () => void) => expect(() => store.transaction(work)).toThrow('undo');
const undo = () => {
  throw new Error('undo');
};

describe('store transactions', () => {
  it('take no write lock while they only read: another connection may write meanwhile', () => {
    const other = new Database(join(directory, 'emulator.sqlite'), { timeout: 0 });
    try {
      const seen = store.transaction(() => {
        const row = store.get<{ n: number }>('SELECT n FROM things WHERE id = ?', ['a']);
        // Under BEGIN IMMEDIATE this write would fail at once (SQLITE_BUSY).
        other.prepare('INSERT INTO things (id, n) VALUES (?, ?)').run('other', 2);
        return row?.n;
      });
      expect(seen).toBe(1);
      expect(ids()).toEqual(['a', 'other']);
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

  it('count a write made by a query (RETURNING) or by exec as the transaction’s, rolled back with it', () => {
    fails(() => {
      expect(store.get('INSERT INTO things (id, n) VALUES (?, ?) RETURNING id', ['r', 1])).toEqual({ id: 'r' });
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
});
