/**
 * Reads query strings the way the platform's clients write them:
 * dotted keys nest (`paging.limit=10`), repeated keys make arrays, and `.r=<base64url JSON>`
 * carries the whole request.
 */
import { isPrototypeName, ownValue } from '../untrusted-json.js';

/** Set on the parsed object when `.r` cannot be decoded; the route turns it into a validation error. */
export const QUERY_PROBLEM = Symbol('query string problem');

type Nested = Record<string, unknown> & { [QUERY_PROBLEM]?: string };

function assign(target: Record<string, unknown>, dottedKey: string, value: string): void {
  const path = dottedKey.split('.');
  // A key that would reach a prototype is dropped, like an empty segment (`a..b`).
  if (path.some((segment) => !segment || isPrototypeName(segment))) return;
  let node = target;
  for (let index = 0; index < path.length - 1; index++) {
    const segment = path[index]!;
    // Its own field only: never what every object inherits (`toString`, `valueOf`...).
    const child = ownValue(node, segment);
    if (typeof child != 'object' || child === null || Array.isArray(child)) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  const existing = ownValue(node, last);
  node[last] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
}

/**
 * Parses a raw query string (without `?`) into the nested request object, a plain object (what
 * validators and handlers expect) whose fields are all its own. Never throws.
 */
export function parseQueryString(raw: string): Nested {
  const result: Nested = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (key == '.r') {
      try {
        // `__proto__` is refused as the body parser refuses it: copied into the request below, it
        // would become the request object's prototype (fields the caller never sent, inherited).
        const decoded: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'), (name, entry) => {
          // Stryker disable next-line StringLiteral: the catch below drops the message.
          if (name == '__proto__') throw new Error('__proto__ key');
          return entry;
        });
        // Stryker disable next-line StringLiteral: the catch below drops the message.
        if (typeof decoded != 'object' || decoded === null || Array.isArray(decoded)) throw new Error('not an object');
        Object.assign(result, decoded);
      } catch {
        result[QUERY_PROBLEM] = '`.r` must be the base64url encoding of a JSON object (without `__proto__` keys)';
      }
    } else {
      assign(result, key, value);
    }
  }
  return result;
}
