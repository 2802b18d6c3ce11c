/**
 * The commands of `sitekit-sdk` that read a site (`types`, `pull`), run from the CLI's dispatch
 * (../cli.ts). They use the SDK only: no server package of the emulator is loaded.
 */
import { UsageError } from './site-connection.js';
import type { CommandIo } from './types-command.js';

/** Each command: its code (loaded when run) and its help. */
const COMMANDS = {
  types: async () => {
    const { typesCommand, TYPES_USAGE } = await import('./types-command.js');
    return { run: typesCommand, usage: TYPES_USAGE };
  },
  pull: async () => {
    const { pullCommand, PULL_USAGE } = await import('./pull-command.js');
    return { run: pullCommand, usage: PULL_USAGE };
  },
  verify: async () => {
    const { verifyCommand, VERIFY_USAGE } = await import('../../cli/verify/verify-command.js');
    return { run: verifyCommand, usage: VERIFY_USAGE };
  },
  // `sitekit-sdk emulator trigger ...` (cli.ts sends it here): it talks to a running emulator.
  trigger: async () => {
    const { triggerCommand, TRIGGER_USAGE } = await import('./trigger-command.js');
    return { run: triggerCommand, usage: TRIGGER_USAGE };
  },
} as const;

/** The name of a command of {@link COMMANDS}. */
export type SiteCommand = keyof typeof COMMANDS;

/** Whether `name` is a command of this module. */
export const isSiteCommand = (name: string): name is SiteCommand => Object.hasOwn(COMMANDS, name);

/** Whether an error is a mistake in the command line (`parseArgs` rejects unknown and malformed options). */
const isUsageMistake = (error: unknown): boolean =>
  error instanceof UsageError ||
  (error instanceof Error && String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS'));

/**
 * Runs a command with the process's streams and environment; resolves with its exit code (2 for a
 * usage mistake, 1 for a failure). Ctrl-C stops a `--watch`.
 */
export async function runSiteCommand(name: SiteCommand, argv: string[], io?: CommandIo): Promise<number> {
  const { run, usage } = await COMMANDS[name]();
  const streams: CommandIo = io ?? {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    // Only a watch and verify (which removes its scratch collection first) listen for Ctrl-C: for
    // the others it ends the process as usual.
    stopped:
      argv.includes('--watch') || name == 'verify'
        ? new Promise((resolve) => process.once('SIGINT', () => resolve()))
        : undefined,
  };
  try {
    return await run(argv, streams);
  } catch (error) {
    if (isUsageMistake(error)) {
      streams.stderr(`${(error as Error).message}\n\n${usage}`);
      return 2;
    }
    streams.stderr(`sitekit-sdk ${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
