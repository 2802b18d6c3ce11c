/**
 * The better-sqlite3 engine (an optional peer: loaded when installed, never imported statically,
 * so the emulator's build and its users need not have it). Its statements already take our
 * parameters and say whether they write; rows come with `Buffer` blobs.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { Engine, EngineStatement, Row } from '../engine.js';
import { StoreEngineError } from '../engine.js';

/** The version the emulator is tested with, named in the message when it is missing. */
export const BETTER_SQLITE3_VERSION = '12.11.1';

/** Loads better-sqlite3; throws {@link StoreEngineError} (`ENGINE_UNAVAILABLE`) when it is not installed or does not load. */
export function loadBetterSqlite3(): Engine {
  let Database: typeof BetterSqlite3;
  try {
    Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    // Its native part loads with the first database: built for another Node (another ABI), it
    // fails there, and then the engine is not available here.
    new Database(':memory:').close();
  } catch (error) {
    throw new StoreEngineError(
      'ENGINE_UNAVAILABLE',
      `better-sqlite3 could not be loaded (${(error as Error).message.split('\n')[0]}): install it with npm install --save-dev better-sqlite3@${BETTER_SQLITE3_VERSION}, or choose another engine`,
      { cause: error },
    );
  }
  return {
    name: 'better-sqlite3',
    holdsFiles: true,
    open(file) {
      const database = new Database(file ?? ':memory:');
      return {
        prepare: (sql) => statementOf(database.prepare(sql)),
        exec: (sql) => void database.exec(sql),
        defineFunction: (name, options, implementation) =>
          void database.function(name, { deterministic: options.deterministic }, implementation),
        close: () => void database.close(),
      };
    },
  };
}

/** Our statement over one of better-sqlite3's (which binds an array or an object as given). */
function statementOf(statement: BetterSqlite3.Statement): EngineStatement {
  return {
    writes: !statement.readonly,
    free: () => {},
    run: (parameters) => (parameters === undefined ? statement.run() : statement.run(parameters)).changes,
    get: (parameters) => (parameters === undefined ? statement.get() : statement.get(parameters)) as Row | undefined,
    all: (parameters) => (parameters === undefined ? statement.all() : statement.all(parameters)) as Row[],
  };
}
