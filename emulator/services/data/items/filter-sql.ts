/**
 * The filter language (the platform's "Filter composition" and "Query semantics") translated to
 * SQL over the JSON column of items, so SQLite does the filtering, never JavaScript after a full
 * scan. JSON paths are bound parameters, so user field names never become SQL.
 *
 * Type-exact semantics: a leaf compares values of the same JSON type only (5 is not "5"); `eq` on
 * an array field matches any element; `contains`/`startsWith`/`endsWith` are case-insensitive;
 * `hasSome`/`hasAll` case-sensitive; `{f: null}` matches missing or null.
 */
import { invalidField } from '../../../errors.js';
import type { SqlValue } from '../../../store/store.js';
import { checkStoredValue, isRecord } from '../../../untrusted-json.js';
import { isDateValue, jsonPath, kindOf, normalDate } from './json-path.js';

/** A piece of SQL and its positional parameters, in order. */
export interface SqlFragment {
  sql: string;
  params: SqlValue[];
}

const TRUE: SqlFragment = { sql: '1', params: [] };
const FALSE: SqlFragment = { sql: '0', params: [] };

/**
 * Joins fragments with AND/OR; an empty AND is true, an empty OR false. Long lists are joined as a
 * balanced tree (`((a OR b) OR (c OR d))`): SQLite parses `a OR b OR c...` into a chain as deep as
 * the list is long, and refuses expressions deeper than 1,000.
 */
function combine(parts: SqlFragment[], operator: 'AND' | 'OR'): SqlFragment {
  if (!parts.length) return operator == 'AND' ? TRUE : FALSE;
  if (parts.length == 1) return parts[0]!;
  if (parts.length > 2) {
    const middle = Math.ceil(parts.length / 2);
    return combine([combine(parts.slice(0, middle), operator), combine(parts.slice(middle), operator)], operator);
  }
  return {
    sql: parts.map((part) => `(${part.sql})`).join(` ${operator} `),
    params: parts.flatMap((part) => part.params),
  };
}

/** Logical negation where an unknown (SQL NULL) counts as false, so NOT never loses rows to NULL. */
const negate = (part: SqlFragment): SqlFragment => ({ sql: `NOT COALESCE((${part.sql}), 0)`, params: part.params });

/** How deep `$and`/`$or`/`$not` may nest, and how many conditions one filter may hold (SQLite's expression limits sit above these). */
const MAX_DEPTH = 32;
const MAX_CONDITIONS = 100;
/**
 * How many terms (`$and`, `$or` and `$not` entries) one filter may hold in all. An empty `{}` term
 * is no condition but still costs work and SQL, so terms have their own bound.
 */
const MAX_TERMS = 1000;
/**
 * How many values the list operands (`$hasSome`, `$in`, `$hasAll`) of one filter may hold in all:
 * long lists are fine (strings and numbers are one condition each), but a list of 1.2 million
 * values (inside the body limit) took 2.5 s of the event loop, every other request waiting.
 */
const MAX_LIST_VALUES = 10_000;

/**
 * Which fields a caller may filter or sort on: throws a 400 naming `requestField` for a field the
 * caller may not read (members: fields outside its field set). Absent: every field.
 */
export type FieldRule = (fieldName: string, requestField: string) => void;

/** Builds the SQL of one filter against the JSON text in `column`. */
class FilterTranslator {
  /** Conditions translated so far, against {@link MAX_CONDITIONS}. */
  private conditions = 0;
  /** Terms translated so far, against {@link MAX_TERMS}. */
  private terms = 0;
  /** Values of list operands so far, against {@link MAX_LIST_VALUES}. */
  private listValues = 0;

  constructor(
    /** The SQL expression holding the item's JSON (`items.data`). */
    private readonly column: string,
    /** Where the filter sits in the request, for error fields (`query.filter`). */
    private readonly requestField: string,
    /** The fields the caller may filter on. */
    private readonly fieldRule?: FieldRule,
  ) {}

  /** The whole filter: `{}` or absent matches everything. */
  translate(filter: unknown): SqlFragment {
    if (filter === undefined || filter === null) return TRUE;
    return this.node(filter, this.requestField, 0);
  }

  private node(filter: unknown, at: string, depth: number): SqlFragment {
    if (!isRecord(filter)) throw invalidField(at, 'must be a filter object', 'VALIDATION');
    if (depth > MAX_DEPTH) throw invalidField(this.requestField, `nests deeper than ${MAX_DEPTH} levels`, 'VALIDATION');
    const parts: SqlFragment[] = [];
    for (const [key, value] of Object.entries(filter)) {
      if (key == '$and' || key == '$or') {
        if (!Array.isArray(value)) throw invalidField(`${at}.${key}`, 'must be an array of filters');
        this.countTerms(value.length, `${at}.${key}`);
        parts.push(
          combine(
            value.map((entry, index) => this.node(entry, `${at}.${key}.${index}`, depth + 1)),
            key == '$and' ? 'AND' : 'OR',
          ),
        );
      } else if (key == '$not') {
        const inner = Array.isArray(value) ? value : [value];
        if (inner.length != 1) throw invalidField(`${at}.$not`, 'must hold exactly one filter');
        this.countTerms(1, `${at}.$not`);
        parts.push(negate(this.node(inner[0], `${at}.$not`, depth + 1)));
      } else if (key.startsWith('$')) {
        throw invalidField(`${at}.${key}`, `unknown operator ${key}`, 'VALIDATION');
      } else {
        parts.push(this.field(key, value, `${at}.${key}`));
      }
    }
    return combine(parts, 'AND');
  }

