/** Rendering under a SiteKitProvider, in StrictMode unless told otherwise, for the React tests. */
import { configure, render, renderHook, type RenderOptions } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { Client } from '../../src/index.js';
import { SiteKitProvider, type OAuthDataStorage } from '../../src/react/index.js';

// `waitFor` waits up to 5 s (default 1 s): the emulator answers slower when the machine is busy.
configure({ asyncUtilTimeout: 5000 });

export interface ProviderOptions {
  /**
   * StrictMode at the root (the default), so effects run twice on mount as in development. (A
   * StrictMode element inside a wrapper component does not make React 19 run them twice.)
   */
  strict?: boolean;
  navigate?: (url: string) => void;
  oauthDataStorage?: OAuthDataStorage;
  /** Wraps the provider (e.g. a QueryClientProvider). */
  outer?: (children: ReactNode) => ReactNode;
}

/** The provider around `children`. */
function providerWrapper(
  client: Client,
  { navigate, oauthDataStorage, outer = (children) => children }: ProviderOptions,
) {
  return function Wrapper({ children }: { children?: ReactNode }) {
    return outer(
      <SiteKitProvider client={client} navigate={navigate} oauthDataStorage={oauthDataStorage}>
        {children}
      </SiteKitProvider>,
    );
  };
}

/** Renders `ui` under a provider of `client`. */
export function renderWithClient(
  ui: ReactNode,
  client: Client,
  options: ProviderOptions & Omit<RenderOptions, 'wrapper' | 'reactStrictMode'> = {},
) {
  const { strict = true, navigate, oauthDataStorage, outer, ...renderOptions } = options;
  return render(ui, {
    ...renderOptions,
    reactStrictMode: strict,
    wrapper: providerWrapper(client, { navigate, oauthDataStorage, outer }),
  });
}

/** Renders `hook` under a provider of `client`. */
export function renderHookWithClient<R>(hook: () => R, client: Client, options: ProviderOptions = {}) {
  const { strict = true, ...provider } = options;
  return renderHook(hook, { reactStrictMode: strict, wrapper: providerWrapper(client, provider) });
}

/** Storage in memory with the shape of sessionStorage, for the redirect flow. */
export function memoryStorage(): OAuthDataStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}

/** The React major version the tests must run against in this project. */
export const expectedReactMajor = process.env.SITEKIT_REACT_MAJOR ?? '19';
