/**
 * `sitekit-sdk pull`: copies a site (read-only, with an API key) into a file the emulator loads
 * (`sitekit-sdk emulator --seed <file>`, or `POST /_emulator/import`): collections with their
 * fields and permissions, their items (up to `--limit` each) and multi-references, members with
 * their personal data anonymized, and media file descriptors. Pages through the SDK (which
 * retries rate limits, 429 with `Retry-After`); after each page it saves where it is in a state
 * file next to the output, so a pull that stopped resumes there when run again.
 */
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { ApiKeyAuth, Client, DataCollection, Item } from '../src/index.js';
import { type CommandIo, UsageError } from './command-io.js';
import { connectToSite, SITE_OPTIONS, SITE_USAGE, type SiteArguments, type SitePolicy } from './site-connection.js';
import {
  anonymizeMember,
  emptyEntities,
  itemReferences,
  stateFile,
  wireCollection,
  wireFile,
  wireItemData,
  wireMember,
  type PulledEntities,
} from './site-copy.js';
import { downloadMediaFile, MAX_MEDIA_FILE_BYTES } from './media-download.js';
import { callRaw } from './raw-calls.js';
import { readCollections } from './site-schema.js';

/** The help of `sitekit-sdk pull`. */
export const PULL_USAGE = `Usage: sitekit-sdk pull --url <url> --api-key <key> --site-id <id> [options]

Copies a site, read-only, into a file the emulator loads: sitekit-sdk emulator --seed <file>
(or POST /_emulator/import). Members' personal data is anonymized unless --keep-personal-data.
Stopped midway (a failure, or Ctrl-C, which says what it kept), it resumes where it was when
run again with the same options. It says when it waits on the site's rate limit.

Options:
  --out <file>        the file to write (default sitekit-pull.json); its progress is kept in
                      <file>.progress.json
  --collections <a,b> only these collections (default: all)
  --limit <n>         at most n items per collection (default 1000)
  --no-members        leave members out
  --keep-personal-data
                      copy members' emails, names and phones as they are
  --media             also download the media files' bytes, into <file>.media/ (descriptors are
                      always copied); the emulator reads them on a first start with --seed <file>.
                      Each is streamed to disk, at most the size its descriptor says (4 GiB
                      without one)
  --allow-private     let --media download from loopback and private addresses (a site on this
                      machine or network); by default only public ones, whatever the site's
                      download URLs say
${SITE_USAGE}
  -h, --help          show this help
`;

/** Items and members per request. */
const PAGE_SIZE = 100;

/**
 * A pull waits for rate limits longer than a single call does: a whole site is many calls. A
 * call's total time limit (60 s by default) counts its waits between retries, so it is lifted:
 * each attempt keeps its own limit, and the retries are counted.
 */
export const PULL_CLIENT_POLICY: SitePolicy = { retry: { retries: 8, maxRetryAfterMs: 120_000 }, timeoutMs: 0 };

/** What the state file keeps: the options it was started with, how far each step got, and the entities so far. */
interface Progress {
  /** The options that decide the output: a run with other options starts over. */
  key: string;
  collectionIds?: string[];
  /** Collection ID → items read so far (a finished collection is marked `done`). */
  items: Record<string, { read: number; done?: boolean }>;
  members: { read: number; done?: boolean };
  media: { cursor?: string; done?: boolean };
  entities: PulledEntities;
}

/** Options of one pull, checked. */
interface PullOptions {
  out: string;
  collections?: string[];
  limit: number;
  members: boolean;
  anonymize: boolean;
  media: boolean;
  /** `--allow-private`: media downloads may reach loopback and private addresses. */
  allowPrivate: boolean;
}

function pullOptions(argv: string[]): (PullOptions & { site: SiteArguments }) | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...SITE_OPTIONS,
      out: { type: 'string' },
      collections: { type: 'string' },
      limit: { type: 'string' },
      'no-members': { type: 'boolean' },
      'keep-personal-data': { type: 'boolean' },
      media: { type: 'boolean' },
      'allow-private': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const limit = values.limit === undefined ? 1000 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 0) throw new UsageError('--limit must be a whole number');
  const collections = values.collections
    ?.split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return {
    site: values,
    out: values.out ?? 'sitekit-pull.json',
    collections,
    limit,
    members: !values['no-members'],
    anonymize: !values['keep-personal-data'],
    media: values.media ?? false,
    allowPrivate: values['allow-private'] ?? false,
  };
}

