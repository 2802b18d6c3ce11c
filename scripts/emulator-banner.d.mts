/** The connection details in the start banner printed so far, or undefined until it is all there. */
export function bannerDetails(output: string): { url: string; apiKey: string; siteId: string } | undefined;
