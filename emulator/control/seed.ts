/**
 * What `--seed` and `POST /_emulator/import` read: an export (`tables`), test members
 * (`members`, see `test-identities.ts`), or both. Everything is checked before anything changes.
 */
import type { EmulatorContext } from '../service.js';
import { checkState, importState } from './state.js';
import { checkTestMembers, writeTestMembers } from './test-identities.js';
import { isRecord } from '../untrusted-json.js';

/** What an import did. */
export type ImportResult = {
  /** Rows imported per table (empty when the file had no `tables`). */
  tables: Record<string, number>;
  /** The ids of the declared members, in the file's order. */
  members?: string[];
};

/**
 * Applies a seed or import file in one transaction: its `tables` replace the state; without
 * `tables`, `withoutTables` runs instead (the demo data for a first start; nothing for an import,
 * which then only adds its members). Then the `members` are written (replacing any with the same
 * id or email).
 */
export function importSeed(context: EmulatorContext, state: unknown, withoutTables: () => void): ImportResult {
  const declared = isRecord(state) && state.members !== undefined ? checkTestMembers(state.members) : undefined;
  const hasTables = !declared || (isRecord(state) && state.tables !== undefined);
  return context.store.transaction(() => {
    const result: ImportResult = hasTables ? importState(context.store, state) : { tables: {} };
    if (!hasTables) withoutTables();
    if (declared) result.members = writeTestMembers(context, declared).map((member) => member.id);
    return result;
  });
}

/**
 * Checks a seed file as {@link importSeed} does (its members, its rows) without writing anything:
 * a `--seed` that is not applied (the data folder already holds a site) is still refused when
 * applying it would fail. Only a key repeated between rows is left to the import to find.
 */
export function checkSeed(context: EmulatorContext, state: unknown): void {
  const file = isRecord(state) ? state : undefined;
  if (file?.members !== undefined) checkTestMembers(file.members);
  // As importSeed reads it: a file of members alone has no tables.
  if (file?.members === undefined || file.tables !== undefined) checkState(context.store, state);
}
