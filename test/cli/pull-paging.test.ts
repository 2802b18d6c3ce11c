/**
 * `sitekit-sdk pull` of a site where every kind of entity takes more than one page (pull reads 100
 * per request): 130 members, 120 media files, and an item whose multi-reference holds 120 items.
 * Each is copied whole, once, in the site's order, and the anonymized members' numbers go on
 * across pages (two members never share an email).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CommandIo } from '../../cli/command-io.js';
import { runCommand } from '../../cli/commands.js';
import type { SiteExport } from '../../emulator/control/api.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

const MEMBERS = 130;
const FILES = 120;
const BOOKS = 120;

let site: TestEmulator;
let dir: string;

/** `n` as three digits, so that IDs sort as numbers do. */
const padded = (n: number) => String(n).padStart(3, '0');

/** The members and media files of the site, in wire form, each created a second after the one before. */
function crowdedState(): SiteExport {
  const at = (n: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString();
  return {
    format: 'sitekit-emulator-state',
    version: 2,
    exportedAt: at(0),
    collections: [],
    items: {},
    references: [],
    // IDs in the reverse of the creation order: the numbers follow the members' order, not their IDs'.
    members: Array.from({ length: MEMBERS }, (_, n) => ({
      id: `m-${padded(MEMBERS - n)}`,
      loginEmail: `person-${n + 1}@real.example`,
      status: 'APPROVED',
      profile: { nickname: `Person ${n + 1}`, slug: `person-${n + 1}` },
      createdDate: at(n + 1),
      updatedDate: at(n + 1),
    })),
    identities: [],
    files: Array.from({ length: FILES }, (_, n) => ({
      id: `file-${padded(n + 1)}`,
      displayName: `file ${n + 1}.txt`,
      mediaType: 'DOCUMENT',
      sizeInBytes: '3',
      createdDate: at(n + 1),
      updatedDate: at(n + 1),
    })),
    config: {},
  };
}

beforeAll(async () => {
  site = await startEmulator();
  dir = mkdtempSync(join(tmpdir(), 'sitekit-pull-paging-'));
  const imported = await site.fetch('/_emulator/import', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(crowdedState()),
  });
  expect(imported.status, await imported.clone().text()).toBe(200);
  const { admin } = site;
  await admin.collections.createDataCollection({ _id: 'Books', fields: [{ key: 'title', type: 'TEXT' }] });
  await admin.collections.createDataCollection({
    _id: 'Shelves',
    fields: [
      { key: 'books', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'Books' } } },
    ],
  });
  const books = Array.from({ length: BOOKS }, (_, n) => ({ _id: `b${padded(n + 1)}`, title: `Book ${n + 1}` }));
  await admin.items.bulkInsert('Books', books);
  await admin.items.insert('Shelves', { _id: 'shelf' });
  // The shelf's order is not the books' order: the copy keeps the shelf's.
  await admin.items.insertReference('Shelves', 'books', 'shelf', books.map((book) => book._id).reverse());
}, 60_000);
afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('copies every page of members, media files and references, the member numbers going on across pages', async () => {
  const out = join(dir, 'crowded.json');
  let stderr = '';
  const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {} };
  const args = ['--url', site.url, '--api-key', site.info.apiKey, '--site-id', site.info.siteId, '--out', out];
  expect(await runCommand(['pull', ...args], io), stderr).toBe(0);
  const pulled = JSON.parse(readFileSync(out, 'utf8')) as SiteExport;

  const emails = pulled.members.map((member) => member.loginEmail);
  expect(emails).toEqual(Array.from({ length: MEMBERS }, (_, n) => `member-${n + 1}@example.test`));
  // Member 1 is the oldest, whose ID sorts last.
  expect(pulled.members[0]).toMatchObject({ id: `m-${padded(MEMBERS)}`, profile: { slug: 'member-1' } });

  // The media search lists the newest first.
  expect(pulled.files.map((file) => file.id)).toEqual(
    Array.from({ length: FILES }, (_, n) => `file-${padded(FILES - n)}`),
  );

  expect(pulled.items.Books?.map((book) => book._id)).toEqual(
    Array.from({ length: BOOKS }, (_, n) => `b${padded(n + 1)}`),
  );
  expect(
    pulled.references
      .filter((reference) => reference.referringItemId == 'shelf')
      .map((reference) => reference.referencedItemId),
  ).toEqual(Array.from({ length: BOOKS }, (_, n) => `b${padded(BOOKS - n)}`));
}, 60_000);
