/**
 * Small internals shared by the error classes: the brand, shape checks, one-line messages and
 * the description of a thrown value.
 * @internal
 */

/**
 * Marks every sitekit error, independently of which copy of the package created it.
 *
 * `Symbol.for` returns the same symbol across module instances (ESM and CJS builds loaded
 * side by side, or two versions in one bundle), where `instanceof` would fail, so the
 * guards in `guards.ts` can still recognise an error thrown by the other copy.
 * @internal
 */
export const BRAND: unique symbol = Symbol.for('sitekit.error');

/**
 * True for a non-null, non-array object; used to read values without trusting their shape.
 * @internal
 */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value == 'object' && value !== null && !Array.isArray(value);

/** `value` trimmed when it is a string, else `''`. @internal */
export const trimmedText = (value: unknown): string => (typeof value == 'string' ? value.trim() : '');

/** `head: tail`, or `head` alone when `tail` is empty or missing. @internal */
export const colon = (head: string, tail?: string): string => (tail ? `${head}: ${tail}` : head);

// Whitespace plus C0/C1 control characters: a message must never break a log line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const BREAKING = /[\s\0-\x1f\x7f-\x9f]+/g;

/** Whether a UTF-16 code unit is the first half of a surrogate pair (`0xd800`-`0xdbff`). */
const isHighSurrogate = (codeUnit: number): boolean => codeUnit >= 0xd800 && codeUnit <= 0xdbff;

/**
 * Collapses all whitespace and control characters to single spaces, trims, and caps the
 * result at `max` characters (default 300, the longest message body we keep) with a trailing
 * ellipsis. The cut never splits a surrogate pair: when the last kept character would be the
 * first half of one, the cut moves one character earlier.
 *
 * @example
 * toOneLine('  first\n  second  '); // 'first second'
 * @internal
 */
export const toOneLine = (text: string, max = 300): string => {
  const flat = text.replace(BREAKING, ' ').trim();
  if (flat.length <= max) return flat;
  // `max - 1` characters leave room for the ellipsis.
  let cut = max - 1;
  if (isHighSurrogate(flat.charCodeAt(cut - 1))) cut -= 1;
  return `${flat.slice(0, cut).trimEnd()}…`;
};

/** Thrown values that print as themselves (not symbols, not functions, not objects). */
const PRINTABLE_TYPES = ['string', 'number', 'boolean', 'bigint'];

// One thrown value as a short line, or undefined. "Error: " adds nothing; a specific name such
// as TypeError or AbortError does (only for the outer value: `withName`).
const describeOne = (value: unknown, withName?: boolean): string | undefined => {
  let text = '';
  if (isRecord(value)) {
    const message = trimmedText(value.message);
    const name = trimmedText(value.name);
    const code = trimmedText(value.code);
    text = withName && name !== 'Error' && name ? colon(name, message || code) : message || code;
  } else if (PRINTABLE_TYPES.includes(typeof value)) {
    text = String(value);
  }
  return toOneLine(text, 200) || undefined;
};

/**
 * `prefix: <one short line naming the thrown value>`, or `prefix` alone when the value says
 * nothing, for messages such as "Network request failed: …".
 *
 * Follows one level of `cause` because Node's fetch reports every failure as
 * `TypeError: fetch failed` and hides the useful part (`connect ECONNREFUSED …`) there.
 * Never stringifies arbitrary objects: `[object Object]` helps nobody.
 *
 * @example
 * causeLine('Failed', new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:80') }));
 * // 'Failed: TypeError: fetch failed (connect ECONNREFUSED 127.0.0.1:80)'
 * @internal
 */
export const causeLine = (prefix: string, cause: unknown): string => {
  const head = describeOne(cause, true);
  const inner = head && isRecord(cause) ? describeOne(cause.cause) : undefined;
  return colon(prefix, inner && !head!.includes(inner) ? `${head} (${inner})` : head);
};
