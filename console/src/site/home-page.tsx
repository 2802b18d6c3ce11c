/** The start page: what the console is, the demo site's coordinates, and where to begin. */
import { useState } from 'react';
import { useAuth } from 'sitekit-sdk/react';
import { useConsole } from '../app/console-context.js';
import { Link } from '../app/router.js';
import { PageHeader } from '../ui/page.js';

/** The console's start page. */
export function HomePage() {
  const { info } = useConsole();
  const { loggedIn } = useAuth();
  const [showKey, setShowKey] = useState(false);
  return (
    <>
      <PageHeader
        title="sitekit console"
        description="The emulator's demo site, seen as a visitor or member on one side and as its owner on the other."
      />
      <div className="grid-2">
        <section className="card" aria-labelledby="site-title">
          <h2 id="site-title">Site view</h2>
          <p className="muted">
            What a site built with sitekit does in a browser: sign-up with email verification, hosted and direct
            sign-in, silent sign-in on reload, profile, data and uploads.
          </p>
          <div className="row">
            {loggedIn ? (
              <Link className="button" to="/site/profile">
                Your profile
              </Link>
            ) : (
              <>
                <Link className="button" to="/site/register">
                  Create an account
                </Link>
                <Link className="button secondary" to="/site/sign-in">
                  Sign in
                </Link>
              </>
            )}
            <Link className="button secondary" to="/site/browse">
              Browse Movies
            </Link>
          </div>
        </section>
        <section className="card" aria-labelledby="admin-title">
          <h2 id="admin-title">Admin view</h2>
          <p className="muted">
            The site owner's side, with the demo API key: collections, items, media, members, the outbox, the request
            log, webhooks and the emulator's switches.
          </p>
          <div className="row">
            <Link className="button" to="/admin/collections">
              Collections
            </Link>
            <Link className="button secondary" to="/admin/items/Movies">
              Movies items
            </Link>
            <Link className="button secondary" to="/admin/requests">
              Request log
            </Link>
          </div>
        </section>
      </div>
      <section className="card" aria-labelledby="connect-title">
        <h2 id="connect-title">Connect your own app</h2>
        <p className="muted">
          Any sitekit client (or any client of the real API, with its host changed) works against this emulator.
        </p>
        <dl className="facts">
          <dt>Base URL</dt>
          <dd className="mono">{info.url || window.location.origin}</dd>
          <dt>Site ID</dt>
          <dd className="mono">{info.siteId}</dd>
          <dt>OAuth client ID</dt>
          <dd className="mono">{info.clientId}</dd>
          <dt>API key</dt>
          <dd className="row">
            <span className="mono">{showKey ? info.apiKey : '•'.repeat(24)}</span>
            <button type="button" className="secondary small" onClick={() => setShowKey(!showKey)}>
              {showKey ? 'Hide' : 'Show'}
            </button>
          </dd>
        </dl>
        <pre className="mail mono" style={{ margin: 0 }}>{`import { createClient, OAuthStrategy } from 'sitekit-sdk';

const client = createClient({
  baseUrl: '${info.url || window.location.origin}',
  auth: OAuthStrategy({ clientId: '${info.clientId}' }),
});
const page = await client.items.query('Movies').limit(10).find();`}</pre>
      </section>
    </>
  );
}
