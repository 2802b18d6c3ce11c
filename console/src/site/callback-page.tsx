/** Site: the return page of the hosted sign-in; exchanges the code in the fragment for member tokens. */
import { useEffect, useState } from 'react';
import { isAuthError } from 'sitekit-sdk';
import { useAuth } from 'sitekit-sdk/react';
import { Link, useRouter } from '../app/router.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { PageHeader } from '../ui/page.js';
import { Loading } from '../ui/states.js';

/** Finishes the redirect sign-in, then goes back to the page it started from (or home, for a stale return). */
export function CallbackPage() {
  const { handleRedirectCallback } = useAuth();
  const { navigate } = useRouter();
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    // handleRedirectCallback runs once per return URL, so StrictMode's second effect shares the first's outcome.
    handleRedirectCallback()
      .then(({ originalUri }) => {
        const target = originalUri ? new URL(originalUri, window.location.origin) : null;
        navigate(
          target && target.origin === window.location.origin ? `${target.pathname}${target.search}` : '/site/profile',
          { replace: true },
        );
      })
      .catch((error: unknown) => {
        // A stale return (Back or reload after the sign-in, a callback URL opened in another tab):
        // nothing waits for this code. Go home, where the session restorer signs the member in
        // again silently if the emulator's session holds, instead of showing an error.
        if (isAuthError(error) && error.code === 'NO_OAUTH_DATA') navigate('/', { replace: true });
        else setFailure(error);
      });
  }, [handleRedirectCallback, navigate]);
  return (
    <>
      <PageHeader title="Signing you in" />
      {failure ? (
        <>
          <ErrorNotice title="The sign-in did not complete" error={failure} />
          <p>
            <Link to="/site/sign-in">Try again</Link>
          </p>
        </>
      ) : (
        <Loading label="Finishing the sign-in…" />
      )}
    </>
  );
}
