/**
 * `sitekit-sdk verify`: does the live site still answer what our schema and our emulator say?
 * Runs one scenario (./scenario.ts) against a live site and an emulator, compares the answers
 * (./verify-run.ts), checks the live ones against the schema, and prints each divergence; or
 * compares an emulator with a recording of an earlier run (`--replay`), offline.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { UsageError, type CommandIo } from '../command-io.js';
import { connectToSite, emulatorUrl, SITE_OPTIONS, SITE_USAGE, type SiteConnection } from '../site-connection.js';
import { readCollections } from '../site-schema.js';
import { readRecording, writeRecording } from './recording.js';
import {
  accountSteps,
  collectionSteps,
  scratchSteps,
  surveySteps,
  type CollectionFacts,
  type Json,
} from './scenario.js';
import { CallBudgetExceeded, countedFetch, SiteCaller, type CallCount } from './site-calls.js';
import { startSiteEmulator, type SiteEmulator } from './site-emulator.js';
import { describeResult, summaryLine } from './verify-report.js';
import { Interrupted, VerifyRun, type Site } from './verify-run.js';

/** Collections read when `--collections` does not say. */
const MAX_COLLECTIONS = 10;
const MAX_COLLECTIONS_TEXT = String(MAX_COLLECTIONS);
/** The live site's options (`--emulator` is the emulator compared with, said above). */
const SITE_USAGE_WITHOUT_EMULATOR = SITE_USAGE.split('\n')
  .filter((line) => !line.trimStart().startsWith('--emulator'))
  .join('\n');

/** The help of `sitekit-sdk verify`. */
export const VERIFY_USAGE = `Usage: sitekit-sdk verify --url <url> --api-key <key> --site-id <id> [options]
       sitekit-sdk verify --replay <dir> --emulator <url> [--out report.json]

Runs one scenario against a live site and against an emulator and compares the answers: reads of
the site's collections (get, a query per operator family, count, distinct, aggregate, references,
offset and cursor paging), the members listing (anonymized) and the media listing, and writes inside
a scratch collection it creates and removes (also on Ctrl-C). Every live answer is also checked
against the schema the SDK and the emulator are generated from. Prints each divergence and each
schema drift; exits with 1 when there is any.

Options:
  --emulator <url>      the running emulator to compare with (--against <url> says the same); default:
                        one started here, seeded from the site as sitekit-sdk pull copies it
  --collections <a,b>   the site's collections to read (default: all, at most ${MAX_COLLECTIONS_TEXT})
  --read-only           create no scratch collection: reads only
  --max-calls <n>       send at most n requests to the live site (default 400)
  --out <file>          also write the whole report as JSON
  --record <dir>        keep the live answers (normalized, members anonymized, no credentials) in <dir>
  --replay <dir>        compare --emulator with a recording instead of a live site: no credentials needed
${SITE_USAGE_WITHOUT_EMULATOR}
  -h, --help            show this help
`;

/** The command's streams, and how it waits (tests see the waits a rate limit asks for). */
export interface VerifyIo extends CommandIo {
  sleep?: (ms: number) => Promise<void>;
}

/** The options of one run, checked. */
interface VerifyOptions {
  site: { url?: string; 'api-key'?: string; 'site-id'?: string };
  /** The running emulator to compare with (`--emulator`); none: one started here. */
  emulator?: string;
  collections?: string[];
  readOnly: boolean;
  maxCalls: number;
  out?: string;
  record?: string;
  replay?: string;
}

