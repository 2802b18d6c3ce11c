/**
 * Which engine holds the emulator's database: the one asked for, or for `auto` node:sqlite where
 * Node has it, else better-sqlite3 when it is installed, else the WebAssembly SQLite (in memory).
 * Loading an engine is asynchronous; the store it opens is synchronous.
 */
import { type Engine, StoreEngineError } from './engine.js';
import { ENGINE_NAMES, type EngineChoice, type EngineName, isEngineChoice } from './engine-names.js';
import { loadBetterSqlite3 } from './engines/better-sqlite3.js';
import { loadNodeSqlite } from './engines/node-sqlite.js';
import { loadWasmSqlite } from './engines/wasm.js';
import { openStore } from './sqlite-store.js';
import type { Store } from './store.js';

/** Loads one engine by name. */
function loadEngine(name: EngineName): Engine | Promise<Engine> {
  if (name == 'node:sqlite') return loadNodeSqlite();
  if (name == 'better-sqlite3') return loadBetterSqlite3();
  return loadWasmSqlite();
}

/**
 * The engine `choice` stands for, loaded. `auto` takes the first of {@link ENGINE_NAMES} that
 * loads here; the last (wasm) needs nothing installed.
 */
export async function chooseEngine(choice: EngineChoice = 'auto'): Promise<Engine> {
  if (!isEngineChoice(choice))
    throw new StoreEngineError(
      'ENGINE_UNKNOWN',
      `engine must be one of auto, ${ENGINE_NAMES.join(', ')} (got ${String(choice)})`,
    );
  if (choice != 'auto') return loadEngine(choice);
  for (const name of ENGINE_NAMES.slice(0, -1)) {
    try {
      return await loadEngine(name);
    } catch (error) {
      if (!(error instanceof StoreEngineError)) throw error;
    }
  }
  return loadWasmSqlite();
}

/**
 * Opens the emulator's store on the engine `choice` stands for: the database in `file`, or in
 * memory for `null`. An engine that holds no file refuses a data folder here, at start, saying
 * how to get one.
 */
export async function openEngineStore(choice: EngineChoice | undefined, file: string | null): Promise<Store> {
  const engine = await chooseEngine(choice);
  if (file !== null && !engine.holdsFiles)
    throw new StoreEngineError(
      'ENGINE_MEMORY_ONLY',
      `the ${engine.name} engine${choice == 'auto' || choice === undefined ? ' (the only one available here)' : ''} keeps data in memory only, so it cannot keep the database in ${file}: to keep data on disk, use Node 22 or later (node:sqlite), install better-sqlite3, or start with --memory (memory: true)`,
    );
  return openStore(engine, file);
}
