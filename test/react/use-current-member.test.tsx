// @vitest-environment jsdom
/**
 * useCurrentMember against a local site: null for visitors without a request, the member once
 * signed in, refreshed on token changes, and the request aborted when the component unmounts
 * (or when StrictMode unmounts it once on mount).
 */
import { act, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { useAuth, useCurrentMember } from '../../src/react/index.js';
import { renderHookWithClient } from './render.js';
import { PASSWORD, startSite, type Site } from './site-server.js';

let site: Site;
let release = () => {};
beforeAll(async () => (site = await startSite()));
afterAll(() => site.close());
afterEach(() => {
  release();
  vi.restoreAllMocks();
});

const memberRequests = () => site.log.filter((r) => r.path === '/members/v1/members/my');

describe('useCurrentMember', () => {
  it('is null for a visitor, without asking the server', () => {
    const before = memberRequests().length;
    const { result } = renderHookWithClient(useCurrentMember, site.client());
    expect(result.current).toMatchObject({ member: null, loading: false, error: null });
    expect(memberRequests().length).toBe(before);
  });

  it('fetches the member on sign-in and forgets them on logout', async () => {
    const client = site.client();
    const { result } = renderHookWithClient(() => ({ auth: useAuth(), current: useCurrentMember() }), client);
    await act(() => result.current.auth.login({ email: 'ada@example.com', password: PASSWORD }));
    expect(result.current.current.loading).toBe(true);
    await waitFor(() => expect(result.current.current.loading).toBe(false));
    expect(result.current.current.member).toMatchObject({ _id: 'member-ada', loginEmail: 'ada@example.com', profile: { nickname: 'Ada' } });
    await act(() => result.current.auth.logout({ redirect: false }));
    expect(result.current.current).toMatchObject({ member: null, loading: false });
  });

  it('aborts the request when the component unmounts, and reports nothing', async () => {
    const errors = vi.spyOn(console, 'error');
    const client = site.client();
    await client.auth.getMemberTokensSilently();
    release = site.hold('/members/v1/members/my');
    const before = memberRequests().length;
    const { result, unmount } = renderHookWithClient(useCurrentMember, client, { strict: false });
    await waitFor(() => expect(memberRequests().length).toBe(before + 1));
    expect(result.current).toMatchObject({ member: undefined, loading: true });
    unmount();
    await waitFor(() => expect(memberRequests().at(-1)!.aborted).toBe(true));
    release();
    expect(errors).not.toHaveBeenCalled();
  });

  it('under StrictMode, the double mount leaves one live request, whose answer is shown', async () => {
    const client = site.client();
    await client.auth.getMemberTokensSilently();
    const before = memberRequests().length;
    const { result } = renderHookWithClient(useCurrentMember, client, { strict: true });
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.member?._id).toBe('member-ada');
    // The first mount's request is aborted before it is sent (or, sent, is aborted).
    const live = memberRequests().slice(before).filter((request) => !request.aborted);
    expect(live).toHaveLength(1);
  });

  it('fetches again when asked to', async () => {
    const client = site.client();
    await client.auth.getMemberTokensSilently();
    const { result } = renderHookWithClient(useCurrentMember, client);
    await waitFor(() => expect(result.current.member).toBeTruthy());
    const before = memberRequests().length;
    act(() => result.current.refresh());
    expect(result.current.loading).toBe(true);
    expect(result.current.member?._id).toBe('member-ada');
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(memberRequests().length).toBe(before + 1);
  });

  it('reports a failed fetch in error', async () => {
    const client = site.client();
    const now = Math.floor(Date.now() / 1000);
    // Member tokens the site does not know: the member call is refused.
    client.auth.setTokens({ accessToken: { value: 'forged', expiresAt: now + 3600 }, refreshToken: { value: 'forged-refresh', role: 'member' } });
    const { result } = renderHookWithClient(useCurrentMember, client);
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current).toMatchObject({ member: undefined, error: { name: 'ApplicationError', status: 403 } });
  });
});
