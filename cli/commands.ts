/**
 * The commands of `sitekit-sdk`, in one dispatch table: each is one file, loaded when run, so a
 * command that reads a site (`types`, `pull`, `verify`) or talks to a running emulator (`emulator trigger`,
 * `snapshot`)
 * never loads the emulator's server packages.
 */
import { type CommandIo, UsageError } from './command-io.js';
import { terminalText } from './untrusted-text.js';

/** A command's code and help. */
interface Command {
  run: (argv: string[], io: CommandIo) => Promise<number>;
  usage: string;
}

/** Each command by the words that name it; `emulator` is also what runs with no command. */
const COMMANDS = {
  emulator: async (): Promise<Command> => {
    const { emulatorCommand, EMULATOR_USAGE } = await import('./emulator-command.js');
    return { run: emulatorCommand, usage: EMULATOR_USAGE };
  },
  'emulator trigger': async (): Promise<Command> => {
    const { triggerCommand, TRIGGER_USAGE } = await import('./trigger-command.js');
    return { run: triggerCommand, usage: TRIGGER_USAGE };
  },
  snapshot: async (): Promise<Command> => {
    const { snapshotCommand, SNAPSHOT_USAGE } = await import('./snapshot-command.js');
    return { run: snapshotCommand, usage: SNAPSHOT_USAGE };
  },
  types: async (): Promise<Command> => {
    const { typesCommand, TYPES_USAGE } = await import('./types-command.js');
    return { run: typesCommand, usage: TYPES_USAGE };
  },
  pull: async (): Promise<Command> => {
    const { pullCommand, PULL_USAGE } = await import('./pull-command.js');
    return { run: pullCommand, usage: PULL_USAGE };
  },
  verify: async (): Promise<Command> => {
    const { verifyCommand, VERIFY_USAGE } = await import('./verify/verify-command.js');
    return { run: verifyCommand, usage: VERIFY_USAGE };
  },
} as const;

/** The name of a command of {@link COMMANDS}. */
export type CommandName = keyof typeof COMMANDS;

const isCommandName = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/**
 * The command a command line names, and its own arguments: the longest name its first words make
 * (`emulator trigger` before `emulator`); `emulator` when it starts with an option or is empty.
 */
export function commandOf(argv: readonly string[]): { name: CommandName; argv: string[] } | { unknown: string } {
  const [first, second] = argv;
  if (first === undefined || first.startsWith('-')) return { name: 'emulator', argv: [...argv] };
  const two = `${first} ${second}`;
  if (isCommandName(two)) return { name: two, argv: argv.slice(2) };
  if (isCommandName(first)) return { name: first, argv: argv.slice(1) };
  return { unknown: first };
}

/** Whether an error is a mistake in the command line (`parseArgs` rejects unknown and malformed options). */
const isUsageMistake = (error: unknown): boolean =>
  error instanceof UsageError ||
  (error instanceof Error && String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS'));

/**
 * Runs a command line (`['types', '--check']`, `['emulator', 'trigger', 'item_created']`);
 * resolves with its exit code: 2 for a usage mistake (printed with the command's help), 1 for a
 * failure.
 */
export async function runCommand(commandLine: readonly string[], given: CommandIo): Promise<number> {
  // What a command prints may quote a remote site (collection IDs, field keys, error messages):
  // control characters reach the terminal as escapes, never as sequences it would act on.
  const io: CommandIo = {
    ...given,
    stdout: (text) => given.stdout(terminalText(text)),
    stderr: (text) => given.stderr(terminalText(text)),
  };
  const command = commandOf(commandLine);
  if ('unknown' in command) {
    const { usage } = await COMMANDS.emulator();
    io.stderr(`Unknown command: ${command.unknown}\n\n${usage}`);
    return 2;
  }
  const { run, usage } = await COMMANDS[command.name]();
  try {
    return await run(command.argv, io);
  } catch (error) {
    if (isUsageMistake(error)) {
      io.stderr(`${(error as Error).message}\n\n${usage}`);
      return 2;
    }
    io.stderr(`sitekit-sdk ${command.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
