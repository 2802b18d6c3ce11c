/**
 * Points the official client at the emulator: a fetch that sends the provider's API URLs to another
 * origin. Shared by the official-SDK suite and the benchmark's official-SDK comparison; it imports
 * nothing of the test runner, so the benchmark can use it.
 */

/** The provider's API hosts the official client sends to (`www.wixapis.com`, and the CDN host `edge.wixapis.com`). */
export const isProviderHost = (host: string): boolean => host == 'wixapis.com' || host.endsWith('.wixapis.com');

/** A fetch that sends provider URLs to `origin` (path and query unchanged) and any other URL as it is. */
export function originRewritingFetch(origin: string, realFetch: typeof fetch): typeof fetch {
  const rewrite = (url: string): string => {
    const parsed = new URL(url);
    if (parsed.protocol != 'https:' || !isProviderHost(parsed.hostname)) return url;
    return origin + parsed.pathname + parsed.search;
  };
  return (input, init) => {
    if (input instanceof Request) return realFetch(new Request(rewrite(input.url), input), init);
    return realFetch(rewrite(String(input)), init);
  };
}
