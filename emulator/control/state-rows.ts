/**
 * The check of one imported row against its table: the columns the table has, the SQL type of
 * each, the columns it cannot do without, and what the services expect to read back (JSON, ids:
 * `state-columns.ts`). Every row of an import is checked before anything is written, so a row the
 * services could not read is a 400 naming it rather than a 500 on every later read.
 */
import type { FieldViolation } from '../errors.js';
import { collectionIdProblem } from '../services/data/collection-names.js';
import { STATE_COLUMN_CONTENTS, type ColumnContent } from './state-columns.js';
import { isRecord } from '../untrusted-json.js';

/** One column of a state table, as SQLite describes it (`pragma_table_info`). */
export interface StateColumn {
  /** The declared type: `TEXT` or `INTEGER` in the emulator's tables. */
  type: string;
  /** Whether the column is `NOT NULL`. */
  notNull: boolean;
  /** Whether the table fills the column when a row leaves it out (a `DEFAULT`). */
  hasDefault: boolean;
}

/**
 * The longest entity id an import may carry. The platform's ids are UUIDs or short slugs; a media
 * file's id also names the file of its bytes, and 255 is the longest file name most file systems
 * take (`bytesPath` keeps one character per character of the id).
 */
export const MAX_ENTITY_ID_LENGTH = 255;

/** A C0 control character or DEL: no id the platform makes holds one. */
const hasControlCharacter = (text: string) => [...text].some((character) => character < ' ' || character == '\x7f');

/**
 * Why `id` cannot be the id of an item, a member or a media file, or `undefined` when it can. Also
 * checks the ids of the test members a seed or import file declares (`test-identities.ts`).
 */
export function entityIdProblem(id: string): string | undefined {
  if (!id.trim()) return 'must not be blank';
  if (id.length > MAX_ENTITY_ID_LENGTH) return `must be at most ${MAX_ENTITY_ID_LENGTH} characters`;
  if (hasControlCharacter(id)) return 'must not hold a control character';
  // Ids go into URL paths (`/members/{id}`), where `.` and `..` name the folder or its parent.
  if (id == '.' || id == '..') return '"." and ".." cannot be a path segment';
  return undefined;
}

/** Why `value` is not what a column holding `content` needs, or `undefined` when it is. */
function contentProblem(value: string, content: ColumnContent): string | undefined {
  switch (content) {
    case 'collectionId': {
      const problem = collectionIdProblem(value);
      return problem && `is not a collection id: ${problem}`;
    }
    case 'entityId': {
      const problem = entityIdProblem(value);
      return problem && `is not an id: ${problem}`;
    }
    default: {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return 'must hold JSON text';
      }
      if (content == 'jsonObject' && !isRecord(parsed)) return 'must hold the JSON text of an object';
      if (content == 'jsonArray' && !Array.isArray(parsed)) return 'must hold the JSON text of an array';
      return undefined;
    }
  }
}

/** Why `value` cannot go into `column`, or `undefined` when it can. */
function valueProblem(value: unknown, column: StateColumn, content: ColumnContent | undefined): string | undefined {
  if (value === null) return column.notNull ? 'must not be null' : undefined;
  // SQLite would store a number in a TEXT column as text and text in an INTEGER column as is:
  // the services would then read a type they never wrote.
  if (column.type == 'INTEGER') return Number.isSafeInteger(value) ? undefined : 'must be an integer or null';
  if (typeof value != 'string') return column.notNull ? 'must be a string' : 'must be a string or null';
  return content && contentProblem(value, content);
}

/**
 * The violations of one row of `table` (`tables.<table>.<index>.<column>`): a column the table
 * does not have, a value of the wrong type or content, a required column left out.
 */
export function rowViolations(
  table: string,
  index: number,
  row: unknown,
  columns: ReadonlyMap<string, StateColumn>,
): FieldViolation[] {
  const at = `tables.${table}.${index}`;
  if (!isRecord(row)) return [{ field: at, description: 'must be an object', violatedRule: 'VALIDATION' }];
  const violations: FieldViolation[] = [];
  const contents = STATE_COLUMN_CONTENTS[table] ?? {};
  for (const [name, value] of Object.entries(row)) {
    const column = columns.get(name);
    if (!column) {
      violations.push({
        field: `${at}.${name}`,
        description: 'is not a column of the table',
        violatedRule: 'FIELD_NOT_ALLOWED',
      });
      continue;
    }
    const problem = valueProblem(value, column, Object.hasOwn(contents, name) ? contents[name] : undefined);
    if (problem) violations.push({ field: `${at}.${name}`, description: problem, violatedRule: 'VALIDATION' });
  }
  for (const [name, column] of columns) {
    if (column.notNull && !column.hasDefault && !Object.hasOwn(row, name))
      violations.push({ field: `${at}.${name}`, description: 'is required', violatedRule: 'REQUIRED_FIELD' });
  }
  return violations;
}
