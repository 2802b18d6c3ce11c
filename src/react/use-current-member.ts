/**
 * `useCurrentMember()`: the signed-in member's profile, fetched when a member's tokens appear or
 * change, `null` for visitors without any request, the request aborted on unmount.
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { RequestError, type Member, type MemberFieldset, type SiteKitError } from '../index.js';
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

/** Options of {@link useCurrentMember}. */
export interface CurrentMemberOptions {
  /**
   * The sets of fields to fetch (default `PUBLIC`, which leaves out e.g. the login email; `FULL`
   * has every field the member may read of itself).
   */
  fieldsets?: readonly MemberFieldset[];
}

/** The fetched state, tagged with the tokens and fieldsets it was fetched for. */
interface Fetched {
  session: string;
  member: Member | undefined;
  loading: boolean;
  error: SiteKitError | null;
}

/**
 * The member the provider's client is signed in as, refreshed whenever its tokens (or the
 * fieldsets asked for) change.
 *
 * @example
 * ```tsx
 * function Greeting() {
 *   const { member, loading } = useCurrentMember();
 *   if (loading && !member) return <Spinner />;
 *   return <p>{member ? `Hello ${member.profile?.nickname}` : 'Hello, visitor'}</p>;
 * }
 * // With every field, e.g. the login email:
 * const { member } = useCurrentMember({ fieldsets: ['FULL'] });
 * ```
 */
export function useCurrentMember(options: CurrentMemberOptions = {}): CurrentMemberState {
  const { client } = useSiteKitContext('useCurrentMember');
  const store = authStore(requireOAuth(client.auth, 'useCurrentMember'));
  const { loggedIn, tokens } = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  // Compared by value: a new array of the same fieldsets on every render must not fetch again.
  const fieldsets = fieldsetsOf(options);
  // A member's session is named by its refresh token (a new one, at sign-in or rotation, means
  // fetch again) and by what is asked of it.
  const session = loggedIn && tokens ? `${tokens.refreshToken.value} ${fieldsets}` : null;
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
    const request = fieldsets ? { fieldsets: fieldsets.split(',') as MemberFieldset[] } : {};
    client.members.getCurrentMember({ ...request, signal: controller.signal }).then(
      ({ member }) => controller.signal.aborted || setFetched({ session, member, loading: false, error: null }),
      (error: SiteKitError) =>
        controller.signal.aborted || setFetched({ session, member: undefined, loading: false, error }),
    );
    return () => controller.abort();
  }, [client, session, fieldsets, requested]);

  if (session === null) return { member: null, loading: false, error: null, refresh };
  // Rendered before the effect has started the fetch for this session (first render, server render).
  if (!fetched) return { member: undefined, loading: true, error: null, refresh };
  return {
    member: fetched.member,
    loading: fetched.loading || fetched.session !== session,
    error: fetched.error,
    refresh,
  };
}

/** The fieldsets asked for, as one comparable string (`''` for the default); RequestError for anything but a list of names. */
function fieldsetsOf(options: CurrentMemberOptions): string {
  const { fieldsets } = options ?? {};
  if (fieldsets === undefined) return '';
  if (
    !Array.isArray(fieldsets) ||
    !fieldsets.every((fieldset) => typeof fieldset === 'string' && fieldset !== '' && !fieldset.includes(','))
  ) {
    throw new RequestError(
      "useCurrentMember: fieldsets must be a list of fieldset names, e.g. { fieldsets: ['FULL'] }",
      { field: 'fieldsets' },
    );
  }
  return fieldsets.join(',');
}
