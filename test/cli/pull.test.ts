/**
 * `sitekit-sdk pull` between two in-process emulators: one stands in for the live site (read with
 * its API key, as a live site is), the other loads the pulled file (`POST /_emulator/import`).
 * Collections, items, references and members come back exactly, members anonymized with their IDs
 * kept; a rate limit (429 with `Retry-After`) is waited out; a pull stopped midway resumes and
 * gives the same file as one that never stopped.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiKeyAuth, Client, Item } from '../../src/index.js';
import type { CommandIo } from '../../cli/command-io.js';
import { runCommand } from '../../cli/commands.js';
import { PULL_USAGE } from '../../cli/pull-command.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';
import { addFilmCollections } from '../helpers/film-collections.js';

const COLLECTIONS = ['Directors', 'Films', 'Movies'];

/** The people of the live site: their personal data must not reach the pulled file. */
const PEOPLE = [
  {
    email: 'grace.hopper@navy.example',
    first: 'Grace',
    last: 'Hopper',
    phone: '+1 202 555 0143',
    nickname: 'Amazing Grace',
  },
  {
    email: 'alan.turing@bletchley.example',
    first: 'Alan',
    last: 'Turing',
    phone: '+44 20 7946 0958',
    nickname: 'Prof',
  },
  {
    email: 'ada@analytical.example',
    first: 'Augusta',
    last: 'Lovelace',
    phone: '+44 20 7946 0123',
    nickname: 'Enchantress',
  },
];

let live: TestEmulator;
let local: TestEmulator;
let dir: string;

/** Runs `pull` against the live stand-in (or `site`); its exit code and progress output. */
async function pull(
  args: string[],
  fetchFunction?: typeof fetch,
  from: TestEmulator = live,
): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {}, fetch: fetchFunction };
  const site = ['--url', from.url, '--api-key', from.info.apiKey, '--site-id', from.info.siteId];
  const code = await runCommand(['pull', ...site, ...args], io);
  return { code, stderr };
}

/** Every item of a collection, oldest first. */
async function allItems(client: Client<ApiKeyAuth>, collectionId: string): Promise<Item[]> {
  const found: Item[] = [];
  for await (const item of client.items.query<Item>(collectionId).ascending('_createdDate', '_id').limit(100).all())
    found.push(item);
  return found;
}

/** Every member, full field set, by ID. */
async function allMembers(client: Client<ApiKeyAuth>) {
  const page = await client.members
    .queryMembers({ fieldsets: ['FULL'] })
    .ascending('_id')
    .limit(100)
    .find();
  return page.items;
}

/** The pulled file's entities (what a second pull must reproduce; `exportedAt` aside). */
const entitiesOf = (path: string) => {
  const { exportedAt: _, ...entities } = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  return entities;
};

