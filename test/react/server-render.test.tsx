/**
 * Server rendering (Node, no DOM): importing sitekit/react touches neither `window` nor
 * `document`, and rendering the hooks without tokens (or with a member's, e.g. from a cookie)
 * neither throws nor sends anything.
 */
import { createElement, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createClient, memoryTokenStorage, OAuthStrategy } from '../../src/index.js';

const now = () => Math.floor(Date.now() / 1000);

describe('sitekit/react on a server', () => {
  it('imports without touching window or document', async () => {
    const touched: string[] = [];
    for (const name of ['window', 'document']) {
      Object.defineProperty(globalThis, name, {
        configurable: true,
        get: () => void touched.push(name),
      });
    }
    try {
      await import('../../src/react/index.js');
    } finally {
      for (const name of ['window', 'document']) delete (globalThis as Record<string, unknown>)[name];
    }
    expect(touched).toEqual([]);
  });

  it('renders every hook without tokens, and with a member signed in, sending nothing', async () => {
    const { SiteKitProvider, useAuth, useCurrentMember, useUpload } = await import('../../src/react/index.js');
    const sent: string[] = [];
    const fetch = async (input: string | URL | Request) => {
      sent.push(String(input));
      return new Response('{}');
    };
    function Page() {
      const auth = useAuth();
      const { member, loading } = useCurrentMember();
      const { status } = useUpload();
      return createElement(
        'p',
        null,
        `${auth.role} ${auth.loggedIn} ${member === null ? 'visitor' : loading ? 'loading' : 'member'} ${status}`,
      );
    }
    const page = (storage = memoryTokenStorage()): ReactNode => {
      const client = createClient({
        auth: OAuthStrategy({ clientId: 'c', storage }),
        fetch,
        baseUrl: 'https://api.test',
      });
      return createElement(SiteKitProvider, { client }, createElement(Page));
    };
    expect(renderToString(page())).toBe('<p>none false visitor idle</p>');
    const member = memoryTokenStorage({
      accessToken: { value: 'a', expiresAt: now() + 3600 },
      refreshToken: { value: 'r', role: 'member' },
    });
    expect(renderToString(page(member))).toBe('<p>member true loading idle</p>');
    expect(sent).toEqual([]);
  });
});
