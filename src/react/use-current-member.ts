/**
 * `useCurrentMember()`: the signed-in member's profile, fetched when a member's tokens appear or
 * change, `null` for visitors without any request, the request aborted on unmount.
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { Member, SiteKitError } from '../index.js';
import { authStore, requireOAuth } from './auth-store.js';
import { useSiteKitContext } from './context.js';

/** What {@link useCurrentMember} returns. */
export interface CurrentMemberState {
  /**
   * The signed-in member; `null` for a visitor (or signed out); `undefined` until the first
   * answer for this member arrives (or when it failed).
   */
  member: Member | null | undefined;
  /** True while the member is being fetched. */
  loading: boolean;
  /** Why the last fetch failed, or `null`. */
  error: SiteKitError | null;
  /** Fetches the member again (e.g. after updating the profile). */
  refresh(): void;
}

/** The fetched state, tagged with the tokens it was fetched for. */
interface Fetched {
  session: string;
  member: Member | undefined;
  loading: boolean;
  error: SiteKitError | null;
}

/**
 * The member the provider's client is signed in as, refreshed whenever its tokens change.
 *
 * @example
 * ```tsx
 * function Greeting() {
 *   const { member, loading } = useCurrentMember();
 *   if (loading && !member) return <Spinner />;
 *   return <p>{member ? `Hello ${member.profile?.nickname}` : 'Hello, visitor'}</p>;
 * }
 * ```
 */
export function useCurrentMember(): CurrentMemberState {
  const { client } = useSiteKitContext('useCurrentMember');
  const store = authStore(requireOAuth(client.auth, 'useCurrentMember'));
  const { loggedIn, tokens } = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  // A member's session is named by its refresh token: a new one (sign-in, rotation) means fetch again.
  const session = loggedIn && tokens ? tokens.refreshToken.value : null;
  const [fetched, setFetched] = useState<Fetched | null>(null);
  const [requested, setRequested] = useState(0);
  const refresh = useCallback(() => setRequested((count) => count + 1), []);

  useEffect(() => {
    if (session === null) {
      // Signed out: the next member starts from nothing, not from this one.
      setFetched(null);
      return;
    }
    const controller = new AbortController();
    // The previous member stays visible while the same browser session refreshes it.
    setFetched((previous) => ({ session, member: previous?.member, loading: true, error: null }));
    client.members.getCurrentMember({ signal: controller.signal }).then(
      (member) => controller.signal.aborted || setFetched({ session, member, loading: false, error: null }),
      (error: SiteKitError) => controller.signal.aborted || setFetched({ session, member: undefined, loading: false, error }),
    );
    return () => controller.abort();
  }, [client, session, requested]);

  if (session === null) return { member: null, loading: false, error: null, refresh };
  // Rendered before the effect has started the fetch for this session (first render, server render).
  if (!fetched) return { member: undefined, loading: true, error: null, refresh };
  return { member: fetched.member, loading: fetched.loading || fetched.session !== session, error: fetched.error, refresh };
}
