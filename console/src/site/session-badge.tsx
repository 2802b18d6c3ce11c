/** The top bar's session: visitor (with a sign-in link) or the member (with sign out). */
import { useAuth, useCurrentMember } from 'sitekit-sdk/react';
import { useSessionCheck } from '../app/session-restorer.js';
import { Link } from '../app/router.js';

/** Who is using the site view right now. */
export function SessionBadge() {
  const { loggedIn, logout, pending, error } = useAuth();
  const { member } = useCurrentMember();
  const checking = useSessionCheck();
  if (checking && !loggedIn) {
    return (
      <span className="session" data-testid="session" role="status">
        <span className="badge">Checking session…</span>
      </span>
    );
  }
  if (!loggedIn) {
    return (
      <span className="session" data-testid="session">
        <span className="badge">Visitor</span>
        <Link to="/site/sign-in" className="button small">
          Sign in
        </Link>
        <Link to="/site/register" className="button secondary small">
          Register
        </Link>
      </span>
    );
  }
  const name = member?.profile?.nickname || member?.loginEmail || 'Member';
  return (
    <span className="session" data-testid="session">
      <span className="badge badge-ok">Member</span>
      <Link to="/site/profile" data-testid="member-name">
        {name}
      </Link>
      {error && (
        <span className="badge badge-danger" role="alert">
          {error.message}
        </span>
      )}
      <button
        type="button"
        className="secondary small"
        disabled={pending === 'logout'}
        onClick={() => void logout({ originalUrl: `${window.location.origin}/` }).catch(() => undefined)}
      >
        {pending === 'logout' ? 'Signing out…' : 'Sign out'}
      </button>
    </span>
  );
}
