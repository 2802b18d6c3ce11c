// What `sitekit-sdk emulator` prints when it listens, read back by what starts it in a child
// process (the held-out install check, the durability test).

/** The connection details in the start banner printed so far, or undefined until it is all there. */
export function bannerDetails(output) {
  const url = /listening on (\S+)/.exec(output)?.[1];
  const apiKey = /API key:\s+(\S+)/.exec(output)?.[1];
  const siteId = /site id:\s+(\S+)/.exec(output)?.[1];
  return url && apiKey && siteId ? { url, apiKey, siteId } : undefined;
}
