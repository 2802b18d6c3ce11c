/** The SQLite engines the emulator can keep its database on, and what a user may ask for. */

/** A SQLite engine: built into Node 22.13+, the better-sqlite3 package, or sql.js's WebAssembly build. */
export type EngineName = 'node:sqlite' | 'better-sqlite3' | 'wasm';

/** The engines, in the order `auto` tries them. */
export const ENGINE_NAMES: readonly EngineName[] = ['node:sqlite', 'better-sqlite3', 'wasm'];

/** An engine, or `auto`: the first of {@link ENGINE_NAMES} that works here (see ./choose-engine.ts). */
export type EngineChoice = 'auto' | EngineName;

/** Whether `value` names an engine or `auto`. */
export function isEngineChoice(value: unknown): value is EngineChoice {
  return value === 'auto' || (ENGINE_NAMES as readonly unknown[]).includes(value);
}
