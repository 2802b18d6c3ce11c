/** What every command of `sitekit-sdk` is given and may throw: its streams, and the usage mistake. */

/** Where a command writes and what it reads from its surroundings: the process's, or a test's. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /**
   * Resolves when a command that keeps running (`emulator`, `types --watch`) should stop: Ctrl-C
   * or SIGTERM in the CLI. A function, so that only the commands that keep running listen for the
   * signals (a listener would stop Ctrl-C from ending the others at once).
   */
  untilStopped?: () => Promise<void>;
  /** The fetch the command reads with (the global one by default; tests put failures in its way). */
  fetch?: typeof fetch;
}

/** A usage mistake: the CLI prints it with the command's help and exits with code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
