// @vitest-environment jsdom
/**
 * useAuth against the emulator: every subscriber re-renders on a token change, direct login
 * (through the hosted page in a hidden frame), registration with email verification, the
 * redirect flow (StrictMode runs the callback effect twice: one code exchange), silent sign-in,
 * logout, pending and error states.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAuthError, type Tokens } from '../../src/index.js';
import { OAUTH_DATA_KEY, useAuth, type RedirectCallbackResult } from '../../src/react/index.js';
import { startEmulatorSite, type EmulatorSite } from './emulator-site.js';
import { memoryStorage, renderHookWithClient, renderWithClient } from './render.js';

const PASSWORD = 'correct horse battery';
const ADA = 'ada@react.test';

let site: EmulatorSite;
beforeAll(async () => {
  site = await startEmulatorSite();
  await site.client().auth.register({ email: ADA, password: PASSWORD });
});
afterAll(() => site.close());
afterEach(() => vi.restoreAllMocks());

const now = () => Math.floor(Date.now() / 1000);
const memberTokens = (value: string): Tokens => ({
  accessToken: { value, expiresAt: now() + 3600 },
  refreshToken: { value: `${value}-refresh`, role: 'member' },
});
const tokenGrants = () => site.sent.filter((r) => r.path === '/oauth2/token').length;

/** Shows the role it reads, and counts its renders. */
function Role({ name, renders }: { name: string; renders: Record<string, number> }) {
  const { role } = useAuth();
  renders[name] = (renders[name] ?? 0) + 1;
  return <p data-testid={name}>{role}</p>;
}

describe('useAuth state', () => {
  it('re-renders every subscriber when the tokens change, and only then', () => {
    const client = site.client();
    const renders: Record<string, number> = {};
    renderWithClient(
      <>
        <Role name="header" renders={renders} />
        <Role name="menu" renders={renders} />
      </>,
      client,
      { strict: false },
    );
    expect(screen.getByTestId('header').textContent).toBe('none');
    const before = { ...renders };
    act(() => client.auth.setTokens(memberTokens('a')));
    expect(screen.getByTestId('header').textContent).toBe('member');
    expect(screen.getByTestId('menu').textContent).toBe('member');
    expect(renders.header).toBe(before.header! + 1);
    expect(renders.menu).toBe(before.menu! + 1);
    // The same tokens again (e.g. written back by storage) change nothing.
    act(() => client.auth.setTokens(memberTokens('a')));
    expect(renders.header).toBe(before.header! + 1);
  });

  it('reads tokens written by the client itself (a visitor grant on the first call)', async () => {
    const client = site.client();
    const { result } = renderHookWithClient(useAuth, client);
    expect(result.current).toMatchObject({ loggedIn: false, role: 'none', tokens: null });
    await act(() => client.items.query('Movies').limit(1).find());
    expect(result.current.role).toBe('visitor');
    expect(result.current.tokens?.accessToken.value).toBeTruthy();
  });
});

describe('direct login', () => {
  it('signs in: pending while running, member tokens once it resolves', async () => {
    const client = site.client();
    const { result } = renderHookWithClient(useAuth, client);
    let outcome: Promise<unknown> | undefined;
    act(
      () =>
        void (outcome = result.current.login({ email: ADA, password: PASSWORD }, { redirectUri: site.redirectUri })),
    );
    expect(result.current.pending).toBe('login');
    await act(async () => void (await outcome));
    expect(await outcome).toMatchObject({ loginState: 'SUCCESS' });
    expect(result.current).toMatchObject({ pending: null, error: null, loggedIn: true, role: 'member' });
    expect((await client.members.getCurrentMember({ fieldsets: ['FULL'] })).member?.loginEmail).toBe(ADA);
  });

  it('reports a wrong password in error, and stays signed out', async () => {
    const { result } = renderHookWithClient(useAuth, site.client());
    const outcome = await act(() => result.current.login({ email: ADA, password: 'wrong password' }));
    expect(outcome).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword' });
    expect(isAuthError(result.current.error)).toBe(true);
    expect(result.current.error?.code).toBe('LOGIN_FAILURE');
    expect(result.current.error?.message).toBe((outcome as { error: string }).error);
    expect(result.current).toMatchObject({ pending: null, loggedIn: false });
  });

  it('registers, then verifies the emailed code and signs in', async () => {
    await site.configure({ emailVerificationRequired: true });
    try {
      const email = `new-${Date.now()}@react.test`;
      const { result } = renderHookWithClient(useAuth, site.client());
      const registered = await act(() =>
        result.current.register({ email, password: PASSWORD }, { redirectUri: site.redirectUri }),
      );
      expect(registered.loginState).toBe('EMAIL_VERIFICATION_REQUIRED');
      expect(result.current.loggedIn).toBe(false);
      const wrong = await act(() =>
        result.current.processVerification({ verificationCode: '000000' }).catch((e: unknown) => e),
      );
      expect(result.current.error).toBe(wrong);
      expect(result.current.error?.code).toBeTruthy();
      const verified = await act(async () =>
        result.current.processVerification(
          { verificationCode: await site.verificationCode(email) },
          { redirectUri: site.redirectUri },
        ),
      );
      expect(verified.loginState).toBe('SUCCESS');
      expect(result.current).toMatchObject({ loggedIn: true, error: null });
    } finally {
      await site.configure({ emailVerificationRequired: false });
    }
  });
});

