/** Site: create an account; with email verification on, the code comes from the outbox. */
import { useState, type FormEvent } from 'react';
import { useAuth } from 'sitekit-sdk/react';
import { Link, useRouter } from '../app/router.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { PageHeader } from '../ui/page.js';
import {
  asksForCaptcha,
  captchaTokensOf,
  CredentialFields,
  noCredentials,
  type Credentials,
} from './credential-fields.js';
import { silentOptions } from './return-urls.js';
import { OutcomeNotice } from './sign-in-outcome.js';
import { VerificationStep } from './verification-step.js';

/** The registration page. */
export function RegisterPage() {
  const { register, pending, error } = useAuth();
  const { navigate } = useRouter();
  const [credentials, setCredentials] = useState<Credentials>(noCredentials);
  const [nickname, setNickname] = useState('');
  const [loginState, setLoginState] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const profile = nickname.trim() ? { nickname: nickname.trim() } : undefined;
    const outcome = await register(
      {
        email: credentials.email.trim(),
        password: credentials.password,
        profile,
        captchaTokens: captchaTokensOf(credentials),
      },
      silentOptions(),
    ).catch(() => null);
    if (!outcome) return;
    setLoginState(outcome.loginState);
    if (outcome.loginState === 'SUCCESS') navigate('/site/profile');
  };

  if (loginState === 'EMAIL_VERIFICATION_REQUIRED') {
    return (
      <>
        <PageHeader title="Verify your email" description="One step left: the code the site emailed you." />
        <VerificationStep
          email={credentials.email.trim()}
          onSignedIn={() => navigate('/site/profile')}
          onOtherOutcome={setLoginState}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader title="Create an account" description="Register a member of the demo site." />
      <section className="card card-narrow" aria-labelledby="register-title">
        <h2 id="register-title">Your details</h2>
        <form className="stack" onSubmit={submit} aria-label="Register">
          <CredentialFields
            value={credentials}
            onChange={setCredentials}
            purpose="register"
            askCaptcha={asksForCaptcha(loginState)}
          />
          <label className="field">
            Nickname <span className="hint">optional, shown to other members</span>
            <input value={nickname} onChange={(event) => setNickname(event.target.value)} />
          </label>
          <OutcomeNotice loginState={loginState} />
          {error && <ErrorNotice title="Registration failed" error={error} />}
          <div className="row-between">
            <button type="submit" disabled={pending === 'register'}>
              {pending === 'register' ? 'Creating…' : 'Create account'}
            </button>
            <Link to="/site/sign-in">I have an account</Link>
          </div>
        </form>
      </section>
    </>
  );
}
