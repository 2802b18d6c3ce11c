/** Rendering under a SiteKitProvider (in StrictMode unless told otherwise), for the React tests. */
import { render, type RenderOptions } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import type { Client } from '../../src/index.js';
import { SiteKitProvider, type OAuthDataStorage } from '../../src/react/index.js';

export interface ProviderOptions {
  strict?: boolean;
  navigate?: (url: string) => void;
  oauthDataStorage?: OAuthDataStorage;
  /** Wraps the provider (e.g. a QueryClientProvider). */
  outer?: (children: ReactNode) => ReactNode;
}

/** The provider (and StrictMode) around `children`. */
export function providerWrapper(client: Client, { strict = true, navigate, oauthDataStorage, outer = (children) => children }: ProviderOptions = {}) {
  return function Wrapper({ children }: { children?: ReactNode }) {
    const tree = outer(
      <SiteKitProvider client={client} navigate={navigate} oauthDataStorage={oauthDataStorage}>
        {children}
      </SiteKitProvider>,
    );
    return strict ? <StrictMode>{tree}</StrictMode> : <>{tree}</>;
  };
}

/** Renders `ui` under a provider of `client`. */
export function renderWithClient(ui: ReactNode, client: Client, options: ProviderOptions & Omit<RenderOptions, 'wrapper'> = {}) {
  const { strict, navigate, oauthDataStorage, outer, ...renderOptions } = options;
  return render(ui, { ...renderOptions, wrapper: providerWrapper(client, { strict, navigate, oauthDataStorage, outer }) });
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
