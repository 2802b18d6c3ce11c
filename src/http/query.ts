/**
 * Query-string serialisation for GET and DELETE, in the platform's wire format: nested objects
 * as dotted keys, arrays as repeated keys, and a payload with arrays of objects as one `.r`
 * parameter (base64url JSON).
 */

/** Values that go into a query string as one `key=value` pair (arrays of them repeat the key). */
const isScalar = (value: unknown): boolean => value === null || typeof value !== 'object' || value instanceof Date;

/**
 * Whether an array somewhere in `value` holds objects (or arrays): dotted keys cannot say which
 * element a field belongs to, so such a payload must travel as `.r` JSON instead.
 */
const needsJson = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some((element) => !isScalar(element))
    : !isScalar(value) && Object.values(value as object).some(needsJson);

/** Appends the `key=value` pairs of `value` under the (already encoded) `key` to `out`. */
function flatten(value: unknown, key: string, out: string[]): void {
  if (value == null) return;
  if (Array.isArray(value)) for (const element of value) flatten(element, key, out);
  else if (value instanceof Date) out.push(`${key}=${encodeURIComponent(value.toISOString())}`);
  else if (typeof value === 'object')
    // Each segment is encoded on its own so the joining dots stay readable.
    for (const [name, child] of Object.entries(value))
      flatten(child, (key ? `${key}.` : '') + encodeURIComponent(name), out);
  else out.push(`${key}=${encodeURIComponent(String(value))}`);
}

/**
 * Serialises query parameters the way the platform reads them, without the leading `?`
 * (`''` when there is nothing to send). Nested objects flatten to dotted keys, arrays repeat
 * the key, `undefined`/`null` are skipped, dates become ISO strings. A payload holding an
 * array of objects anywhere is sent whole as `.r=<base64url(JSON)>`.
 *
 * @example
 * ```ts
 * serializeQuery({ paging: { limit: 10 }, fieldsets: ['FULL'] }); // 'paging.limit=10&fieldsets=FULL'
 * serializeQuery({ sorting: [{ fieldName: 'a', order: 'ASC' }] }); // '.r=eyJzb3J0aW5n...'
 * ```
 */
export function serializeQuery(query: Record<string, unknown> | undefined): string {
  // Stryker disable next-line ConditionalExpression: flatten skips undefined too; the check saves the walk
  if (!query) return '';
  if (needsJson(query)) return '.r=' + base64UrlEncode(JSON.stringify(query));
  const out: string[] = [];
  flatten(query, '', out);
  return out.join('&');
}

/**
 * Base64url (RFC 4648, section 5) of bytes: base64 with `-` for `+`, `_` for `/`, and no `=`
 * padding. (A loop, not a spread into `String.fromCharCode`: large inputs would overflow the stack.)
 */
export const base64UrlBytes = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  // Stryker disable next-line Regex: base64 has '=' only as its end's padding, so /=+/ finds the same
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
};

/** Base64url (`-`, `_`, no padding) of the UTF-8 bytes of `text`; btoa alone only takes Latin-1. */
export const base64UrlEncode = (text: string): string => base64UrlBytes(new TextEncoder().encode(text));
