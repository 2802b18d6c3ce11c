/**
 * `sitekit-sdk emulator [--port 4700] [--data-dir .sitekit] [--memory] [--seed file.json] [--host 127.0.0.1]`
 * (and `npm start` in this repository): starts the emulator and keeps it running until stopped.
 * Checks the optional peer it needs before loading it (its server packages are bundled with it).
 */
import { parseArgs } from 'node:util';
import { type CommandIo, UsageError } from './command-io.js';

/**
 * The emulator's optional peer dependencies, at the versions it is tested with. Fastify and the TUS
 * server are not among them: the package's build bundles them (dist/vendor/).
 */
export const SERVER_PACKAGES: Readonly<Record<string, string>> = {
  'better-sqlite3': '12.11.1',
};

/** The help of the command, and of the CLI as a whole (it lists the other commands). */
export const EMULATOR_USAGE = `Usage: sitekit-sdk emulator [options]

Starts the local emulator of the platform's API (data, sign-in, members, media, webhooks) with a
demo site.

Options:
  --port <number>     port to listen on (default 4700; 0 picks a free one)
  --host <address>    interface to bind (default 127.0.0.1)
  --allowed-host <name>
                      also answer to this host name (a Docker service, a proxy; ".example.com" for
                      it and its subdomains); repeatable. IP addresses and localhost always work
  --control-origin <origin>
                      let browser pages of this origin (e.g. http://localhost:5173) use the control
                      API (/_emulator/...) besides the console; repeatable
  --data-dir <path>   where the database lives (default .sitekit)
  --memory            keep everything in memory; nothing is written to disk
  --seed <file.json>  on first start, load this state (GET /_emulator/export format) instead of
                      the demo data
  -h, --help          show this help

Other commands (sitekit-sdk <command> --help):
  emulator trigger    send a signed webhook event from a running emulator
  types               write the TypeScript types of a site's collections
  pull                copy a live site into a file the emulator loads (--seed)
  verify              compare a live site with the emulator and the schema (or replay a recording)
`;

/** The packages of {@link SERVER_PACKAGES} that cannot be loaded. */
async function missingPackages(): Promise<string[]> {
  const missing: string[] = [];
  for (const name of Object.keys(SERVER_PACKAGES)) {
    try {
      await import(name);
    } catch {
      missing.push(name);
    }
  }
  return missing;
}

/** The `emulator` command's options (throws on an unknown or malformed one). */
function parseEmulatorArgs(args: string[]) {
  const options = {
    port: { type: 'string' },
    host: { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'control-origin': { type: 'string', multiple: true },
    'data-dir': { type: 'string' },
    memory: { type: 'boolean' },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  } as const;
  return parseArgs({ args, options, strict: true }).values;
}

/**
 * Runs `emulator` with its arguments: starts the emulator, prints how to connect, and closes it
 * when `io.untilStopped` resolves (without it, it runs as long as the process). Resolves with the
 * exit code.
 */
export async function emulatorCommand(argv: string[], io: CommandIo): Promise<number> {
  const values = parseEmulatorArgs(argv);
  if (values.help) {
    io.stdout(EMULATOR_USAGE);
    return 0;
  }
  const port = values.port === undefined ? 4700 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got ${values.port})`);
  }

  const missing = await missingPackages();
  if (missing.length) {
    const install = Object.entries(SERVER_PACKAGES)
      .map(([name, version]) => `${name}@${version}`)
      .join(' ');
    io.stderr(
      `The emulator needs packages that are not installed: ${missing.join(', ')}.\nInstall them with:\n\n  npm install --save-dev ${install}\n\n`,
    );
    return 1;
  }

  const { startEmulator } = await import('../emulator/index.js');
  const { DEMO_EMAIL, DEMO_PASSWORD } = await import('../emulator/services/accounts/members/demo.js');
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator({
      port,
      host: values.host,
      allowedHosts: values['allowed-host'],
      controlOrigins: values['control-origin'],
      memory: values.memory,
      dataDir: values['data-dir'],
      seed: values.seed,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    io.stderr(
      `Port ${port} is in use (another emulator, or another server). Pass another with --port, e.g. --port ${port + 1}, or --port 0 for any free one.\n`,
    );
    return 1;
  }
  const { info } = emulator;
  io.stdout(
    [
      `sitekit emulator listening on ${info.url}`,
      `  API key:   ${info.apiKey}`,
      `  site id:   ${info.siteId}`,
      `  client id: ${info.clientId}`,
      `  data:      ${values.memory ? 'in memory (lost on exit)' : emulator.context.dataDir}`,
      `  console:   ${info.url}/   control API: ${info.url}/_emulator/info`,
      // The demo data's member who can sign in (a --seed file brings its own members).
      ...(values.seed ? [] : [`  sign in:   ${DEMO_EMAIL} / ${DEMO_PASSWORD} (the demo member)`]),
      '',
    ].join('\n'),
  );
  await (io.untilStopped?.() ?? new Promise<void>(() => {}));
  await emulator.close();
  return 0;
}
