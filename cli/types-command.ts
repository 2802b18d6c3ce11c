/**
 * `sitekit-sdk types`: writes the TypeScript file of a site's collections (./site-types.ts),
 * checks it (`--check`) or keeps it current (`--watch`).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { type CommandIo, UsageError } from './command-io.js';
import { connectToSite, SITE_OPTIONS, SITE_USAGE, type SiteConnection } from './site-connection.js';
import { readCollections, sampleUndeclaredFields } from './site-schema.js';
import { siteTypesFile } from './site-types.js';
import { describeChanges } from './types-changes.js';

/** The help of `sitekit-sdk types`. */
export const TYPES_USAGE = `Usage: sitekit-sdk types [options]

Writes one TypeScript file with an interface per collection of the site, registered with the client:
client.items.query('Movies') is then typed by the Movies collection's fields, with no generic.
Reads the local emulator unless --url is given.

Options:
  --out <file>        the file to write (default src/site-types.ts)
  --sample <n>        also type the fields the first n items of each collection carry undeclared
  --check             write nothing; exit 1, naming what changed, when the file is stale
  --watch             keep running and rewrite the file when the collections change
  --interval <ms>     how often --watch reads the collections (default 2000)
${SITE_USAGE}
  -h, --help          show this help
`;

/** The file's contents for the site as it is now. */
async function generate(site: SiteConnection, sample: number | undefined): Promise<string> {
  const collections = await readCollections(site.client);
  const sampled = sample ? await sampleUndeclaredFields(site.client, collections, sample) : undefined;
  return siteTypesFile(collections, { sampled });
}

/** The file as it is on disk, or `undefined` when there is none. */
async function readCurrent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const positiveInteger = (value: string | undefined, option: string): number | undefined => {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new UsageError(`${option} must be a whole number of at least 1`);
  return number;
};

/** Runs `types` with its arguments; resolves with the exit code. */
export async function typesCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...SITE_OPTIONS,
      out: { type: 'string' },
      sample: { type: 'string' },
      check: { type: 'boolean' },
      watch: { type: 'boolean' },
      interval: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(TYPES_USAGE);
    return 0;
  }
  if (values.check && values.watch) throw new UsageError('--check and --watch do not go together');
  const sample = positiveInteger(values.sample, '--sample');
  const interval = positiveInteger(values.interval, '--interval') ?? 2000;
  const out = values.out ?? 'src/site-types.ts';
  const site = await connectToSite(values, io.env, {}, io.fetch, (line) => io.stderr(`${line}\n`));

  const next = await generate(site, sample);
  const current = await readCurrent(out);
  if (values.check) {
    if (current === next) {
      io.stderr(`${out} is up to date with ${site.description}.\n`);
      return 0;
    }
    const changes = current === undefined ? [`${out} does not exist`] : describeChanges(current, next);
    io.stderr(
      `${out} is stale (${site.description} changed):\n${changes.map((change) => `  - ${change}\n`).join('')}Run sitekit-sdk types to update it.\n`,
    );
    return 1;
  }
  let written = current;
  const write = async (source: string) => {
    if (source === written) return;
    const changes = written === undefined ? [] : describeChanges(written, source);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, source);
    written = source;
    io.stderr(`wrote ${out} from ${site.description}${changes.length ? `: ${changes.join('; ')}` : ''}\n`);
  };
  await write(next);
  if (written === current && !values.watch) io.stderr(`${out} is up to date with ${site.description}.\n`);
  if (!values.watch) return 0;

  io.stderr(`watching ${site.description} every ${interval} ms (Ctrl-C to stop)\n`);
  let stop = false;
  const stopped = io.untilStopped?.().then(() => {
    stop = true;
  });
  /** Why the last read failed, while the site is away: said once when it goes, once when it is back. */
  let away: string | undefined;
  while (!stop) {
    await Promise.race([new Promise((resolve) => setTimeout(resolve, interval)), stopped]);
    if (stop) break;
    try {
      const source = await generate(site, sample);
      if (away !== undefined) io.stderr(`${site.description} is back\n`);
      away = undefined;
      await write(source);
    } catch (error) {
      // The emulator restarting is no reason to stop watching: say so once and try again each time.
      if (away === undefined)
        io.stderr(
          `${site.description} stopped answering (${error instanceof Error ? error.message : String(error)}); still watching\n`,
        );
      away = error instanceof Error ? error.message : String(error);
    }
  }
  return 0;
}