function verifyOptions(argv: string[], env: Record<string, string | undefined>): VerifyOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...SITE_OPTIONS,
      // The issue's name for --emulator, kept as a synonym.
      against: { type: 'string' },
      collections: { type: 'string' },
      'read-only': { type: 'boolean' },
      'max-calls': { type: 'string' },
      out: { type: 'string' },
      record: { type: 'string' },
      replay: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  if (values.against !== undefined && values.emulator !== undefined)
    throw new UsageError('--against and --emulator say the same: give one');
  const emulatorOption = values.emulator ?? values.against;
  const maxCalls = values['max-calls'] === undefined ? 400 : Number(values['max-calls']);
  if (!Number.isInteger(maxCalls) || maxCalls < 1)
    throw new UsageError('--max-calls must be a whole number of at least 1');
  if (values.replay !== undefined) {
    if (emulatorOption === undefined) throw new UsageError('--replay needs --emulator <url>');
    if (values.url !== undefined || values.record !== undefined)
      throw new UsageError('--replay reads no live site: leave out --url and --record');
  } else if (values.url === undefined) throw new UsageError('verify needs --url (a live site) or --replay <dir>');
  const { url, 'api-key': apiKey, 'site-id': siteId } = values;
  return {
    site: { url, 'api-key': apiKey, 'site-id': siteId },
    // Named, or none: the default is an emulator of the site started here, not one at the usual address.
    emulator: emulatorOption === undefined ? undefined : emulatorUrl(emulatorOption, env),
    collections: values.collections
      ?.split(',')
      .map((id) => id.trim())
      .filter(Boolean),
    readOnly: values['read-only'] ?? false,
    maxCalls,
    out: values.out,
    record: values.record,
    replay: values.replay,
  };
}

/** A site of the run: its connection, and the caller that sends steps to it with `count`ed requests. */
function siteOf(connection: SiteConnection, scratchId: string, count: CallCount, io: VerifyIo): Site {
  const sleep = io.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return {
    description: connection.description,
    caller: new SiteCaller(connection.client, count, sleep),
    facts: { scratchId, origin: connection.origin },
  };
}

/**
 * The collections to read: those named (each must exist), or the first {@link MAX_COLLECTIONS}
 * (a line on stderr says so when the site has more).
 */
async function chosenCollections(
  connection: SiteConnection,
  ids: string[] | undefined,
  io: CommandIo,
): Promise<CollectionFacts[]> {
  const all = (await readCollections(connection.client)).map((collection) => ({
    id: collection._id!,
    fields: collection.fields?.map((field) => ({ key: field.key!, type: field.type })),
  }));
  if (!ids) {
    if (all.length > MAX_COLLECTIONS)
      io.stderr(`reading ${MAX_COLLECTIONS} of the site's ${all.length} collections; name others with --collections\n`);
    return all.slice(0, MAX_COLLECTIONS);
  }
  const missing = ids.filter((id) => !all.some((collection) => collection.id === id));
  if (missing.length) throw new UsageError(`--collections: the site has no collection ${missing.join(', ')}`);
  return ids.map((id) => all.find((collection) => collection.id === id)!);
}

/** The data items of a query answer (wire form), as planning reads them. */
const itemsOf = (body: unknown): Record<string, Json>[] =>
  ((body as { dataItems?: { data?: Record<string, Json> }[] } | undefined)?.dataItems ?? []).flatMap((item) =>
    item.data ? [item.data] : [],
  );

/** The live run: plans from the live site's answers as they come, and runs each step on both sites. */
async function runLive(run: VerifyRun, collections: readonly CollectionFacts[], readOnly: boolean): Promise<string> {
  for (const collection of collections) {
    const [survey] = surveySteps([collection.id]);
    const first = await run.step(survey!);
    for (const step of collectionSteps(collection, first && first.status < 300 ? itemsOf(first.body) : []))
      await run.step(step);
  }
  for (const step of accountSteps()) await run.step(step);
  if (readOnly) return 'read-only: no scratch collection (--read-only)';
  const [create, ...writes] = scratchSteps();
  const created = await run.step(create!);
  if (!created || created.status >= 300)
    return `read-only: the site refused to create the scratch collection (${created?.status ?? 'no answer'}), so the writes were not checked`;
  for (const step of writes) await run.step(step);
  return 'writes checked in a scratch collection, created and removed';
}

