/**
 * The silent flow of an OAuth client: member tokens without a visible redirect, for the session
 * token of a direct login or for a member already signed in on the site's domain. In a browser the
 * hosted page answers in a hidden frame; elsewhere its redirect is read without following it.
 * Loaded on first use, like the redirect flow it drives.
 */
import { deadline } from '../http/deadline.js';
import { loadOnFirstUse } from '../lazy.js';
import { fail } from './fail.js';
import { createOAuthData } from './pkce.js';
import type { RedirectFlow } from './redirect-flow.js';
import { browserFrameHost } from './frames.js';
import type { FrameHost, SilentOptions, Tokens } from './types.js';

/** How long the silent flow waits for the hosted page by default. */
const SILENT_FLOW_TIMEOUT_MS = 120_000;

// Waiting for the page's answer loads on first use: most sessions never need it.
const loadReply = loadOnFirstUse(() => import('./reply.js'));

/** What the silent flow needs from its strategy. */
export interface SilentFlowOptions {
  readonly redirect: RedirectFlow;
  /** The hidden-frame plumbing given to the strategy; else the document's, in a browser. */
  readonly frameHost?: FrameHost;
  /** A fetch with nothing added (no auth, no retries), to read the hosted page's redirect. */
  readonly fetchRaw: (url: string, init: RequestInit) => Promise<Response>;
}

/**
 * Member tokens without a visible redirect, for `sessionToken` or the existing session; stored and
 * returned. Fails with 'OAuth flow timed out' after two minutes (or `timeoutMs`).
 */
export async function silentSignIn(
  flow: SilentFlowOptions,
  options: SilentOptions = {},
  sessionToken?: string,
): Promise<Tokens> {
  const limit = deadline(options.signal, options.timeoutMs ?? SILENT_FLOW_TIMEOUT_MS);
  const { signal } = limit;
  const host = flow.frameHost ?? (globalThis.document?.body ? browserFrameHost : undefined);
  const oauthData = createOAuthData(options.redirectUri!);
  try {
    const { authUrl } = await flow.redirect.authUrl(oauthData, {
      prompt: 'none',
      responseMode: host ? 'web_message' : 'query',
      sessionToken,
      signal,
    });
    const { awaitReply } = await loadReply();
    const reply = await awaitReply(authUrl, oauthData.state, signal, host, flow.fetchRaw);
    // The page's `error` and `error_description` travel as the cause.
    if (!reply.code) throw reply;
    return await flow.redirect.exchangeCode(reply.code, reply.state, oauthData, { signal });
  } catch (error) {
    if (options.signal?.aborted) throw limit.error();
    throw signal.aborted ? fail('OAuth flow timed out') : fail('Failed to get member tokens', { cause: error });
  } finally {
    limit.done();
  }
}
