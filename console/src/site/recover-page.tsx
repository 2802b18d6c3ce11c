/** Site: ask for a password reset email (it lands in the outbox, with the link to follow). */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { OAuthAuth } from 'sitekit-sdk';
import { useClient } from 'sitekit-sdk/react';
import { Link } from '../app/router.js';
import { FormFooter } from '../ui/form-status.js';
import { PageHeader } from '../ui/page.js';
import { OutboxPanel } from './outbox-panel.js';
import { resetPasswordUrl } from './return-urls.js';

/** The "forgot your password" page. */
export function RecoverPage() {
  const client = useClient<OAuthAuth>();
  const [email, setEmail] = useState('');
  const send = useMutation({
    mutationFn: (address: string) => client.auth.sendPasswordResetEmail(address, resetPasswordUrl()),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(email.trim());
  };
  return (
    <>
      <PageHeader title="Reset your password" description="We email you a link to choose a new one." />
      <div className="grid-2">
        <section className="card" aria-labelledby="recover-title">
          <h2 id="recover-title">Your email</h2>
          <form className="stack" onSubmit={submit}>
            <label className="field">
              Email
              <input
                type="email"
                autoComplete="email"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                required
              />
            </label>
            <FormFooter
              mutation={send}
              errorTitle="Could not send the email"
              successText={`If ${send.variables} belongs to a member, the email is on its way. Follow its link.`}
              submitLabel="Send the reset link"
              pendingLabel="Sending…"
              aside={<Link to="/site/sign-in">Back to sign in</Link>}
            />
          </form>
        </section>
        {send.isSuccess && <OutboxPanel address={send.variables} />}
      </div>
    </>
  );
}