beforeAll(async () => {
  [live, local] = await Promise.all([startEmulator(), startEmulator()]);
  dir = mkdtempSync(join(tmpdir(), 'sitekit-pull-'));
  const { admin } = live;
  await addFilmCollections(admin);
  for (const person of PEOPLE)
    await admin.members.createMember({
      member: {
        loginEmail: person.email,
        profile: { nickname: person.nickname, title: `${person.first}'s title` },
        contact: {
          firstName: person.first,
          lastName: person.last,
          phones: [person.phone],
          emails: [person.email],
          addresses: [{ addressLine: `1 ${person.last} Road`, city: `${person.last}ville` }],
          company: `${person.last} & Co`,
          jobTitle: `${person.first}'s job`,
          birthdate: '1906-12-09',
        },
      },
    });
}, 60_000);
afterAll(async () => {
  await Promise.all([live?.close(), local?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('sitekit-sdk pull', () => {
  it('copies collections, items, references and anonymized members into a file the emulator imports', async () => {
    const out = join(dir, 'site.json');
    // The live site rate-limits the first items query once: the SDK waits for Retry-After and tries again.
    let limited = 0;
    const rateLimitedOnce: typeof fetch = async (input, init) => {
      if (limited === 0 && String(input instanceof Request ? input.url : input).includes('/items/query')) {
        limited++;
        return new Response(JSON.stringify({ message: 'Too many requests' }), {
          status: 429,
          headers: { 'Retry-After': '0', 'Content-Type': 'application/json' },
        });
      }
      return fetch(input, init);
    };
    const result = await pull(['--out', out, '--collections', COLLECTIONS.join(',')], rateLimitedOnce);
    expect(result.code, result.stderr).toBe(0);
    // No personal data of a member anywhere in the file, in whichever field the site kept it.
    const written = readFileSync(out, 'utf8');
    for (const person of PEOPLE)
      for (const personal of [
        person.email,
        person.phone,
        person.nickname,
        `"${person.first}"`,
        `"${person.last}"`,
        `${person.last} Road`,
        `${person.last}ville`,
        `${person.last} & Co`,
        `${person.first}'s`,
        '1906-12-09',
      ])
        expect(written).not.toContain(personal);
    expect(limited).toBe(1);
    // It says what it does: the wait, each page, and what it wrote.
    const pulled = JSON.parse(readFileSync(out, 'utf8')) as Record<'references' | 'members' | 'files', unknown[]> & {
      items: Record<string, unknown[]>;
    };
    expect(result.stderr).toContain('\n  rate-limited, waiting 0 s\n');
    expect(result.stderr).toContain('\n  Films: 7 items\n');
    expect(result.stderr).toContain(`\n  members: ${pulled.members.length} (anonymized)\n`);
    expect(result.stderr).toContain(`\n  media: ${pulled.files.length} file descriptors\n`);
    const wrote = `\nwrote ${out}: 3 collections, ${Object.values(pulled.items).flat().length} items, ${pulled.references.length} references, ${pulled.members.length} members (anonymized), ${pulled.files.length} media files\nload it with: npx sitekit-sdk emulator --seed ${out}\n`;
    expect(result.stderr.slice(-wrote.length)).toBe(wrote);
    expect(existsSync(`${out}.progress.json`)).toBe(false);

    const text = readFileSync(out, 'utf8');
    for (const person of PEOPLE)
      for (const personal of [person.email, person.first, person.last, person.phone, person.nickname])
        expect(text.includes(personal), personal).toBe(false);

    const imported = await local.fetch('/_emulator/import', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: text,
    });
    expect(imported.status, await imported.clone().text()).toBe(200);

    for (const id of COLLECTIONS) {
      expect(await local.admin.collections.getDataCollection(id)).toEqual(
        await live.admin.collections.getDataCollection(id),
      );
      expect(await allItems(local.admin, id)).toEqual(await allItems(live.admin, id));
    }
    expect((await allItems(local.admin, 'Movies')).length).toBe(300);
    for (const film of ['f1', 'f2', 'f3']) {
      const cast = async (emulator: TestEmulator) =>
        (await emulator.admin.items.queryReferenced('Films', film, 'cast')).items.map((item) => item._id);
      expect(await cast(local)).toEqual(await cast(live));
    }
    expect(await cast(local, 'f1')).toEqual(['d3', 'd1']);

    // Media descriptors too, their URLs on the copy's own origin.
    const { files } = await live.admin.media.listFiles();
    expect(files?.length).toBeGreaterThan(0);
    for (const file of files ?? []) {
      const onLive = JSON.stringify(await live.admin.media.getFileDescriptor(file._id!));
      const onCopy = JSON.stringify(await local.admin.media.getFileDescriptor(file._id!));
      expect(onCopy).toBe(onLive.replaceAll(live.url, local.url));
      // On the wire as well: the public form keeps a media reference without its URL.
      const wire = async (emulator: TestEmulator) =>
        JSON.stringify(
          await (
            await emulator.fetch(`/site-media/v1/files/get-file-by-id?fileId=${encodeURIComponent(file._id!)}`, {
              headers: { authorization: emulator.info.apiKey },
            })
          ).json(),
        );
      expect(await wire(local)).toBe((await wire(live)).replaceAll(live.url, local.url));
    }

    const liveMembers = await allMembers(live.admin);
    const localMembers = await allMembers(local.admin);
    expect(localMembers.map((member) => member._id)).toEqual(liveMembers.map((member) => member._id));
    localMembers.forEach((member, index) => {
      const original = liveMembers[index]!;
      expect(member.loginEmail).toMatch(/^member-\d+@example\.test$/);
      expect(member.profile?.nickname).toMatch(/^Member \d+$/);
      expect(member.profile?.slug).toMatch(/^member-\d+$/);
      // Everything that is not personal data is kept.
      expect(member).toMatchObject({
        status: original.status,
        privacyStatus: original.privacyStatus,
        activityStatus: original.activityStatus,
        _createdDate: original._createdDate,
      });
      for (const phone of member.contact?.phones ?? [])
        expect(PEOPLE.map((person) => person.phone)).not.toContain(phone);
    });
    const emails = new Set(localMembers.map((member) => member.loginEmail));
    expect(emails.size).toBe(localMembers.length);
  }, 60_000);

  it("--media brings the files' bytes, which an emulator seeded with the file serves", async () => {
    const out = join(dir, 'with-media.json');
    // The live stand-in is on this machine: its download URLs are loopback ones.
    const args = ['--out', out, '--collections', 'Directors', '--no-members', '--media', '--allow-private'];
    const result = await pull(args);
    expect(result.code, result.stderr).toBe(0);
    const { files } = await live.admin.media.listFiles();
    expect(files?.length).toBeGreaterThan(1);
    const seeded = await startEmulator({ seed: out });
    try {
      for (const file of files ?? []) {
        const bytes = async (emulator: TestEmulator) => {
          const { url } = await emulator.admin.media.getFileDescriptor(file._id!);
          return Buffer.from(await (await fetch(url!)).arrayBuffer());
        };
        const copied = await bytes(seeded);
        expect(copied.length).toBeGreaterThan(0);
        expect(copied.equals(await bytes(live))).toBe(true);
      }
    } finally {
      await seeded.close();
    }

    // Run again, it downloads only the files whose bytes are not there.
    const [removed] = readdirSync(`${out}.media`);
    rmSync(join(`${out}.media`, removed!));
    const again = await pull(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr.match(/media bytes: .*/g)).toEqual([`media bytes: 1 of ${files!.length}`]);
    expect(readdirSync(`${out}.media`)).toContain(removed);
  }, 60_000);

  it('--help prints the help, and reads nothing', async () => {
    let stdout = '';
    const io: CommandIo = { stdout: (text) => void (stdout += text), stderr: () => {}, env: {}, fetch: () => never() };
    expect(await runCommand(['pull', '--help'], io)).toBe(0);
    expect(stdout).toBe(PULL_USAGE);
  });

  it('a mistake in the command line is a usage error (2), printed with the help', async () => {
    for (const [args, message] of [
      [['--limit=-1'], '--limit must be a whole number'],
      [['--limit', '2.5'], '--limit must be a whole number'],
      [['--limt', '5'], "Unknown option '--limt'"],
      [['--collections', 'Films,Nope,Gone'], '--collections: the site has no collection Nope, Gone\n'],
    ]) {
      const result = await pull(['--out', join(dir, 'mistake.json'), ...args!]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('Usage: sitekit-sdk pull');
    }
  });

  it('a pull that fails on its first read keeps no progress file, and says so', async () => {
    const out = join(dir, 'refused.json');
    let requests = 0;
    const refusing: typeof fetch = async (input, init) =>
      ++requests > 1 ? new Response(JSON.stringify({ message: 'forbidden' }), { status: 403 }) : fetch(input, init);
    const refused = await pull(['--out', out], refusing);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('forbidden');
    expect(refused.stderr).toContain('(nothing was read, nothing kept)');
    expect(existsSync(`${out}.progress.json`)).toBe(false);
  });

  it('Ctrl-C keeps the pages read so far and says what it kept', async () => {
    const out = join(dir, 'interrupted.json');
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let requests = 0;
    let stderr = '';
    const io: CommandIo = {
      stdout: () => {},
      stderr: (text) => void (stderr += text),
      env: {},
      untilStopped: () => stopped,
      // Ctrl-C during the 12th request, which then never ends (the process exits).
      fetch: async (input, init) => {
        if (++requests < 12) return fetch(input, init);
        stop();
        return new Promise<Response>(() => {});
      },
    };
    const site = ['--url', live.url, '--api-key', live.info.apiKey, '--site-id', live.info.siteId];
    const code = await runCommand(['pull', ...site, '--out', out, '--collections', 'Films,Movies'], io);
    expect(code).toBe(130);
    expect(stderr).toMatch(
      /stopped: kept 2 collections, \d+ items, 0 members, 0 media files in .+interrupted\.json\.progress\.json: run the same command again to resume\n$/,
    );
    expect(existsSync(`${out}.progress.json`)).toBe(true);
    expect(existsSync(out)).toBe(false);
  });

  it('resumes where it stopped, and the file is the one an uninterrupted pull writes', async () => {
    const args = ['--collections', 'Films,Movies', '--limit', '250'];
    const whole = join(dir, 'whole.json');
    let wholeRequests = 0;
    const counting: typeof fetch = async (input, init) => {
      wholeRequests++;
      return fetch(input, init);
    };
    expect((await pull(['--out', whole, ...args], counting)).code).toBe(0);
    // --limit 250: the 250 oldest Movies (the third page cut short), all 7 Films.
    const pulledIds = (collectionId: string) =>
      (entitiesOf(whole) as { items: Record<string, { _id: string }[]> }).items[collectionId]?.map((item) => item._id);
    const oldestIds = async (collectionId: string, count: number) =>
      (await allItems(live.admin, collectionId)).slice(0, count).map((item) => item._id);
    expect(pulledIds('Movies')).toEqual(await oldestIds('Movies', 250));
    expect(pulledIds('Films')).toEqual(await oldestIds('Films', 7));

    // The connection fails for good after some requests (the first checks that --url is the API):
    // within the Films page (its items' references are requests of their own), then after the first
    // Movies page. The pull stops, its progress saved.
    for (const [stopAfter, read] of [
      [6, { Films: 0, Movies: 0 }],
      [11, { Films: 7, Movies: 100 }],
    ] as const) {
      const out = join(dir, `resumed-${stopAfter}.json`);
      let requests = 0;
      const failing: typeof fetch = async (input, init) => {
        if (++requests > stopAfter) return new Response(JSON.stringify({ message: 'gone' }), { status: 400 });
        return fetch(input, init);
      };
      const stopped = await pull(['--out', out, ...args], failing);
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toContain('gone');
      expect(existsSync(out)).toBe(false);
      const saved = JSON.parse(readFileSync(`${out}.progress.json`, 'utf8')) as {
        items: Record<string, { read: number }>;
      };
      expect({ Films: saved.items.Films?.read ?? 0, Movies: saved.items.Movies?.read ?? 0 }).toEqual(read);

      let resumedRequests = 0;
      const countingResumed: typeof fetch = async (input, init) => {
        resumedRequests++;
        return fetch(input, init);
      };
      const resumed = await pull(['--out', out, ...args], countingResumed);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain('resuming');
      expect(entitiesOf(out)).toEqual(entitiesOf(whole));
      expect(existsSync(`${out}.progress.json`)).toBe(false);
      // What was read before the stop is not read again.
      if (read.Movies > 0) expect(resumedRequests).toBeLessThan(wholeRequests);
    }
  }, 60_000);

  it('resumes only a pull of the same choices: stopped anonymized, run again with --keep-personal-data, it starts over', async () => {
    const out = join(dir, 'personal.json');
    const args = ['--out', out, '--collections', 'Directors'];
    // The members are read (anonymized), then the media listing fails: the progress keeps them.
    expect((await pull(args, failingMedia)).code).toBe(1);
    expect(readFileSync(`${out}.progress.json`, 'utf8')).toContain('member-1');

    const personal = await pull([...args, '--keep-personal-data']);
    expect(personal.code, personal.stderr).toBe(0);
    expect(personal.stderr).toMatch(/\n {2}members: \d+\n/);
    expect(personal.stderr).toMatch(/ \d+ members, \d+ media files\n/);
    expect(personal.stderr).not.toContain('resuming');
    const pulled = JSON.stringify(entitiesOf(out));
    for (const person of PEOPLE) expect(pulled).toContain(person.email);
  }, 60_000);

  it('saves its progress as pages come, at most every 2 s: a pull killed without a word keeps what it read until then', async () => {
    const out = join(dir, 'saved-as-it-goes.json');
    const progressPath = `${out}.progress.json`;
    /** Items read so far, by collection, as the progress file says now. */
    const saved = () =>
      existsSync(progressPath)
        ? Object.fromEntries(
            Object.entries(
              (JSON.parse(readFileSync(progressPath, 'utf8')) as { items: Record<string, { read: number }> }).items,
            ).map(([id, state]) => [id, state.read]),
          )
        : undefined;
    const seen: unknown[] = [];
    let moviesQueries = 0;
    // The test's clock stands still (the pull's pages come at one instant) until moved on.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const watching: typeof fetch = async (input, init) => {
        if (String(init?.body ?? '').includes('"Movies"')) {
          moviesQueries++;
          seen.push(saved());
          // Once the second page is read, the last write is 2 s old.
          if (moviesQueries == 2) vi.setSystemTime(Date.now() + 2000);
        }
        return fetch(input, init);
      };
      const result = await pull(['--out', out, '--collections', 'Films,Movies', '--no-members'], watching);
      expect(result.code, result.stderr).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    // The first page is saved at once; the next ones only once 2 s have passed since.
    expect(seen).toEqual([{ Films: 7 }, { Films: 7 }, { Films: 7, Movies: 200 }]);
  });

  it('--limit 0 copies the collections without their items; --collections may have spaces after its commas', async () => {
    const out = join(dir, 'schema-only.json');
    const result = await pull(['--out', out, '--collections', 'Films, Directors', '--limit', '0', '--no-members']);
    expect(result.code, result.stderr).toBe(0);
    const pulled = entitiesOf(out) as { collections: { id: string }[]; items: Record<string, unknown[]>; members: [] };
    expect(pulled.collections.map((collection) => collection.id)).toEqual(['Films', 'Directors']);
    expect(Object.values(pulled.items).flat()).toEqual([]);
    expect(pulled.members).toEqual([]);
  });

  it.each<[string, (out: string) => { args: string[]; from?: () => TestEmulator }]>([
    ['of another site', (out) => ({ args: ['--out', out, '--collections', 'Directors'], from: () => local })],
    ['with another --limit', (out) => ({ args: ['--out', out, '--collections', 'Directors', '--limit', '2'] })],
    ['with --no-members', (out) => ({ args: ['--out', out, '--collections', 'Directors', '--no-members'] })],
    ['of other --collections', (out) => ({ args: ['--out', out, '--collections', 'Directors,Films'] })],
  ])('does not resume a stopped pull in a run %s: it starts over', async (_, change) => {
    const out = join(dir, `other-choices-${Math.random().toString(36).slice(2)}.json`);
    // Stopped once its members are read: the media listing fails.
    expect((await pull(['--out', out, '--collections', 'Directors'], failingMedia)).code).toBe(1);
    expect(existsSync(`${out}.progress.json`)).toBe(true);
    const { args, from } = change(out);
    const again = await pull(args, failingMedia, from?.());
    expect(again.stderr).toMatch(/^pulling /);
    expect(again.stderr).not.toContain('resuming');
  });
});

/** A fetch for a command that must make no request. */
const never = (): Promise<Response> => {
  throw new Error('no request was expected');
};

/** A site's fetch whose media listing fails (a pull stops there, after the collections and members). */
const failingMedia: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url.includes('/site-media/')) return new Response(JSON.stringify({ message: 'gone' }), { status: 400 });
  return fetch(input, init);
};

/** The IDs a film's cast refers to, in order. */
async function cast(emulator: TestEmulator, film: string): Promise<string[]> {
  return (await emulator.admin.items.queryReferenced('Films', film, 'cast')).items.map((item) => item._id);
}