  /** One field's condition: a value (equality) or an object of operators. */
  private field(fieldName: string, condition: unknown, at: string): SqlFragment {
    const path = jsonPath(fieldName, at);
    this.fieldRule?.(fieldName, at);
    const isOperators =
      isRecord(condition) &&
      !isDateValue(condition) &&
      Object.keys(condition).length > 0 &&
      Object.keys(condition).every((key) => key.startsWith('$'));
    if (!isOperators) {
      this.count();
      return this.equals(path, condition, at);
    }
    return combine(
      Object.entries(condition).map(([operator, operand]) =>
        this.operator(path, operator, operand, `${at}.${operator}`),
      ),
      'AND',
    );
  }

  private operator(path: string, operator: string, operand: unknown, at: string): SqlFragment {
    this.count();
    switch (operator) {
      case '$eq':
        return this.equals(path, operand, at);
      case '$ne':
        return operand === null ? this.present(path) : negate(this.equals(path, operand, at));
      case '$lt':
        return this.compare(path, '<', operand, at);
      case '$lte':
        return this.compare(path, '<=', operand, at);
      case '$gt':
        return this.compare(path, '>', operand, at);
      case '$gte':
        return this.compare(path, '>=', operand, at);
      case '$contains':
        return this.text(path, 'contains', operand, at);
      case '$startsWith':
        return this.text(path, 'startsWith', operand, at);
      case '$endsWith':
        return this.text(path, 'endsWith', operand, at);
      case '$hasSome':
      case '$in':
        return this.oneOf(path, this.list(operand, at), at);
      case '$hasAll': {
        const values = this.list(operand, at);
        this.conditions += values.length;
        if (this.conditions > MAX_CONDITIONS)
          throw invalidField(at, `holds more than ${MAX_CONDITIONS} values`, 'MAX_SIZE');
        return combine(
          values.map((value, index) => this.equals(path, value, `${at}.${index}`)),
          'AND',
        );
      }
      case '$exists':
        if (typeof operand != 'boolean') throw invalidField(at, 'must be true or false');
        return { sql: `json_type(${this.column}, ?) IS ${operand ? 'NOT ' : ''}NULL`, params: [path] };
      default:
        throw invalidField(at, `unknown operator ${operator}`);
    }
  }

  /**
   * hasSome / in: the field (or an element) equals one of the values. Strings and numbers are
   * matched as a set (one JSON array parameter each), so long lists stay one condition.
   */
  private oneOf(path: string, values: unknown[], at: string): SqlFragment {
    const column = this.column;
    const parts: SqlFragment[] = [];
    for (const [kind, types] of [
      ['string', `('text')`],
      ['number', `('integer', 'real')`],
    ] as const) {
      const set = values.filter((value) => kindOf(value) == kind);
      if (!set.length) continue;
      const json = JSON.stringify(set);
      parts.push({
        sql: `(json_type(${column}, ?) IN ${types} AND json_extract(${column}, ?) IN (SELECT value FROM json_each(?))) OR (json_type(${column}, ?) = 'array' AND EXISTS (SELECT 1 FROM json_each(${column}, ?) AS element WHERE element.type IN ${types} AND element.value IN (SELECT value FROM json_each(?))))`,
        params: [path, path, json, path, path, json],
      });
    }
    const others = values.filter((value) => kindOf(value) != 'string' && kindOf(value) != 'number');
    this.conditions += others.length;
    if (this.conditions > MAX_CONDITIONS)
      throw invalidField(at, `holds more than ${MAX_CONDITIONS} values`, 'MAX_SIZE');
    parts.push(...others.map((value) => this.equals(path, value, `${at}.${values.indexOf(value)}`)));
    return combine(parts, 'OR');
  }

  /** Counts the terms of one `$and`/`$or`/`$not` against {@link MAX_TERMS}. */
  private countTerms(count: number, at: string): void {
    this.terms += count;
    if (this.terms > MAX_TERMS)
      throw invalidField(at, `the filter holds more than ${MAX_TERMS} $and, $or and $not terms`, 'MAX_SIZE');
  }

  /** Counts one more condition against {@link MAX_CONDITIONS}. */
  private count(): void {
    if (++this.conditions > MAX_CONDITIONS)
      throw invalidField(this.requestField, `holds more than ${MAX_CONDITIONS} conditions`, 'VALIDATION');
  }

  private list(operand: unknown, at: string): unknown[] {
    if (!Array.isArray(operand)) throw invalidField(at, 'must be an array of values');
    this.listValues += operand.length;
    if (this.listValues > MAX_LIST_VALUES)
      throw invalidField(at, `the filter's lists hold more than ${MAX_LIST_VALUES} values in all`, 'MAX_SIZE');
    return operand;
  }

