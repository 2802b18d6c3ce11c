/**
 * `emulator.interceptGlobalFetch()`: the global `fetch` replaced by one that sends the emulator's
 * URLs (the platform's API hosts, its own origin) to `emulator.fetch` and everything else to the
 * `fetch` it replaced, so code that calls the global `fetch` itself (the official SDK) is served
 * in-process, unmodified.
 */

/** What an installed interceptor remembers: the `fetch` it replaced, and whether it still intercepts. */
interface Interception {
  previous: typeof fetch;
  active: boolean;
}

/** Every interceptor installed in this process (a restored one that is not on top yet passes everything on). */
const interceptions = new WeakMap<typeof fetch, Interception>();

/** The URL a `fetch` input names, or undefined when it is not absolute (the replaced `fetch` then says what is wrong). */
function urlOf(input: RequestInfo | URL): URL | undefined {
  if (input instanceof URL) return input;
  const href = input instanceof Request ? input.url : String(input);
  return URL.canParse(href) ? new URL(href) : undefined;
}

/**
 * Installs the interceptor; returns `restore`, which stops it (idempotent). Restores in the order
 * they were installed (newest first) put each original back; one restored out of order passes
 * every request on, and is taken off when those above it are.
 */
export function interceptGlobalFetch(serves: (url: URL) => boolean, emulatorFetch: typeof fetch): () => void {
  const interception: Interception = { previous: globalThis.fetch, active: true };
  const intercepting: typeof fetch = (input, init) => {
    const url = interception.active ? urlOf(input) : undefined;
    return url && serves(url) ? emulatorFetch(input, init) : interception.previous.call(globalThis, input, init);
  };
  interceptions.set(intercepting, interception);
  globalThis.fetch = intercepting;
  return () => {
    interception.active = false;
    // Take off every retired interceptor on top; a fetch someone else installed since stays.
    let top = globalThis.fetch;
    for (let retired = interceptions.get(top); retired && !retired.active; retired = interceptions.get(top))
      top = retired.previous;
    globalThis.fetch = top;
  };
}
