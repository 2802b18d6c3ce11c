/**
 * `sitekit-sdk emulator [--port 4700] [--data-dir .sitekit] [--memory] [--engine auto] [--seed file.json] [--host 127.0.0.1] [--site-pool 8]`
 * (and `npm start` in this repository): starts the emulator and keeps it running until stopped.
 * It needs nothing installed besides the package: its server packages are bundled with it, and its
 * SQLite engine is Node's own, better-sqlite3 when installed, or the bundled WebAssembly one.
 */
import { parseArgs } from 'node:util';
import { sitePoolProblem } from '../emulator/sites/site-pool-size.js';
import { ENGINE_NAMES, isEngineChoice } from '../emulator/store/engine-names.js';
import { type CommandIo, UsageError } from './command-io.js';

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
  --engine <name>     the SQLite engine: auto (default: node:sqlite on Node 22.13+, else
                      better-sqlite3 when installed, else wasm), node:sqlite, better-sqlite3, or
                      wasm (WebAssembly, any Node, with --memory only)
  --seed <file.json>  on first start, load this state (GET /_emulator/export format) instead of
                      the demo data
  --site-pool <n>     sites' key pairs to make ahead, from the start, in the background, so that
                      sites made on demand (POST /_emulator/sites) need not wait for one (default 8;
                      0: each site makes its own when made)
  -h, --help          show this help

Other commands (sitekit-sdk <command> --help):
  emulator trigger    send a signed webhook event from a running emulator
  snapshot            save, restore, list or remove a running emulator's named snapshots
  types               write the TypeScript types of a site's collections
  pull                copy a live site into a file the emulator loads (--seed)
  verify              compare a live site with the emulator and the schema (or replay a recording)
`;

/** The `emulator` command's options (throws on an unknown or malformed one). */
function parseEmulatorArgs(args: string[]) {
  const options = {
    port: { type: 'string' },
    host: { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'control-origin': { type: 'string', multiple: true },
    'data-dir': { type: 'string' },
    memory: { type: 'boolean' },
    engine: { type: 'string' },
    seed: { type: 'string' },
    'site-pool': { type: 'string' },
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
  const engine = values.engine ?? 'auto';
  if (!isEngineChoice(engine))
    throw new UsageError(`--engine must be auto, ${ENGINE_NAMES.join(', ')} (got ${values.engine})`);

  // Not given: startEmulator's default, 8 key pairs made from the start while the server waits.
  const sitePool = values['site-pool'] === undefined ? undefined : Number(values['site-pool']);
  const poolProblem = sitePool === undefined ? undefined : sitePoolProblem(sitePool);
  if (poolProblem) throw new UsageError(`--site-pool ${poolProblem} (got ${values['site-pool']})`);

  const { startEmulator, StoreEngineError } = await import('../emulator/index.js');
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
      engine,
      seed: values.seed,
      sitePool,
    });
  } catch (error) {
    if (error instanceof StoreEngineError) {
      io.stderr(`The emulator cannot start: ${error.message}.\n`);
      return 1;
    }
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
      `  engine:    ${info.engine}`,
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
