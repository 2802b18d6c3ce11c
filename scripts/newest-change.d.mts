/** The newest modification time under `path` (a file or a directory tree, node_modules and dot entries aside); 0 when missing. */
export function newestChange(path: string): number;

/** What the built console (`dist/console/`) is made from: the console's own files and the SDK source. */
export const consoleSources: readonly string[];

/**
 * Why a build is stale, or `null` when it is current. `outputs` are files every build writes (the
 * oldest of them is the build's age), `sources` what it is built from; both relative to `root`.
 */
export function staleReason(root: string, outputs: readonly string[], sources: readonly string[]): string | null;
