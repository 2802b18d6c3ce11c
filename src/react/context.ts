/**
 * The provider that hands one sitekit client to every hook below it, and `useClient()`.
 * Creating the context touches neither `window` nor `document`, so this module can be imported
 * during server rendering.
 */
import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';
import { RequestError, type AuthStrategy, type Client } from '../index.js';

/** Where the redirect sign-in keeps its OAuth data between leaving for the hosted page and coming back. */
export interface OAuthDataStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Props of {@link SiteKitProvider}. */
export interface SiteKitProviderProps<A extends AuthStrategy = AuthStrategy> {
  /**
   * The client the hooks below use. Create it once, outside the component that renders the
   * provider (or in a `useState` initialiser): the provider never creates or copies one.
   */
  client: Client<A>;
  /**
   * Leaves the app for another page (the hosted sign-in and logout pages). Default:
   * `window.location.assign(url)`. Routers or tests may pass their own.
   */
  navigate?: (url: string) => void;
  /**
   * Where `loginWithRedirect` keeps its PKCE verifier and state until `handleRedirectCallback`
   * reads them. Default: `window.sessionStorage` (per tab, cleared with the tab).
   */
  oauthDataStorage?: OAuthDataStorage;
  children?: ReactNode;
}

/** What the provider shares: the client and the browser plumbing of the redirect flow. */
export interface SiteKitContextValue {
  client: Client;
  navigate: (url: string) => void;
  oauthDataStorage: () => OAuthDataStorage;
}

// Read only when a redirect happens, never at import or during a server render.
const browserNavigate = (url: string) => window.location.assign(url);
const browserSessionStorage = () => window.sessionStorage;

const SiteKitContext = createContext<SiteKitContextValue | null>(null);
SiteKitContext.displayName = 'SiteKitContext';

/**
 * Makes `client` available to the sitekit hooks of every component below it.
 *
 * @example
 * ```tsx
 * const client = createClient({ auth: OAuthStrategy({ clientId, storage: localStorageTokenStorage() }) });
 *
 * createRoot(root).render(
 *   <SiteKitProvider client={client}>
 *     <App />
 *   </SiteKitProvider>,
 * );
 * ```
 */
export function SiteKitProvider<A extends AuthStrategy>({
  client,
  navigate,
  oauthDataStorage,
  children,
}: SiteKitProviderProps<A>): ReactNode {
  if (typeof client !== 'object' || client === null || typeof client.auth !== 'object') {
    throw new RequestError('SiteKitProvider: client must be a client made by createClient', { field: 'client' });
  }
  const value = useMemo<SiteKitContextValue>(
    () => ({
      client: client as Client,
      navigate: navigate ?? browserNavigate,
      oauthDataStorage: oauthDataStorage ? () => oauthDataStorage : browserSessionStorage,
    }),
    [client, navigate, oauthDataStorage],
  );
  return createElement(SiteKitContext.Provider, { value }, children);
}

/** @internal The provider's value; a clear error outside a provider, naming the hook. */
export function useSiteKitContext(hook: string): SiteKitContextValue {
  const value = useContext(SiteKitContext);
  if (!value)
    throw new RequestError(`${hook} must be used inside <SiteKitProvider client={...}>`, { field: 'SiteKitProvider' });
  return value;
}

/**
 * The client given to the nearest {@link SiteKitProvider}: always the same object, whatever
 * re-renders. Pass the strategy type to get its methods typed.
 *
 * @example
 * ```tsx
 * const client = useClient<OAuthAuth>();
 * const onClick = () => client.items.remove('Movies', id);
 * ```
 */
export function useClient<A extends AuthStrategy = AuthStrategy>(): Client<A> {
  return useSiteKitContext('useClient').client as Client<A>;
}