describe('redirect login', () => {
  it('keeps the OAuth data and leaves for the hosted page; on return, one code exchange even under StrictMode', async () => {
    const storage = memoryStorage();
    const navigate = vi.fn<(url: string) => void>();
    const { result: start } = renderHookWithClient(useAuth, site.client(), { navigate, oauthDataStorage: storage });
    const callback = `${location.origin}/callback`;
    await act(() => start.current.loginWithRedirect(callback, { originalUri: `${location.origin}/account` }));
    expect(navigate).toHaveBeenCalledTimes(1);
    const authUrl = navigate.mock.calls[0]![0];
    expect(authUrl.startsWith(site.url)).toBe(true);
    expect(JSON.parse(storage.entries.get(OAUTH_DATA_KEY)!)).toMatchObject({
      redirectUri: callback,
      originalUri: `${location.origin}/account`,
    });

    // The member signs in on the hosted page, which sends the browser back with the code.
    const returnUrl = await site.signInOnHostedPage(authUrl, ADA, PASSWORD);
    expect(returnUrl).toMatch(new RegExp(`^${callback}#code=`));
    const returned = site.client();
    const grantsBefore = tokenGrants();
    let calls = 0;
    const settled: (RedirectCallbackResult | Error)[] = [];
    function Callback() {
      const auth = useAuth();
      const { handleRedirectCallback } = auth;
      useEffect(() => {
        calls++;
        handleRedirectCallback({ url: returnUrl }).then(
          (r) => settled.push(r),
          (e: Error) => settled.push(e),
        );
      }, [handleRedirectCallback]);
      return <p data-testid="role">{auth.role}</p>;
    }
    renderWithClient(<Callback />, returned, { strict: true, oauthDataStorage: storage });
    await waitFor(() => expect(screen.getByTestId('role').textContent).toBe('member'));
    await waitFor(() => expect(settled.length).toBe(calls));
    // StrictMode ran the effect twice (React 18 and 19): both calls share the one exchange.
    expect(calls).toBe(2);
    expect(tokenGrants() - grantsBefore).toBe(1);
    expect(settled).toEqual([settled[0], settled[0]]);
    expect((settled[0] as RedirectCallbackResult).originalUri).toBe(`${location.origin}/account`);
    expect(storage.entries.has(OAUTH_DATA_KEY)).toBe(false);
  });

  it('reports the hosted page refusing, and a return without a sign-in in progress', async () => {
    const storage = memoryStorage();
    const { result } = renderHookWithClient(useAuth, site.client(), { oauthDataStorage: storage });
    const refused = await act(() =>
      result.current
        .handleRedirectCallback({
          url: `${location.origin}/cb#error=access_denied&error_description=The+member+said+no`,
        })
        .catch((e: unknown) => e),
    );
    expect(refused).toMatchObject({ name: 'AuthError', code: 'ACCESS_DENIED', message: 'The member said no' });
    expect(result.current.error).toBe(refused);
    const orphan = await act(() =>
      result.current.handleRedirectCallback({ url: `${location.origin}/cb#code=c&state=s` }).catch((e: unknown) => e),
    );
    expect(orphan).toMatchObject({ code: 'NO_OAUTH_DATA' });
  });
});

describe('silent sign-in and logout', () => {
  it('signs in the member of the browser session without a visible redirect, then logs out through the hosted page', async () => {
    // A sign-in on the hosted page leaves the emulator's session cookie in this "browser".
    const navigate = vi.fn<(url: string) => void>();
    const { result: first } = renderHookWithClient(useAuth, site.client(), {
      navigate,
      oauthDataStorage: memoryStorage(),
    });
    await act(() => first.current.loginWithRedirect(`${location.origin}/callback`));
    await site.signInOnHostedPage(navigate.mock.calls[0]![0], ADA, PASSWORD);

    const client = site.client();
    const { result } = renderHookWithClient(useAuth, client, { navigate });
    await act(() => result.current.signInSilently({ redirectUri: site.redirectUri }));
    expect(result.current.role).toBe('member');
    expect((await client.members.getCurrentMember({ fieldsets: ['FULL'] })).member?.loginEmail).toBe(ADA);
    await act(() => result.current.logout({ originalUrl: `${location.origin}/` }));
    expect(result.current).toMatchObject({ role: 'none', loggedIn: false, tokens: null, pending: null });
    expect(navigate).toHaveBeenLastCalledWith(expect.stringMatching(new RegExp(`^${site.url}/`)));
  });

  it('reports a silent sign-in when the browser has no session', async () => {
    site.forgetBrowserSession();
    const { result } = renderHookWithClient(useAuth, site.client());
    const error = await act(() =>
      result.current.signInSilently({ redirectUri: site.redirectUri }).catch((e: unknown) => e),
    );
    expect(isAuthError(error)).toBe(true);
    expect(result.current).toMatchObject({ error, pending: null, loggedIn: false });
  });

  it('logs out without leaving the page when asked', async () => {
    const navigate = vi.fn<(url: string) => void>();
    const { result } = renderHookWithClient(useAuth, site.client(memberTokens('b')), { navigate });
    const { logoutUrl } = await act(() => result.current.logout({ redirect: false }));
    expect(logoutUrl.startsWith(site.url)).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
    expect(result.current.loggedIn).toBe(false);
  });
});

describe('unmounting', () => {
  it('lets an action finish after its component unmounted, without errors', async () => {
    const errors = vi.spyOn(console, 'error');
    const client = site.client();
    let pending: Promise<unknown> | undefined;
    function Form() {
      const { login } = useAuth();
      const [started, setStarted] = useState(false);
      useEffect(() => {
        if (!started) {
          setStarted(true);
          pending = login({ email: ADA, password: PASSWORD }, { redirectUri: site.redirectUri });
        }
      }, [login, started]);
      return null;
    }
    const { unmount } = renderWithClient(<Form />, client, { strict: false });
    unmount();
    await expect(pending).resolves.toMatchObject({ loginState: 'SUCCESS' });
    expect(client.auth.loggedIn()).toBe(true);
    expect(errors).not.toHaveBeenCalled();
  });
});
