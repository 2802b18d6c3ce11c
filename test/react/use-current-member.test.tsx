// @vitest-environment jsdom
/**
 * useCurrentMember against the emulator: null for visitors without a request, the member once
 * signed in, gone on logout, the request aborted when the component unmounts (or when StrictMode
 * unmounts it once on mount), refreshed on demand, failures in `error`.
 */
import { act, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isNetworkError, RequestError } from '../../src/index.js';
import { useAuth, useCurrentMember } from '../../src/react/index.js';
import { startEmulatorSite, type EmulatorSite } from './emulator-site.js';
import { renderHookWithClient } from './render.js';

const PASSWORD = 'correct horse battery';
const GRACE = 'grace@react.test';

let site: EmulatorSite;
let release = () => {};
beforeAll(async () => {
  site = await startEmulatorSite();
  await site.client().auth.register({ email: GRACE, password: PASSWORD, profile: { nickname: 'Grace' } });
});
afterAll(() => site.close());
afterEach(() => {
  release();
  vi.restoreAllMocks();
});

const memberRequests = () => site.sent.filter((r) => r.path === '/members/v1/members/my');

describe('useCurrentMember', () => {
  it('is null for a visitor, without asking the server', () => {
    const before = memberRequests().length;
    const { result } = renderHookWithClient(useCurrentMember, site.client());
    expect(result.current).toMatchObject({ member: null, loading: false, error: null });
    expect(memberRequests().length).toBe(before);
  });

  it('fetches the member on sign-in and forgets them on logout', async () => {
    const { result } = renderHookWithClient(() => ({ auth: useAuth(), current: useCurrentMember() }), site.client());
    await act(() => result.current.auth.login({ email: GRACE, password: PASSWORD }, { redirectUri: site.redirectUri }));
    expect(result.current.current.loading).toBe(true);
    await waitFor(() => expect(result.current.current.loading).toBe(false));
    expect(result.current.current.member).toMatchObject({ _id: expect.any(String), profile: { nickname: 'Grace' } });
    await act(() => result.current.auth.logout({ redirect: false }));
    expect(result.current.current).toMatchObject({ member: null, loading: false });
  });

  it('aborts the request when the component unmounts, and reports nothing', async () => {
    const errors = vi.spyOn(console, 'error');
    const client = await site.memberClient(GRACE, PASSWORD);
    release = site.hold('/members/v1/members/my');
    const before = memberRequests().length;
    const { result, unmount } = renderHookWithClient(useCurrentMember, client, { strict: false });
    await waitFor(() => expect(memberRequests().length).toBe(before + 1));
    expect(result.current).toMatchObject({ member: undefined, loading: true });
    unmount();
    expect(memberRequests().at(-1)!.aborted).toBe(true);
    expect(errors).not.toHaveBeenCalled();
  });

  it('under StrictMode, the double mount leaves one live request, whose answer is shown', async () => {
    const client = await site.memberClient(GRACE, PASSWORD);
    const before = memberRequests().length;
    const { result } = renderHookWithClient(useCurrentMember, client, { strict: true });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.member?.profile?.nickname).toBe('Grace');
    // The first mount's request is aborted (before it is sent, or in flight).
    expect(
      memberRequests()
        .slice(before)
        .filter((request) => !request.aborted),
    ).toHaveLength(1);
  });

  it('fetches again when asked to, showing the member meanwhile', async () => {
    const client = await site.memberClient(GRACE, PASSWORD);
    const { result } = renderHookWithClient(useCurrentMember, client);
    await waitFor(() => expect(result.current.member).toBeTruthy());
    const before = memberRequests().length;
    act(() => result.current.refresh());
    expect(result.current.loading).toBe(true);
    expect(result.current.member?.profile?.nickname).toBe('Grace');
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(memberRequests().length).toBe(before + 1);
  });

  it('fetches the fieldsets asked for, again when they change and not when only the array is new', async () => {
    const client = await site.memberClient(GRACE, PASSWORD);
    let options: { fieldsets?: ('PUBLIC' | 'FULL')[] } = { fieldsets: ['PUBLIC'] };
    const { result, rerender } = renderHookWithClient(() => useCurrentMember(options), client, { strict: false });
    await waitFor(() => expect(result.current.member).toBeTruthy());
    expect(result.current.member!.loginEmail).toBeUndefined();
    const before = memberRequests().length;
    options = { fieldsets: ['PUBLIC'] };
    rerender();
    expect(result.current.loading).toBe(false);
    options = { fieldsets: ['FULL'] };
    rerender();
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.member).toMatchObject({ loginEmail: GRACE, profile: { nickname: 'Grace' } });
    expect(memberRequests().length).toBe(before + 1);
  });

  it('refuses fieldsets that are not a list of names, with a RequestError', () => {
    // React logs what a render throws (React 18 to the console, React 19 as a window error): kept out of the test output.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const quiet = (event: ErrorEvent) => event.preventDefault();
    window.addEventListener('error', quiet);
    try {
      expect(() => renderHookWithClient(() => useCurrentMember({ fieldsets: 'FULL' as never }), site.client())).toThrow(
        RequestError,
      );
    } finally {
      window.removeEventListener('error', quiet);
    }
  });

  it('reports a failed fetch in error', async () => {
    const client = await site.memberClient(GRACE, PASSWORD);
    release = site.fail('/members/v1/members/my');
    const { result } = renderHookWithClient(useCurrentMember, client);
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.member).toBeUndefined();
    expect(isNetworkError(result.current.error)).toBe(true);
  });

  it('shows a visitor once the member tokens are refused (the client continues as a visitor)', async () => {
    const client = site.client();
    const now = Math.floor(Date.now() / 1000);
    client.auth.setTokens({
      accessToken: { value: 'forged', expiresAt: now + 3600 },
      refreshToken: { value: 'forged-refresh', role: 'member' },
    });
    const { result } = renderHookWithClient(useCurrentMember, client);
    await waitFor(() => expect(result.current.member).toBeNull());
    expect(client.auth.getTokens().refreshToken.role).toBe('visitor');
  });
});
