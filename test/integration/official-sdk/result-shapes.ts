/**
 * Whether code written against one result keeps working on another: every key the official
 * result has is in ours with the same kind (string, number, list, object, Date, function...),
 * at every depth (lists compared by their first elements). Keys only ours has are allowed.
 */

/** The kind of a value, as code reading it sees it. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Date) return 'Date';
  return typeof value;
}

/**
 * The keys code may read: all of a plain object's; of a class instance (the official query
 * results), the getters and methods of its classes, not its instance fields (their internal
 * state: `_items`, `collectionName`, `fetch`...), nor members whose names start with `_`.
 */
function publicKeys(value: object): string[] {
  let prototype = Object.getPrototypeOf(value);
  if (prototype == null || prototype == Object.prototype) return Object.keys(value);
  const keys = new Set<string>();
  for (; prototype != null && prototype != Object.prototype; prototype = Object.getPrototypeOf(prototype)) {
    // `toJSON` only shapes JSON.stringify's output, which works on any result.
    for (const key of Object.getOwnPropertyNames(prototype))
      if (key != 'constructor' && key != 'toJSON' && !key.startsWith('_')) keys.add(key);
  }
  return [...keys];
}

/** Where `ours` lacks a key of `official` or holds another kind there (dotted paths, `[0]` for list elements). */
export function missingShape(official: unknown, ours: unknown, at = 'result'): string[] {
  const officialKind = kindOf(official);
  const ourKind = kindOf(ours);
  // A value the official result leaves empty promises no kind.
  if (officialKind == 'undefined' || officialKind == 'null') return [];
  if (officialKind != ourKind) return [`${at}: ${officialKind} in the official result, ${ourKind} in ours`];
  if (officialKind == 'list') {
    const [first] = official as unknown[];
    const [ourFirst] = ours as unknown[];
    return first === undefined || ourFirst === undefined ? [] : missingShape(first, ourFirst, `${at}[0]`);
  }
  if (officialKind != 'object') return [];
  return publicKeys(official as object).flatMap((key) =>
    missingShape((official as Record<string, unknown>)[key], (ours as Record<string, unknown>)[key], `${at}.${key}`),
  );
}
