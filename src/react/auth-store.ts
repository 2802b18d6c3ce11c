/**
 * The token state of an OAuth client as an external store for `useSyncExternalStore`: one store
 * per strategy, a snapshot that stays the same object until the tokens really change (React
 * compares snapshots by identity, and the strategy builds a new empty pair on every read when
 * nothing is stored), and a subscription to the strategy's token events.
 */
import { RequestError, type AuthStrategy, type OAuthAuth, type TokenRole, type Tokens } from '../index.js';

/** The sign-in state `useAuth()` reads: who the tokens belong to, and the tokens themselves. */
export interface AuthSnapshot {
  /** True when the tokens belong to a signed-in member. */
  loggedIn: boolean;
  /** `member`, `visitor`, or `none` before the first call (or after logout). */
  role: TokenRole;
  /** The current tokens; `null` when there are none yet. */
  tokens: Tokens | null;
}

/** A store `useSyncExternalStore` can read. */
export interface AuthStore {
  subscribe(onChange: () => void): () => void;
  getSnapshot(): AuthSnapshot;
}

const stores = new WeakMap<AuthStrategy, AuthStore>();

/** True for strategies with token state (OAuthStrategy and look-alikes); false for API keys. */
export const hasTokenState = (auth: AuthStrategy): auth is OAuthAuth =>
  typeof (auth as Partial<OAuthAuth>).getTokens === 'function' &&
  typeof (auth as Partial<OAuthAuth>).subscribe === 'function';

/** The OAuth strategy of `auth`, or a clear error naming the hook for API-key clients. */
export function requireOAuth(auth: AuthStrategy, hook: string): OAuthAuth {
  if (!hasTokenState(auth))
    throw new RequestError(`${hook} needs a client made with OAuthStrategy (this one has no sign-in state)`, {
      field: 'auth',
    });
  return auth;
}

/** Whether two token pairs are the same tokens (storage adapters may return fresh copies). */
const sameTokens = (a: Tokens | null, b: Tokens | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.accessToken.value === b.accessToken.value &&
    a.accessToken.expiresAt === b.accessToken.expiresAt &&
    a.refreshToken.value === b.refreshToken.value &&
    a.refreshToken.role === b.refreshToken.role);

/** The token pair as `useAuth` shows it: `null` for the empty pair of a client with no tokens yet. */
const presentTokens = (tokens: Tokens): Tokens | null =>
  tokens.accessToken.value || tokens.refreshToken.value ? tokens : null;

/** The store of `auth`, created on first use and shared by every component that reads it. */
export function authStore(auth: OAuthAuth): AuthStore {
  let store = stores.get(auth);
  if (store) return store;
  let snapshot: AuthSnapshot | undefined;
  store = {
    subscribe(onChange) {
      const unsubscribe = auth.subscribe(() => onChange());
      // Tokens kept in localStorage change when another tab signs in or out: re-read them then.
      const window = globalThis.window;
      window?.addEventListener('storage', onChange);
      return () => {
        unsubscribe();
        window?.removeEventListener('storage', onChange);
      };
    },
    getSnapshot() {
      const tokens = presentTokens(auth.getTokens());
      if (snapshot && sameTokens(snapshot.tokens, tokens)) return snapshot;
      const role = tokens?.refreshToken.role ?? 'none';
      return (snapshot = { loggedIn: role === 'member', role, tokens });
    },
  };
  stores.set(auth, store);
  return store;
}
