// @vitest-environment jsdom
/** SiteKitProvider and useClient: one client for the tree, never recreated; clear errors outside a provider. */
import { render, renderHook } from '@testing-library/react';
import { version } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiKeyStrategy, createClient, isRequestError, OAuthStrategy } from '../../src/index.js';
import { SiteKitProvider, useAuth, useClient, useCurrentMember, useUpload } from '../../src/react/index.js';
import { expectedReactMajor, renderHookWithClient } from './render.js';

const swallow = (event: ErrorEvent) => event.preventDefault();
afterEach(() => {
  vi.restoreAllMocks();
  window.removeEventListener('error', swallow);
});

/**
 * Expected render errors stay out of the output: React logs them (console.error), and React 18
 * also rethrows them inside a DOM event, which jsdom reports unless the event is cancelled.
 */
function silenceRenderErrors() {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  window.addEventListener('error', swallow);
}

/** Renders a hook outside any provider and returns what it threw. */
function errorOutsideProvider(hook: () => unknown): unknown {
  silenceRenderErrors();
  try {
    renderHook(hook);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('SiteKitProvider and useClient', () => {
  it(`runs against React ${expectedReactMajor}`, () => {
    expect(version.split('.')[0]).toBe(expectedReactMajor);
  });

  it('gives every hook the same client object, whatever re-renders', () => {
    const client = createClient({ auth: OAuthStrategy({ clientId: 'c' }) });
    const seen = new Set<unknown>();
    const { rerender } = renderHookWithClient(() => seen.add(useClient()), client);
    rerender();
    rerender();
    expect([...seen]).toEqual([client]);
  });

  it('makes each hook used outside a provider throw a RequestError naming the hook', () => {
    for (const [name, hook] of [
      ['useClient', useClient],
      ['useAuth', useAuth],
      ['useCurrentMember', useCurrentMember],
      ['useUpload', useUpload],
    ] as const) {
      const error = errorOutsideProvider(hook);
      expect(isRequestError(error), name).toBe(true);
      expect((error as Error).message).toBe(`${name} must be used inside <SiteKitProvider client={...}>`);
    }
  });

  it('rejects something that is not a client', () => {
    silenceRenderErrors();
    expect(() => render(<SiteKitProvider client={{} as never} />)).toThrow(
      'SiteKitProvider: client must be a client made by createClient',
    );
  });

  it('says that the sign-in hooks need an OAuth client when given an API-key client', () => {
    const client = createClient({ auth: ApiKeyStrategy({ apiKey: 'key', siteId: 'site' }) });
    silenceRenderErrors();
    for (const hook of [useAuth, useCurrentMember] as (() => unknown)[]) {
      expect(() => renderHookWithClient(hook, client)).toThrow(/needs a client made with OAuthStrategy/);
    }
    // Uploads work with any client.
    expect(renderHookWithClient(useUpload, client).result.current.status).toBe('idle');
  });
});
