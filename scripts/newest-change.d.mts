/** The newest modification time under `path` (a file or a directory tree, node_modules and dot entries aside); 0 when missing. */
export function newestChange(path: string): number;
