/**
 * Token storage adapters. None touches `window`, `document` or `localStorage` before it is
 * used, so all of them can be imported (and created) in Node, workers and SSR.
 */
import type { Tokens, TokenStorage } from './types.js';

/** `f()`, or else (it threw) `g()` in the same way, or else `undefined`: storage is user-writable and may be missing. */
const attempt = <T>(f: () => T, g?: () => T): T | undefined => {
  try {
    return f();
  } catch {
    return g && attempt(g);
  }
};

/**
 * Keeps tokens in memory (the default): they last as long as the client.
 *
 * @example
 * ```ts
 * OAuthStrategy({ clientId, storage: memoryTokenStorage(savedTokens) });
 * ```
 */
export function memoryTokenStorage(tokens?: Tokens | null): TokenStorage {
  return { getTokens: () => tokens, setTokens: (next) => void (tokens = next) };
}

/**
 * The part of the Web Storage interface (`localStorage`, `sessionStorage`) that
 * {@link localStorageTokenStorage} uses. Declared here rather than using the DOM's `Storage`, so
 * the package's types compile in projects without the DOM library (Node-only).
 */
export interface WebStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Keeps tokens in `localStorage` (or any Web Storage, e.g. `sessionStorage`) under `key`, so
 * they survive reloads and are shared by the tabs of a site. Where no storage exists (Node) or
 * it refuses to write (quota, privacy modes), tokens are kept in memory instead.
 *
 * @example
 * ```ts
 * OAuthStrategy({ clientId, storage: localStorageTokenStorage() });
 * ```
 */
export function localStorageTokenStorage(key = 'sitekit.tokens', storage?: WebStorage): TokenStorage {
  let memory: Tokens | null = null;
  const web = () => storage ?? globalThis.localStorage;
  return {
    // Unreadable or unparsable: the copy in memory.
    getTokens: () => attempt(() => JSON.parse(web().getItem(key)!) as Tokens | null) ?? memory,
    setTokens(tokens) {
      memory = tokens;
      // Refused (quota, privacy modes): a stale copy must not win over the one in memory.
      attempt(
        () => web().setItem(key, JSON.stringify(tokens)),
        () => web().removeItem(key),
      );
    },
  };
}

/** Options of {@link cookieTokenStorage}. */
export interface CookieStorageOptions {
  /** Cookie name. Default `sitekit_tokens`. */
  name?: string;
  /** Returns the `Cookie` string to read (default `document.cookie`; on a server, the request's header). */
  read?: () => string | null | undefined;
  /** Receives one `Set-Cookie` string (default: assigns `document.cookie`; on a server, append it to the response). */
  write?: (setCookie: string) => void;
  /** Attributes appended to the cookie. Default `Path=/; Max-Age=31536000; SameSite=Lax; Secure`. */
  attributes?: string;
}

/**
 * Keeps tokens in a cookie, through cookie strings: `document.cookie` by default, or a request's
 * `Cookie` header and a response's `Set-Cookie` on a server (SSR). After a write, the written
 * tokens are the ones read, since a server's request header does not change.
 *
 * @example
 * ```ts
 * // Next.js route handler
 * cookieTokenStorage({ read: () => req.headers.get('cookie'), write: (c) => res.headers.append('Set-Cookie', c) });
 * ```
 */
export function cookieTokenStorage(options: CookieStorageOptions = {}): TokenStorage {
  const {
    name = 'sitekit_tokens',
    read = () => document.cookie,
    write = (cookie) => void (document.cookie = cookie),
    attributes = 'Path=/; Max-Age=31536000; SameSite=Lax; Secure',
  } = options;
  let written: Tokens | undefined;
  return {
    getTokens: () =>
      written ||
      // No document, no such cookie, percent-garbage or JSON-garbage: null.
      (attempt(() => {
        // Stryker disable next-line StringLiteral: any text without `<name>=` gives null, as '' does
        const part = String(read() ?? '')
          .split(';')
          .find((pair) => pair.slice(0, pair.indexOf('=')).trim() == name)!;
        return JSON.parse(decodeURIComponent(part.slice(part.indexOf('=') + 1).trim())) as Tokens | null;
      }) ??
        null),
    setTokens(tokens) {
      written = tokens;
      // Without a document the tokens stay in memory.
      attempt(() => write(`${name}=${encodeURIComponent(JSON.stringify(tokens))}; ${attributes}`));
    },
  };
}