/** The state file of an output, and its saved progress (when it was made with the same options). */
async function loadProgress(path: string, key: string): Promise<Progress | undefined> {
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as Progress;
    return saved.key === key ? saved : undefined;
  } catch {
    // No progress file, or one that is not JSON: the pull starts over.
  }
  return undefined;
}

/**
 * How often, at most, the progress file is rewritten as pages come in: it holds every entity read so
 * far, so writing it after each page would cost a large site more than the pull itself.
 */
const SAVE_INTERVAL_MS = 2000;

/**
 * Writes the progress file: at once when `force`d, otherwise when the last write is older than
 * {@link SAVE_INTERVAL_MS}. Writes one after the other (a Ctrl-C's save may come during a page's).
 */
function progressSaver(path: string, progress: Progress): (force?: boolean) => Promise<void> {
  let lastWrite = 0;
  let writing = Promise.resolve();
  return (force = false) => {
    if (!force && Date.now() - lastWrite < SAVE_INTERVAL_MS) return writing;
    lastWrite = Date.now();
    writing = writing.then(() => writeAtomically(path, JSON.stringify(progress)));
    return writing;
  };
}

/** How many items a pull holds, in every collection. */
const itemCount = (entities: PulledEntities): number =>
  Object.values(entities.items).reduce((count, items) => count + items.length, 0);

/** What a pull has read so far, in words. */
function readSoFar(entities: PulledEntities): string {
  return `${entities.collections.length} collections, ${itemCount(entities)} items, ${entities.members.length} members, ${entities.files.length} media files`;
}

/** Writes a file whole or not at all (a crash mid-write leaves the previous one). */
async function writeAtomically(path: string, contents: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(`${path}.tmp`, contents);
  await rename(`${path}.tmp`, path);
}

/** Runs `pull`; resolves with the exit code. */
export async function pullCommand(argv: string[], io: CommandIo): Promise<number> {
  const options = pullOptions(argv);
  if (options === 'help') {
    io.stdout(PULL_USAGE);
    return 0;
  }
  const site = await connectToSite(options.site, io.env, PULL_CLIENT_POLICY, io.fetch, (line) =>
    io.stderr(`  ${line}\n`),
  );
  const progressPath = `${options.out}.progress.json`;
  const key = JSON.stringify({
    // The export format the progress holds: a progress of another one starts over.
    version: 2,
    site: site.description,
    collections: options.collections ?? null,
    limit: options.limit,
    members: options.members,
    anonymize: options.anonymize,
  });
  const resumed = await loadProgress(progressPath, key);
  const progress: Progress = resumed ?? {
    key,
    items: {},
    members: { read: 0 },
    media: {},
    entities: emptyEntities(),
  };
  io.stderr(resumed ? `resuming the pull of ${site.description} (${progressPath})\n` : `pulling ${site.description}\n`);
  const save = progressSaver(progressPath, progress);
  /** Keeps what was read for the next run; a pull stopped before it read anything leaves no file behind. */
  const keep = async () => {
    if (progress.collectionIds) await save(true);
    return progress.collectionIds
      ? `kept ${readSoFar(progress.entities)} in ${progressPath}: run the same command again to resume`
      : 'nothing was read, nothing kept';
  };
  const work = (async () => {
    const collections = await chosenCollections(site.client, options.collections);
    if (!progress.collectionIds) {
      // Stryker disable next-line ArrowFunction: only whether the IDs are there (the pull started) is read
      progress.collectionIds = collections.map((collection) => collection._id!);
      progress.entities.collections = collections.map(wireCollection);
    }
    for (const collection of collections) await pullItems(site.client, collection, options.limit, progress, save, io);
    if (options.members) await pullMembers(site.client, options.anonymize, progress, save, io);
    await pullMediaDescriptors(site.client, site.origin, progress, save, io);
    if (options.media) await downloadMedia(site.client, progress, `${options.out}.media`, options.allowPrivate, io);
    return 'done' as const;
  })();
  // Ctrl-C: the pages read so far are kept, and the command says what it kept (the page in flight is read again).
  const stopped = io.untilStopped?.().then(() => 'stopped' as const);
  let outcome: 'done' | 'stopped';
  try {
    outcome = await (stopped ? Promise.race([work, stopped]) : work);
  } catch (error) {
    // A collection the site does not have is a mistake in the command line (exit 2, with the help):
    // it is found before anything is read.
    if (error instanceof UsageError) throw error;
    // Whatever else stopped the pull, the pages read so far are kept for the next run.
    const kept = await keep();
    throw new Error(`${error instanceof Error ? error.message : String(error)} (${kept})`);
  }
  if (outcome === 'stopped') {
    work.catch(() => {});
    io.stderr(`stopped: ${await keep()}\n`);
    return 130;
  }

  await writeAtomically(options.out, `${JSON.stringify(stateFile(progress.entities, new Date()), null, 2)}\n`);
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: the file is there (the media step saves once at least); force only guards
  await rm(progressPath, { force: true });
  const { entities } = progress;
  io.stderr(
    `wrote ${options.out}: ${entities.collections.length} collections, ${itemCount(entities)} items, ${entities.references.length} references, ${entities.members.length} members${options.anonymize ? ' (anonymized)' : ''}, ${entities.files.length} media files\n` +
      `load it with: npx sitekit-sdk emulator --seed ${options.out}\n`,
  );
  return 0;
}

