/**
 * What `--seed` and `POST /_emulator/import` read: an export of version 2 (entities,
 * `entities.ts`), an export of version 1 (older emulators: `tables` of rows, `state.ts`), test
 * members (`members` without a version, see `test-identities.ts`), or version 1 tables with test
 * members. Everything is checked before anything changes.
 */
import type { EmulatorContext, ServiceModule } from '../service.js';
import { isRecord } from '../untrusted-json.js';
import type { ImportResult } from './api.js';
import { importEntities } from './entities.js';
import { checkState, importState } from './state.js';
import { checkTestMembers, writeTestMembers } from './test-identities.js';

/** Whether a file is an export of version 2 (its `members` are the site's, not test members). */
const isVersion2 = (state: unknown): state is Record<string, unknown> => isRecord(state) && state.version === 2;

/**
 * Applies a seed or import file in one transaction. Version 2 replaces the state with its
 * entities. Otherwise its `tables` replace the state; without `tables`, `withoutTables` runs
 * instead (the demo data for a first start; nothing for an import, which then only adds its
 * members); then the test `members` are written (replacing any with the same id or email).
 */
export function importSeed(
  context: EmulatorContext,
  modules: readonly ServiceModule[],
  state: unknown,
  withoutTables: () => void,
): ImportResult {
  if (isVersion2(state))
    return context.store.transaction(() => ({ entities: importEntities(context, modules, state) }));
  const declared = isRecord(state) && state.members !== undefined ? checkTestMembers(state.members) : undefined;
  const hasTables = !declared || (isRecord(state) && state.tables !== undefined);
  return context.store.transaction(() => {
    const result: ImportResult = hasTables ? importState(context.store, state) : { tables: {} };
    if (!hasTables) withoutTables();
    if (declared) result.members = writeTestMembers(context, declared).map((member) => member.id);
    return result;
  });
}

/** Thrown to undo a check's trial import. */
const CHECKED = Symbol('checked');

/**
 * Checks a seed file as {@link importSeed} does without writing anything: a `--seed` that is not
 * applied (the data folder already holds a site) is still refused when applying it would fail.
 * Version 2 is checked by importing it in a transaction that is then undone; of version 1, only a
 * key repeated between rows is left to the import to find.
 */
export function checkSeed(context: EmulatorContext, modules: readonly ServiceModule[], state: unknown): void {
  if (isVersion2(state)) {
    try {
      context.store.transaction(() => {
        importEntities(context, modules, state);
        throw CHECKED;
      });
    } catch (error) {
      if (error !== CHECKED) throw error;
    }
    return;
  }
  const file = isRecord(state) ? state : undefined;
  if (file?.members !== undefined) checkTestMembers(file.members);
  // As importSeed reads it: a file of members alone has no tables.
  if (file?.members === undefined || file.tables !== undefined) checkState(context.store, state);
}
