/** Site: sign in with the hosted page (redirect with PKCE) or with the direct form. */
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
import { callbackUrl, silentOptions } from './return-urls.js';
import { OutcomeNotice } from './sign-in-outcome.js';
import { VerificationStep } from './verification-step.js';

/**
 * The member of the emulator's demo data who can sign in (`emulator/services/accounts/members/demo.ts`;
 * the CLI prints the same at start). A site seeded from a file may not have them.
 */
const demoMember = { email: 'ada@example.com', password: 'demo-password' };

/** The sign-in page. */
export function SignInPage() {
  const { login, loginWithRedirect, pending, error } = useAuth();
  const { navigate, search } = useRouter();
  const [credentials, setCredentials] = useState<Credentials>(noCredentials);
  const [loginState, setLoginState] = useState<string | null>(null);
  // One `error` serves both ways of signing in: show it where the person acted.
  const [lastWay, setLastWay] = useState<'hosted' | 'direct' | null>(null);
  const returnTo = search.get('returnTo') ?? '/site/profile';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setLastWay('direct');
    const outcome = await login(
      { email: credentials.email.trim(), password: credentials.password, captchaTokens: captchaTokensOf(credentials) },
      silentOptions(),
    ).catch(() => null);
    if (!outcome) return;
    setLoginState(outcome.loginState);
    if (outcome.loginState === 'SUCCESS') navigate(returnTo);
  };

  if (loginState === 'EMAIL_VERIFICATION_REQUIRED') {
    return (
      <>
        <PageHeader title="Verify your email" />
        <VerificationStep
          email={credentials.email.trim()}
          onSignedIn={() => navigate(returnTo)}
          onOtherOutcome={setLoginState}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Sign in"
        description="Sign in to the demo site as a member, the way a site built with sitekit does."
      />
      <div className="grid-2">
        <section className="card" aria-labelledby="hosted-title">
          <h2 id="hosted-title">With the hosted page</h2>
          <p className="muted">
            Leaves for the emulator's sign-in page and comes back here with a code (PKCE, state checked).
          </p>
          <div className="row">
            <button
              type="button"
              disabled={pending === 'loginWithRedirect'}
              onClick={() => {
                setLastWay('hosted');
                void loginWithRedirect(callbackUrl(), { originalUri: `${window.location.origin}${returnTo}` }).catch(
                  () => undefined,
                );
              }}
            >
              {pending === 'loginWithRedirect' ? 'Opening…' : 'Continue to the sign-in page'}
            </button>
          </div>
          {error && lastWay === 'hosted' && <ErrorNotice title="Could not open the sign-in page" error={error} />}
        </section>
        <section className="card" aria-labelledby="direct-title">
          <h2 id="direct-title">With email and password</h2>
          <form className="stack" onSubmit={submit} aria-label="Sign in with email and password">
            <CredentialFields
              value={credentials}
              onChange={setCredentials}
              purpose="sign-in"
              askCaptcha={asksForCaptcha(loginState)}
            />
            <OutcomeNotice loginState={loginState} />
            {error && lastWay === 'direct' && <ErrorNotice title="Sign-in failed" error={error} />}
            <div className="row-between">
              <button type="submit" disabled={pending === 'login'}>
                {pending === 'login' ? 'Signing in…' : 'Sign in'}
              </button>
              <Link to="/site/recover">Forgot your password?</Link>
            </div>
          </form>
          <p className="muted">
            New here? <Link to="/site/register">Create an account</Link>
          </p>
          <p className="muted small" data-testid="demo-credentials">
            With the demo data, <span className="mono">{demoMember.email}</span> /{' '}
            <span className="mono">{demoMember.password}</span> signs in.{' '}
            <button
              type="button"
              className="secondary small"
              onClick={() => setCredentials({ ...credentials, ...demoMember })}
            >
              Use the demo member
            </button>
          </p>
        </section>
      </div>
    </>
  );
}
