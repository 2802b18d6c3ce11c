/** Site: the signed-in member's profile, nickname and slug, and a password change. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { Member, OAuthAuth } from 'sitekit';
import { mutationOptions, queryOptions, useAuth, useClient, useCurrentMember } from 'sitekit/react';
import { Link } from '../app/router.js';
import { useSessionCheck } from '../app/session-restorer.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { formatDateTime } from '../ui/format.js';
import { FormFooter } from '../ui/form-status.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { EmptyState, Loading } from '../ui/states.js';

/** The member's own page. */
export function ProfilePage() {
  const { loggedIn } = useAuth();
  const checking = useSessionCheck();
  const { member, loading, error, refresh } = useCurrentMember();
  const account = useAccount(loggedIn);
  if (!loggedIn) {
    if (checking) return <Loading label="Checking your session…" />;
    return (
      <>
        <PageHeader title="Profile" />
        <EmptyState title="You are browsing as a visitor">
          <span>
            <Link to="/site/sign-in?returnTo=/site/profile">Sign in</Link> or <Link to="/site/register">create an account</Link> to have a profile.
          </span>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Profile" description="Your member record on the demo site." />
      {error && <ErrorNotice title="Could not load your profile" error={error} />}
      {loading && !member && <Loading label="Loading your profile…" />}
      {member && (
        <div className="grid-2">
          <section className="card" aria-labelledby="account-title" data-testid="profile">
            <h2 id="account-title">Account</h2>
            <QueryView query={account} loading="Loading your account…" errorTitle="Could not load your account" isEmpty={() => false} emptyTitle="">
              {(full) => (
                <dl className="facts">
                  <dt>Email</dt>
                  <dd data-testid="profile-email">{full.loginEmail ?? '—'}</dd>
                  <dt>Verified</dt>
                  <dd>{full.loginEmailVerified ? 'Yes' : 'No'}</dd>
                  <dt>Status</dt>
                  <dd>
                    <span className="badge">{full.status?.toLowerCase() ?? 'unknown'}</span>
                  </dd>
                  <dt>Member ID</dt>
                  <dd className="mono">{full._id}</dd>
                  <dt>Joined</dt>
                  <dd>{formatDateTime(full._createdDate)}</dd>
                </dl>
              )}
            </QueryView>
          </section>
          <ProfileForm member={member} onSaved={refresh} />
          <PasswordForm />
        </div>
      )}
    </>
  );
}

/**
 * The member's own record with every field set (`useCurrentMember` reads the public fields, which
 * leave out the login email). The role change that ends a session refreshes every site query.
 */
function useAccount(loggedIn: boolean) {
  const client = useClient<OAuthAuth>();
  return useQuery({ ...queryOptions(client, (c, { signal }) => c.members.getCurrentMember({ fieldsets: ['FULL'], signal })), enabled: loggedIn });
}

/** What the public profile form changes. */
interface ProfileChanges {
  memberId: string;
  nickname?: string;
  slug?: string;
}

function ProfileForm({ member, onSaved }: { member: Member; onSaved(): void }) {
  const client = useClient<OAuthAuth>();
  const [nickname, setNickname] = useState(member.profile?.nickname ?? '');
  const [slug, setSlug] = useState(member.profile?.slug ?? '');
  useEffect(() => {
    setNickname(member.profile?.nickname ?? '');
    setSlug(member.profile?.slug ?? '');
  }, [member]);
  // A member updates only itself: the nickname through its member record, the slug through its
  // own call. Every member query refreshes afterwards.
  const save = useMutation({
    ...mutationOptions(
      client,
      async (c, changes: ProfileChanges) => {
        if (changes.nickname !== undefined) await c.members.updateMember(changes.memberId, { profile: { nickname: changes.nickname } });
        if (changes.slug !== undefined) await c.members.updateCurrentMemberSlug(changes.slug);
      },
      { invalidates: [['members']] },
    ),
    onSuccess: onSaved,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      memberId: member._id ?? '',
      ...(nickname !== (member.profile?.nickname ?? '') ? { nickname } : {}),
      ...(slug !== (member.profile?.slug ?? '') ? { slug } : {}),
    });
  };
  return (
    <section className="card" aria-labelledby="public-title">
      <h2 id="public-title">Public profile</h2>
      <form className="stack" onSubmit={submit}>
        <label className="field">
          Nickname
          <input value={nickname} onChange={(event) => setNickname(event.target.value)} />
        </label>
        <label className="field">
          Slug <span className="hint">the end of your profile page's address; unique on the site</span>
          <input value={slug} onChange={(event) => setSlug(event.target.value)} pattern="[a-z0-9-]+" title="Lower-case letters, digits and dashes" />
        </label>
        <FormFooter mutation={save} errorTitle="Could not save your profile" successText="Profile saved." submitLabel="Save profile" pendingLabel="Saving…" />
      </form>
    </section>
  );
}

function PasswordForm() {
  const client = useClient<OAuthAuth>();
  const [password, setPassword] = useState('');
  const change = useMutation({ mutationFn: (newPassword: string) => client.auth.changePassword(newPassword), onSuccess: () => setPassword('') });
  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          change.mutate(password);
        }}
      >
        <label className="field">
          New password
          <input type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} required minLength={4} />
        </label>
        <FormFooter mutation={change} errorTitle="Could not change the password" successText="Password changed." submitLabel="Change password" pendingLabel="Changing…" submitClassName="secondary" />
      </form>
    </section>
  );
}