/** Runs `verify`; resolves with the exit code (0: the same, 1: any divergence or drift, 130: interrupted). */
export async function verifyCommand(argv: string[], io: VerifyIo): Promise<number> {
  const options = verifyOptions(argv, io.env);
  if (options === 'help') {
    io.stdout(VERIFY_USAGE);
    return 0;
  }
  const scratchId = `sitekit_verify_${randomBytes(4).toString('hex')}`;
  const count: CallCount = { sent: 0, waits: 0, budget: options.maxCalls };
  const fetchFunction = io.fetch ?? fetch;
  // Rate limits are waited out by the site caller, for every call (the SDK retries only reads).
  const policy = { retry: false as const };
  const live = options.replay
    ? undefined
    : await connectToSite(options.site, io.env, policy, countedFetch(fetchFunction, count));
  const recorded = options.replay ? await readRecording(options.replay) : undefined;
  const collections = live ? await chosenCollections(live, options.collections, io) : [];

  let started: SiteEmulator | undefined;
  let run: VerifyRun | undefined;
  let interrupted = false;
  /** Why the run stopped before its end, other than Ctrl-C. */
  let stoppedBy: string | undefined;
  let note = '';
  const problems: string[] = [];
  try {
    if (!options.emulator && live) {
      io.stderr(`copying ${live.description} into an emulator (pull)\n`);
      // The site as given (credentials from the options, or the environment pull reads too).
      const { url, 'api-key': apiKey, 'site-id': siteId } = options.site;
      const siteArguments = [
        '--url',
        url!,
        ...(apiKey === undefined ? [] : ['--api-key', apiKey]),
        ...(siteId === undefined ? [] : ['--site-id', siteId]),
      ];
      started = await startSiteEmulator(
        siteArguments,
        collections.map((collection) => collection.id),
        { ...io, fetch: countedFetch(fetchFunction, count) },
      );
    }
    const emulator = await connectToSite({ emulator: options.emulator ?? started!.url }, io.env, policy, fetchFunction);
    const emulatorCount: CallCount = { sent: 0, waits: 0, budget: Number.POSITIVE_INFINITY };
    run = new VerifyRun(
      live && siteOf(live, scratchId, count, io),
      siteOf(emulator, scratchId, emulatorCount, io),
      (result) => io.stdout(describeResult(result)),
    );
    const current = run;
    // Ctrl-C stops the run between two steps; the scratch collection is removed below.
    io.untilStopped?.().then(() => current.interrupt());
    io.stdout(`verifying ${live?.description ?? `the recording ${options.replay}`} against ${emulator.description}\n`);
    if (recorded) {
      for (const step of recorded) await run.replay(step);
      note = `replayed ${options.replay}`;
    } else note = await runLive(run, collections, options.readOnly);
  } catch (error) {
    if (error instanceof Interrupted) {
      interrupted = true;
      note = 'interrupted';
    } else if (error instanceof CallBudgetExceeded) {
      // Stopped as promised: what was compared so far is still reported.
      stoppedBy = error.message;
      note = `stopped: ${error.message}`;
      io.stderr(`${error.message}\n`);
    } else throw error;
  } finally {
    if (run) problems.push(...(await run.removeScratch()));
    await started?.close();
  }
  for (const problem of problems) io.stderr(`${problem}\n`);

  // Only a whole run is recorded: a replay of part of one would pass on fewer steps.
  if (options.record && run && !interrupted && !stoppedBy) await writeRecording(options.record, run.recorded);
  const summary = summaryLine(run?.results ?? [], live ? count : undefined, note);
  if (options.out)
    await writeFile(options.out, `${JSON.stringify({ scratchId, summary, steps: run?.results ?? [] }, null, 2)}\n`);
  io.stdout(`${summary}\n`);
  if (interrupted) return 130;
  const failed = run?.results.some((result) => result.outcome == 'different' || result.drift.length > 0);
  return failed || stoppedBy || problems.length ? 1 : 0;
}
