/**
 * `sitekit-sdk snapshot save|restore|remove <name>` and `sitekit-sdk snapshot list`: a running
 * emulator's named snapshots (`/_emulator/snapshots`) of its default site or of `--site <id>`, from
 * a shell or a CI script: save the state a suite starts from, restore it between two runs.
 */
import { parseArgs } from 'node:util';
import { createControlClient, type ControlClient } from '../emulator/control/client.js';
import { type CommandIo, UsageError } from './command-io.js';
import { EMULATOR_OPTION, EMULATOR_USAGE, emulatorCallFailure, emulatorUrl } from './site-connection.js';

/** The help of the command. */
export const SNAPSHOT_USAGE = `Usage: sitekit-sdk snapshot <action> [name] [options]

A running emulator's named snapshots: the site's whole state (every collection, item, member,
session, setting and media file) saved under a name and put back in one step.

Actions:
  save <name>         save the state as <name> (a snapshot of that name is replaced)
  restore <name>      put the state back as <name> holds it
  list                every snapshot: name, when it was saved, size
  remove <name>       delete the snapshot <name>

Options:
  --site <id>         the site (default: the emulator's default site, the one it prints)
${EMULATOR_USAGE}
  -h, --help          show this help

A name is 1 to 64 letters, digits, dots, dashes and underscores, starting with a letter or a digit.
`;

/** Each action: what it does with the name, and the line it prints when done. */
const ACTIONS = {
  save: async (control: ControlClient, name: string) => {
    const saved = await control.call('saveSnapshot', { body: { name } });
    return `Saved ${saved.name} (${saved.sizeBytes} bytes)${saved.replaced ? ', replacing the snapshot of that name' : ''}.\n`;
  },
  restore: async (control: ControlClient, name: string) => {
    const restored = await control.call('restoreSnapshot', { params: { name } });
    return `Restored ${restored.name}, saved ${restored.createdAt}.\n`;
  },
  remove: async (control: ControlClient, name: string) => {
    await control.call('removeSnapshot', { params: { name } });
    return `Removed ${name}.\n`;
  },
  list: async (control: ControlClient) => {
    const { snapshots } = await control.call('listSnapshots');
    if (!snapshots.length) return 'No snapshots.\n';
    return snapshots
      .map((snapshot) => `${snapshot.name}\t${snapshot.createdAt}\t${snapshot.sizeBytes} bytes\n`)
      .join('');
  },
} as const;

type Action = keyof typeof ACTIONS;

const isAction = (word: string | undefined): word is Action => word !== undefined && Object.hasOwn(ACTIONS, word);

/** Runs the command; resolves with its exit code. */
export async function snapshotCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { site: { type: 'string' }, ...EMULATOR_OPTION, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    io.stdout(SNAPSHOT_USAGE);
    return 0;
  }
  const [action, name, ...extra] = positionals;
  if (!isAction(action)) throw new UsageError(`Name an action: ${Object.keys(ACTIONS).join(', ')}.`);
  if (action == 'list' ? name !== undefined : name === undefined || extra.length)
    throw new UsageError(action == 'list' ? 'list takes no name.' : `${action} takes one snapshot name.`);
  const emulator = emulatorUrl(values.emulator, io.env);
  const control = createControlClient({
    baseUrl: emulator,
    ...(values.site === undefined ? {} : { siteId: values.site }),
    ...(io.fetch ? { fetch: io.fetch } : {}),
  });
  try {
    io.stdout(await ACTIONS[action](control, name!));
    return 0;
  } catch (error) {
    const failure = emulatorCallFailure(error, emulator, `to ${action} ${name ?? 'the snapshots'}`);
    if (failure === undefined) throw error;
    io.stderr(failure);
    return 1;
  }
}
