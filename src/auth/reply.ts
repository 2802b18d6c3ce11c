/**
 * Waits for the hosted sign-in page's answer (`code`, `state`, or `error`) in the silent flows.
 * Loaded on first use by `getMemberTokensForDirectLogin` / `getMemberTokensSilently`.
 */
import { parseFromUrl } from './callback.js';
import type { FrameHost, OAuthCallback } from './types.js';

/** How many redirects of the hosted page are followed, at most, looking for the code. */
const MAX_REDIRECTS = 5;

/**
 * In a browser (`host` given): the page, in a hidden frame, posts `{code, state}` with
 * `postMessage`; only a message from the page's own origin and with our state is taken (the
 * official SDK checks the state only). Elsewhere: the page is loaded without following redirects
 * and the code is read from the `Location` that carries it, a few hops at most.
 */
export async function awaitReply(
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
      const reply = parseFromUrl((url = new URL(location, url).href), 'query');
      if (reply.code || reply.error) return reply;
    }
    throw Error('no authorization code in the redirects');
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
