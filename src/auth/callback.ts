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
  // The query runs from a `?` before any `#` up to the `#`; the fragment from the first `#` on.
  const params = new URLSearchParams(
    String(url ?? globalThis.location?.href ?? '').match(responseMode === 'query' ? /^[^?#]*\?([^#]*)/ : /#(.*)/s)?.[1],
  );
  const get = (name: string) => params.get(name);
  const error = get('error');
  return {
    code: get('code'),
    state: get('state'),
    ...(error && { error, errorDescription: get('error_description') }),
  };
}
