/** Site: the page the recovery email links to; sets the new password with the emailed token. */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { AuthError, type OAuthAuth } from 'sitekit-sdk';
import { useClient } from 'sitekit-sdk/react';
import { Link, useRouter } from '../app/router.js';
import { FormStatus, SubmitButton } from '../ui/form-status.js';
import { PageHeader } from '../ui/page.js';
import { EmptyState } from '../ui/states.js';
import { NewPasswordField } from './credential-fields.js';

/** The recovery token from the link's query (the platform names it `recoveryToken`; `token` is accepted too). */
function tokenFrom(search: URLSearchParams): string {
  return search.get('recoveryToken') ?? search.get('token') ?? '';
}

/** Choose a new password. */
export function ResetPasswordPage() {
  const client = useClient<OAuthAuth>();
  const { search } = useRouter();
  const token = tokenFrom(search);
  const [password, setPassword] = useState('');
  const recover = useMutation({
    mutationFn: async (newPassword: string) => {
      const answer = await client.auth.recover(token, { password: newPassword });
      if (answer.state !== 'SUCCESS')
        throw new AuthError(`The password was changed, but the account is ${answer.state}`, {
          code: 'LOGIN_FAILURE',
          details: answer,
        });
      return answer;
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    recover.mutate(password);
  };
  if (!token) {
    return (
      <>
        <PageHeader title="Choose a new password" />
        <EmptyState title="This link has no recovery token">
          <Link to="/site/recover">Ask for a new link</Link>
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Choose a new password" />
      <section className="card card-narrow">
        <form className="stack" onSubmit={submit}>
          <NewPasswordField value={password} onChange={setPassword} autoFocus />
          <FormStatus
            mutation={recover}
            errorTitle="Could not set the password"
            successText={
              <>
                Your password was changed. <Link to="/site/sign-in">Sign in</Link> with it.
              </>
            }
          />
          <div className="row">
            <SubmitButton pending={recover.isPending} pendingLabel="Saving…" disabled={recover.isSuccess}>
              Set password
            </SubmitButton>
          </div>
        </form>
      </section>
    </>
  );
}
