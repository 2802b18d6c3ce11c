/** Site: the signed-in member's profile, nickname and slug, and a password change. */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { Member, OAuthAuth } from 'sitekit-sdk';
import { mutationOptions, useAuth, useClient, useCurrentMember } from 'sitekit-sdk/react';
import { Link } from '../app/router.js';
import { useSessionCheck } from '../app/session-restorer.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { formatDateTime } from '../ui/format.js';
import { FormFooter } from '../ui/form-status.js';
import { PageHeader } from '../ui/page.js';
import { EmptyState, Loading } from '../ui/states.js';
import { NewPasswordField } from './credential-fields.js';

/** The member's own page. */
export function ProfilePage() {
  const { loggedIn } = useAuth();
  const checking = useSessionCheck();
  // Every field of the member's own record: the public ones leave out the login email.
  const { member, loading, error, refresh } = useCurrentMember({ fieldsets: ['FULL'] });
  if (!loggedIn) {
    if (checking) return <Loading label="Checking your session…" />;
    return (
      <>
        <PageHeader title="Profile" />
        <EmptyState title="You are browsing as a visitor">
          <span>
            <Link to="/site/sign-in?returnTo=/site/profile">Sign in</Link> or{' '}
            <Link to="/site/register">create an account</Link> to have a profile.
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
            <dl className="facts">
              <dt>Email</dt>
              <dd data-testid="profile-email">{member.loginEmail ?? '—'}</dd>
              <dt>Verified</dt>
              <dd>{member.loginEmailVerified ? 'Yes' : 'No'}</dd>
              <dt>Status</dt>
              <dd>
                <span className="badge">{member.status?.toLowerCase() ?? 'unknown'}</span>
              </dd>
              <dt>Member ID</dt>
              <dd className="mono">{member._id}</dd>
              <dt>Joined</dt>
              <dd>{formatDateTime(member._createdDate)}</dd>
            </dl>
          </section>
          <ProfileForm member={member} onSaved={refresh} />
          <PasswordForm />
        </div>
      )}
    </>
  );
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
        if (changes.nickname !== undefined)
          await c.members.updateMember(changes.memberId, { profile: { nickname: changes.nickname } });
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
          <input
            value={slug}
            onChange={(event) => setSlug(event.target.value)}
            pattern="[a-z0-9\-]+"
            title="Lower-case letters, digits and dashes"
          />
        </label>
        <FormFooter
          mutation={save}
          errorTitle="Could not save your profile"
          successText="Profile saved."
          submitLabel="Save profile"
          pendingLabel="Saving…"
        />
      </form>
    </section>
  );
}

function PasswordForm() {
  const client = useClient<OAuthAuth>();
  const [password, setPassword] = useState('');
  const change = useMutation({
    mutationFn: (newPassword: string) => client.auth.changePassword(newPassword),
    onSuccess: () => setPassword(''),
  });
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
        <NewPasswordField value={password} onChange={setPassword} />
        <FormFooter
          mutation={change}
          errorTitle="Could not change the password"
          successText="Password changed."
          submitLabel="Change password"
          pendingLabel="Changing…"
          submitClassName="secondary"
        />
      </form>
    </section>
  );
}
