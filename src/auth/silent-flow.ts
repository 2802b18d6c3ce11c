/**
 * The silent flow of an OAuth client: member tokens without a visible redirect, for the session
 * token of a direct login or for a member already signed in on the site's domain. In a browser the
 * hosted page answers in a hidden frame; elsewhere its redirect is read without following it.
 * Loaded on first use, like the redirect flow it drives.
 */
import { deadline } from '../http/deadline.js';
import { parseFromUrl } from './callback.js';
import { AuthError } from '../errors/index.js';
import { createOAuthData } from './pkce.js';
import type { RedirectFlow } from './redirect-flow.js';
import { browserFrameHost } from './frames.js';
import type { FrameHost, OAuthCallback, SilentOptions, Tokens } from './types.js';

/** How long the silent flow waits for the hosted page by default. */
const SILENT_FLOW_TIMEOUT_MS = 120_000;

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
  try {
    const oauthData = await createOAuthData(options.redirectUri!);
    const { authUrl } = await flow.redirect.authUrl(oauthData, {
      prompt: 'none',
      responseMode: host ? 'web_message' : 'query',
      sessionToken,
      signal,
    });
    const reply = await awaitReply(authUrl, oauthData.state, signal, host, flow.fetchRaw);
    // The page's `error` and `error_description` travel as the cause.
    if (!reply.code) throw reply;
    return await flow.redirect.exchangeCode(reply.code, reply.state, oauthData, { signal });
  } catch (error) {
    if (options.signal?.aborted) throw limit.error();
    throw signal.aborted
      ? new AuthError('OAuth flow timed out', { code: 'OAUTH_FLOW_TIMED_OUT' })
      : new AuthError('Failed to get member tokens', { code: 'FAILED_TO_GET_MEMBER_TOKENS', cause: error });
  } finally {
    limit.done();
  }
}

/** How many redirects of the hosted page are followed, at most, looking for the code. */
const MAX_REDIRECTS = 5;

/**
 * Waits for the hosted sign-in page's answer (`code`, `state`, or `error`).
 * In a browser (`host` given): the page, in a hidden frame, posts `{code, state}` with
 * `postMessage`; only a message from the page's own origin and with our state is taken (the
 * official SDK checks the state only). Elsewhere: the page is loaded without following redirects
 * and the code is read from the `Location` that carries it, a few hops at most.
 */
async function awaitReply(
  authUrl: string,
  state: string,
  signal: AbortSignal,
  host: FrameHost | undefined,
  fetchRaw: (url: string, init: RequestInit) => Promise<Response>,
): Promise<OAuthCallback> {
  if (!host) {
    let url = authUrl;
    for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
      const response = await fetchRaw(url, { redirect: 'manual', signal });
      void response.body?.cancel().catch(() => {});
      const location = response.headers.get('location');
      const redirected = response.status >= 300 && response.status < 400;
      if (!location || !redirected) break;
      url = new URL(location, url).href;
      const reply = parseFromUrl(url, 'query');
      if (reply.code || reply.error) return reply;
    }
    throw new Error('no authorization code in the redirects');
  }
  let stop: (() => void) | undefined;
  let frame: { remove(): void } | undefined;
  return new Promise<OAuthCallback>((resolve, reject) => {
    const origin = new URL(authUrl).origin;
    // `signal` is this flow's own (nothing else sets its handler) and dies with it.
    signal.onabort = () => reject(signal.reason);
    signal.throwIfAborted();
    stop = host.addMessageListener((event) => {
      const message = event.data as Partial<OAuthCallback> | null;
      if (event.origin === origin && message?.state === state) resolve(message as OAuthCallback);
    });
    frame = host.createFrame(authUrl);
  }).finally(() => {
    stop?.();
    frame?.remove();
  });
}
