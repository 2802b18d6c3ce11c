/**
 * The storage engine a test run uses: `SITEKIT_ENGINE` (`node:sqlite`, `better-sqlite3`, `wasm`,
 * or `auto`, the default). CI runs the store, data and durability tests once per engine and Node
 * with it; the store contract tests run on every engine that loads unless it names one.
 */
import type { Engine } from '../../emulator/store/engine.js';
import { StoreEngineError } from '../../emulator/store/engine.js';
import { ENGINE_NAMES, type EngineChoice, type EngineName, isEngineChoice } from '../../emulator/store/engine-names.js';
import { chooseEngine } from '../../emulator/store/choose-engine.js';

const asked = process.env.SITEKIT_ENGINE || 'auto';
if (!isEngineChoice(asked)) throw new Error(`SITEKIT_ENGINE must be auto, ${ENGINE_NAMES.join(', ')} (got ${asked})`);

/** The engine the emulators of this test run start on. */
export const testEngine: EngineChoice = asked;

/** The engines the store contract runs on: the one `SITEKIT_ENGINE` names, else all. */
export const contractEngines: readonly EngineName[] = asked == 'auto' ? ENGINE_NAMES : [asked];

/** `name` loaded, or `undefined` when it is not available here (node:sqlite on Node 20, better-sqlite3 not built). */
export async function engineIfAvailable(name: EngineName): Promise<Engine | undefined> {
  try {
    return await chooseEngine(name);
  } catch (error) {
    if (error instanceof StoreEngineError && error.code == 'ENGINE_UNAVAILABLE') return undefined;
    throw error;
  }
}

/** Whether the engine emulators start on in this run holds files (every engine but wasm). */
export async function testEngineHoldsFiles(): Promise<boolean> {
  return (await chooseEngine(testEngine)).holdsFiles;
}
