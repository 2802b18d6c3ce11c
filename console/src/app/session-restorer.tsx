/**
 * Silent sign-in on load. The site client keeps its tokens in memory, as a careful site does, so
 * after a reload a member is signed in again through the hidden iframe (`prompt=none` and the
 * emulator's session cookie). A visitor without a session simply stays a visitor.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useAuth } from 'sitekit-sdk/react';
import { silentOptions } from '../site/return-urls.js';
import { useRouter } from './router.js';

/** Whether the silent sign-in of this page load is still running. */
const SessionCheckContext = createContext(false);

/** True while the console is finding out whether the visitor has a session. */
export function useSessionCheck(): boolean {
  return useContext(SessionCheckContext);
}

/** Pages that sign in by themselves: the redirect callback must not race a silent sign-in. */
const pagesWithoutSilentSignIn = new Set(['/site/callback']);

/** Runs the silent sign-in once per page load and refreshes the site's data when the role changes. */
export function SessionRestorer({ children }: { children: ReactNode }) {
  const { signInSilently, role } = useAuth();
  const { path } = useRouter();
  const queryClient = useQueryClient();
  const started = useRef(false);
  const [checking, setChecking] = useState(!pagesWithoutSilentSignIn.has(path));

  useEffect(() => {
    if (started.current || pagesWithoutSilentSignIn.has(path)) return;
    started.current = true;
    // `login_required` (no session on the emulator) is the ordinary answer for a visitor.
    signInSilently(silentOptions())
      .catch(() => undefined)
      .finally(() => setChecking(false));
  }, [signInSilently, path]);

  // What a visitor may read differs from what a member may: answers cached for one role are stale for the other.
  const previousRole = useRef(role);
  useEffect(() => {
    if (previousRole.current === role) return;
    const becameOrStoppedBeingMember = previousRole.current === 'member' || role === 'member';
    previousRole.current = role;
    if (becameOrStoppedBeingMember) void queryClient.invalidateQueries();
  }, [role, queryClient]);

  return <SessionCheckContext.Provider value={checking}>{children}</SessionCheckContext.Provider>;
}