  /** Missing or null. */
  private absent(path: string): SqlFragment {
    return { sql: `COALESCE(json_type(${this.column}, ?), 'null') = 'null'`, params: [path] };
  }

  /** Present and not null (isNotEmpty: `""` counts as present). */
  private present(path: string): SqlFragment {
    return { sql: `COALESCE(json_type(${this.column}, ?), 'null') != 'null'`, params: [path] };
  }

  /**
   * Equality of the same type only; on an array field, any element equal. Dates compare by
   * instant, objects and arrays by their JSON text.
   */
  private equals(path: string, value: unknown, at: string): SqlFragment {
    const column = this.column;
    const kind = kindOf(value);
    switch (kind) {
      case 'null':
        return this.absent(path);
      case 'string':
      case 'number': {
        const types = kind == 'string' ? `('text')` : `('integer', 'real')`;
        return {
          sql: `(json_type(${column}, ?) IN ${types} AND json_extract(${column}, ?) = ?) OR (json_type(${column}, ?) = 'array' AND EXISTS (SELECT 1 FROM json_each(${column}, ?) WHERE type IN ${types} AND value = ?))`,
          params: [path, path, value as SqlValue, path, path, value as SqlValue],
        };
      }
      case 'boolean': {
        const type = value ? 'true' : 'false';
        return {
          sql: `json_type(${column}, ?) = '${type}' OR (json_type(${column}, ?) = 'array' AND EXISTS (SELECT 1 FROM json_each(${column}, ?) WHERE type = '${type}'))`,
          params: [path, path, path],
        };
      }
      case 'date': {
        const iso = this.date(value, at);
        return {
          sql: `json_extract(${column}, ?) = ? OR (json_type(${column}, ?) = 'array' AND EXISTS (SELECT 1 FROM json_each(${column}, ?) WHERE type = 'object' AND json_extract(value, '$."$date"') = ?))`,
          params: [`${path}."$date"`, iso, path, path, iso],
        };
      }
      default:
        // Compared as JSON text: a value too deep for SQLite's JSON (or for JSON.stringify) is a 400, not a 500.
        checkStoredValue(value, at);
        return {
          sql: `json_type(${column}, ?) IN ('object', 'array') AND json_extract(${column}, ?) = json(?)`,
          params: [path, path, JSON.stringify(value)],
        };
    }
  }

  /** `lt lte gt gte`: numbers numerically, dates chronologically, strings by code point; other types never match. */
  private compare(path: string, operator: '<' | '<=' | '>' | '>=', value: unknown, at: string): SqlFragment {
    const column = this.column;
    const kind = kindOf(value);
    if (kind == 'number')
      return {
        sql: `json_type(${column}, ?) IN ('integer', 'real') AND json_extract(${column}, ?) ${operator} ?`,
        params: [path, path, value as number],
      };
    if (kind == 'string')
      return {
        sql: `json_type(${column}, ?) = 'text' AND json_extract(${column}, ?) ${operator} ?`,
        params: [path, path, value as string],
      };
    if (kind == 'date') {
      const datePath = `${path}."$date"`;
      return {
        sql: `json_type(${column}, ?) = 'text' AND json_extract(${column}, ?) ${operator} ?`,
        params: [datePath, datePath, this.date(value, at)],
      };
    }
    throw invalidField(at, 'must be a number, a string or a date', 'VALIDATION');
  }

  /** contains / startsWith / endsWith, case-insensitive (Unicode lower case), on strings only. */
  private text(path: string, how: 'contains' | 'startsWith' | 'endsWith', value: unknown, at: string): SqlFragment {
    if (typeof value != 'string') throw invalidField(at, 'must be a string');
    const column = this.column;
    const needle = value.toLowerCase();
    // SQLite counts characters (code points), as the spread does; String#length counts UTF-16 units.
    const length = [...needle].length;
    const haystack = `unicode_lower(json_extract(${column}, ?))`;
    const test =
      how == 'contains'
        ? { sql: `instr(${haystack}, ?) > 0`, params: [path, needle] }
        : how == 'startsWith'
          ? { sql: `substr(${haystack}, 1, ?) = ?`, params: [path, length, needle] }
          : {
              sql: length ? `substr(${haystack}, -?) = ?` : `? = ''`,
              params: length ? [path, length, needle] : [needle],
            };
    return { sql: `json_type(${column}, ?) = 'text' AND ${test.sql}`, params: [path, ...test.params] };
  }

  private date(value: unknown, at: string): string {
    const iso = normalDate((value as { $date: string }).$date);
    if (!iso) throw invalidField(at, 'is not a valid date', 'FORMAT');
    return iso;
  }
}

/** Translates `filter` against the JSON in `column`; errors name `requestField`; `fieldRule` limits the fields. */
export const filterToSql = (
  filter: unknown,
  column: string,
  requestField: string,
  fieldRule?: FieldRule,
): SqlFragment => new FilterTranslator(column, requestField, fieldRule).translate(filter);