/** The collections to copy: those named (each must exist), or every one. */
async function chosenCollections(client: Client<ApiKeyAuth>, ids: string[] | undefined): Promise<DataCollection[]> {
  const all = await readCollections(client);
  if (!ids) return all;
  const missing = ids.filter((id) => !all.some((collection) => collection._id === id));
  if (missing.length) throw new UsageError(`--collections: the site has no collection ${missing.join(', ')}`);
  return ids.map((id) => all.find((collection) => collection._id === id)!);
}

/**
 * A collection's items, page after page, oldest first (`_createdDate`, then `_id`: items added
 * during the pull come last, so a resumed pull skips none), with the multi-references of each.
 */
async function pullItems(
  client: Client<ApiKeyAuth>,
  collection: DataCollection,
  limit: number,
  progress: Progress,
  save: (force?: boolean) => Promise<void>,
  io: CommandIo,
): Promise<void> {
  const id = collection._id!;
  const state = (progress.items[id] ??= { read: 0 });
  // Stryker disable next-line ArrayDeclaration: any list of other things than fields holds no multi-reference either
  const multiReferences = (collection.fields ?? []).filter((field) => field.type === 'MULTI_REFERENCE');
  while (!state.done && state.read < limit) {
    const page = await client.items
      .query<Item>(id)
      .ascending('_createdDate', '_id')
      .skip(state.read)
      .limit(Math.min(PAGE_SIZE, limit - state.read))
      .find();
    // A page counts once whole: its rows and the count of items read change together, so a pull
    // stopped midway through a page (its references are more requests) reads that page again.
    const items: PulledEntities['items'][string] = [];
    const references: PulledEntities['references'] = [];
    for (const item of page.items) {
      items.push(wireItemData(item));
      for (const field of multiReferences)
        references.push(
          ...itemReferences(id, field.key, item._id, await referencedIds(client, id, item._id, field.key)),
        );
    }
    (progress.entities.items[id] ??= []).push(...items);
    progress.entities.references.push(...references);
    state.read += page.items.length;
    if (!page.hasNext() || page.items.length === 0) state.done = true;
    await save();
    io.stderr(`  ${id}: ${state.read} items\n`);
  }
  // Stryker disable next-line BooleanLiteral: a collection read up to --limit is not read again either way (the key holds the limit)
  state.done = true;
}

