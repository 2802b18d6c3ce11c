/** The second step of a sign-up or sign-in that needs the emailed code. */
import { useState, type FormEvent } from 'react';
import { useAuth } from 'sitekit-sdk/react';
import { ErrorNotice } from '../ui/error-notice.js';
import { OutboxPanel } from './outbox-panel.js';
import { silentOptions } from './return-urls.js';

/** Props of {@link VerificationStep}. */
export interface VerificationStepProps {
  email: string;
  /** Called once the code was accepted and the member is signed in. */
  onSignedIn(): void;
  /** Called when the code was accepted but something else is still needed (e.g. owner approval). */
  onOtherOutcome(loginState: string): void;
}

/** Asks for the code the emulator "emailed", with the outbox beside it. */
export function VerificationStep({ email, onSignedIn, onOtherOutcome }: VerificationStepProps) {
  const { processVerification, pending, error } = useAuth();
  const [code, setCode] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const outcome = await processVerification({ verificationCode: code.trim() }, silentOptions()).catch(() => null);
    if (outcome?.loginState === 'SUCCESS') onSignedIn();
    else if (outcome && outcome.loginState !== 'FAILURE') onOtherOutcome(outcome.loginState);
  };
  return (
    <div className="grid-2">
      <section className="card" aria-labelledby="verify-title">
        <h2 id="verify-title">Check your email</h2>
        <p className="muted">
          We sent a code to <strong>{email}</strong>. Enter it to finish.
        </p>
        <form className="stack" onSubmit={submit}>
          <label className="field">
            Verification code
            <input
              value={code}
              onChange={(event) => setCode(event.target.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              autoFocus
            />
          </label>
          {error && <ErrorNotice title="The code was not accepted" error={error} />}
          <div className="row">
            <button type="submit" disabled={pending === 'processVerification'}>
              {pending === 'processVerification' ? 'Verifying…' : 'Verify'}
            </button>
          </div>
        </form>
      </section>
      <OutboxPanel address={email} onUseCode={setCode} />
    </div>
  );
}
