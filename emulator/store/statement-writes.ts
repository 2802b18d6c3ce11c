/**
 * Whether a statement writes, for engines that do not say (node:sqlite's `StatementSync` has no
 * `readonly`, nor has sql.js): read from its compiled program, as SQLite's own
 * `sqlite3_stmt_readonly` decides. A statement writes when its program opens a write transaction
 * (`Transaction` with a non-zero P2), or vacuums, checkpoints or changes the journal mode. So
 * `INSERT ... RETURNING` and `WITH ... DELETE` write; `SELECT`, `BEGIN`, `SAVEPOINT` do not.
 */

/** The opcodes that make a program a writer whatever their operands. */
const WRITING_OPCODES = new Set(['Vacuum', 'JournalMode', 'Checkpoint']);

/** One row of `EXPLAIN`: an instruction of the compiled program. */
export interface ProgramStep {
  opcode: unknown;
  p2: unknown;
}

/** Whether the program `EXPLAIN <statement>` lists may write to the database. */
export function programWrites(program: readonly ProgramStep[]): boolean {
  return program.some(
    (step) => (step.opcode == 'Transaction' && Number(step.p2) != 0) || WRITING_OPCODES.has(String(step.opcode)),
  );
}