/** The IDs an item's multi-reference field refers to, in order, every page of them. */
async function referencedIds(
  client: Client<ApiKeyAuth>,
  collectionId: string,
  itemId: string,
  field: string,
): Promise<string[]> {
  const ids: string[] = [];
  // Stryker disable next-line ObjectLiteral: the SDK's default page is smaller: more requests, the same IDs
  let page = await client.items.queryReferenced(collectionId, itemId, field, { limit: PAGE_SIZE });
  for (;;) {
    ids.push(...page.items.map((item) => item._id));
    if (!page.hasNext()) return ids;
    page = await page.next();
  }
}

/** Every member (full field set), anonymized unless told not to; `member-N` numbers follow the members' order. */
async function pullMembers(
  client: Client<ApiKeyAuth>,
  anonymize: boolean,
  progress: Progress,
  save: (force?: boolean) => Promise<void>,
  io: CommandIo,
): Promise<void> {
  const state = progress.members;
  while (!state.done) {
    const page = await client.members
      .queryMembers({ fieldsets: ['FULL'] })
      .ascending('_createdDate', '_id')
      .skip(state.read)
      .limit(PAGE_SIZE)
      .find();
    page.items.forEach((member, index) => {
      const copy = anonymize ? anonymizeMember(member, state.read + index + 1) : member;
      progress.entities.members.push(wireMember(copy));
    });
    state.read += page.items.length;
    if (!page.hasNext() || page.items.length === 0) state.done = true;
    await save();
    io.stderr(`  members: ${state.read}${anonymize ? ' (anonymized)' : ''}\n`);
  }
}

/** The media files' descriptors, in every folder (the bytes stay on the site unless `--media`). */
async function pullMediaDescriptors(
  client: Client<ApiKeyAuth>,
  origin: string,
  progress: Progress,
  save: (force?: boolean) => Promise<void>,
  io: CommandIo,
): Promise<void> {
  const state = progress.media;
  while (!state.done) {
    // A search of the media root reaches the files of every folder under it (a listing, one
    // folder's). Read raw: the descriptors are copied as the site sent them (see wireFile).
    const answer = await callRaw(client, 'searchFiles', {
      rootFolder: 'MEDIA_ROOT',
      paging: { limit: PAGE_SIZE, ...(state.cursor && { cursor: state.cursor }) },
    });
    if (answer.status >= 300)
      throw new Error(
        `searching the media files answered ${answer.status} (${(answer.body as { code?: string }).code})`,
      );
    const page = answer.body as { files?: Record<string, unknown>[]; nextCursor?: { cursors?: { next?: string } } };
    for (const file of page.files ?? []) progress.entities.files.push(wireFile(file, origin));
    state.cursor = page.nextCursor?.cursors?.next ?? undefined;
    if (!state.cursor || !page.files?.length) state.done = true;
    await save();
    io.stderr(`  media: ${progress.entities.files.length} file descriptors\n`);
  }
}

/**
 * Downloads every copied media file's bytes into `dir` (`<file ID>` each); files already there are
 * skipped. The site's download URLs are followed as `media-download.ts` allows: public addresses
 * only unless `allowPrivate`, streamed to disk, at most the size the descriptor says.
 */
async function downloadMedia(
  client: Client<ApiKeyAuth>,
  progress: Progress,
  dir: string,
  allowPrivate: boolean,
  io: CommandIo,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  let count = 0;
  for (const file of progress.entities.files) {
    const fileId = file.id as string;
    const target = `${dir}/${encodeURIComponent(fileId)}`;
    // Whether it is there, without reading it (a file may be gigabytes).
    const downloaded = await access(target).then(
      () => true,
      // Stryker disable next-line ArrowFunction: undefined is as false as false here
      () => false,
    );
    if (downloaded) continue;
    const { downloadUrls } = await client.media.generateFileDownloadUrl(fileId);
    const url = downloadUrls?.[0]?.url;
    if (!url) throw new Error(`the site gave no download URL for media file ${fileId}`);
    const described = Number(file.sizeInBytes);
    const maxBytes = described > 0 ? Math.min(described, MAX_MEDIA_FILE_BYTES) : MAX_MEDIA_FILE_BYTES;
    await downloadMediaFile(url, target, `media file ${fileId}`, { allowPrivate, maxBytes });
    io.stderr(`  media bytes: ${++count} of ${progress.entities.files.length}\n`);
  }
}
