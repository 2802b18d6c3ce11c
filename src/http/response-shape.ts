/**
 * A 2xx body that does not have the shape the schema promises is an error, not data: without this
 * check, `{}` for an insert or `{"dataItems": "oops"}` for a query would resolve with garbage typed
 * as the result. The check reads only what the operation table knows about the response: the
 * field the method returns (`unwrap`) and, from the response's transform tree, where an object or
 * a list of objects (an entity, a data item, a nested structure) must be.
 */
import { isRecord } from '../input.js';
import type { Operation, TransformNode } from '../operation.js';

/** Codes whose wire value is an object (a data item; free-form item data may be any JSON value). */
const OBJECT_CODES: ReadonlySet<string> = new Set(['item']);

/** The first path under `path` where `value` breaks `node`, or undefined. Missing values are allowed. */
function firstMismatch(value: unknown, node: TransformNode | undefined, path: string): string | undefined {
  if (value === undefined || value === null || node === undefined) return undefined;
  const wantsObject = typeof node === 'object' || OBJECT_CODES.has(node);
  if (!wantsObject) return undefined;
  // Arrays are transparent in a transform tree: the node applies to every element.
  if (Array.isArray(value)) {
    // Stryker disable next-line EqualityOperator: value[value.length] is undefined, which passes
    for (let index = 0; index < value.length; index++) {
      const found = firstMismatch(value[index], node, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isRecord(value)) return path;
  // Stryker disable next-line ConditionalExpression: a code's characters (for...in of a string) name no field of an object
  if (typeof node !== 'object') return undefined;
  for (const key in node) {
    if (key === '$entity') continue;
    if (key === '$values') {
      for (const entry in value) {
        const found = firstMismatch(value[entry], node.$values, `${path}.${entry}`);
        if (found) return found;
      }
      continue;
    }
    const found = firstMismatch(value[key], node[key] as TransformNode, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

/**
 * What is wrong with a 2xx response body of `operation`, as a short phrase, or undefined when it
 * has the expected shape. `body` is the parsed JSON (`undefined` for an empty body).
 *
 * @example
 * unexpectedShape(insertDataItem, {}); // 'no "dataItem"'
 */
export function unexpectedShape(operation: Operation, body: unknown): string | undefined {
  if (body === undefined) return operation.unwrap && !operation.nullIfMissing ? 'an empty body' : undefined;
  if (!isRecord(body)) return 'a body that is not a JSON object';
  if (operation.unwrap && !operation.nullIfMissing && body[operation.unwrap] == null) return `no "${operation.unwrap}"`;
  const path = firstMismatch(body, operation.response, '');
  return path ? `"${path}" is not an object` : undefined;
}
