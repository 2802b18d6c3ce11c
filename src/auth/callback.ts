/** Reading the authorization response from a return URL, without trusting the URL. */
import type { OAuthCallback } from './types.js';

/**
 * Reads `code`, `state`, `error` and `error_description` from the fragment (default) or the query
 * of `url` (default: the current page's address). Never throws: a malformed or hostile URL just
 * yields `null` values (URLSearchParams keeps undecodable `%` sequences as they are).
 *
 * @example
 * ```ts
 * const { code, state, error } = parseFromUrl('https://app.test/cb#code=c&state=s');
 * ```
 */
export function parseFromUrl(url?: string, responseMode: 'fragment' | 'query' = 'fragment'): OAuthCallback {
  // Always matches: [1] is the query (without `?`), [2] the fragment (without `#`).
  const [, query, fragment] = String(url ?? globalThis.location?.href ?? '').match(/^[^?#]*\??([^#]*)#?(.*)/s)!;
  const params = new URLSearchParams(responseMode === 'query' ? query : fragment);
  const error = params.get('error');
  return { code: params.get('code'), state: params.get('state'), ...(error ? { error, errorDescription: params.get('error_description') } : {}) };
}
