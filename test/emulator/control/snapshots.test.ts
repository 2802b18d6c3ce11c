/**
 * Named snapshots (issue 30, item 2): a restore brings back the items, members, config and media
 * bytes as saved, forgets what came after (a collection, sessions opened since), leaves the test
 * bench's controls alone, and survives a restart on disk; names are path segments, checked.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApplicationError, isValidationError } from '../../../src/index.js';
import { MAX_SNAPSHOTS } from '../../../emulator/control/snapshots.js';
import { bytesPath } from '../../../emulator/services/media/file-store.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { testEngineHoldsFiles } from '../../helpers/engine.js';
import { callJson } from '../../helpers/json-calls.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

/** Every item of Movies, by id. */
const movies = async () =>
  Object.fromEntries((await emulator.admin.items.query('Movies').find()).items.map((item) => [item._id, item]));
/** Every member, by id (FULL field set). */
const members = async () =>
  Object.fromEntries(
    (await emulator.admin.members.queryMembers({ fieldsets: ['FULL'] }).find()).items.map((member) => [
      member._id,
      member,
    ]),
  );
/** A file's bytes, downloaded as an app would. */
async function downloadBytes(site: TestEmulator, fileId: string): Promise<Buffer> {
  const { downloadUrls } = await site.admin.media.generateFileDownloadUrl(fileId);
  const response = await fetch(downloadUrls![0]!.url!);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}
/** A control call without a body (what a browser's console sends: the header makes it deliberate). */
const controlPost = (path: string) => callJson(emulator, 'POST', path, { body: {} });

describe('a snapshot restored', () => {
  it('brings back items, members, config and media bytes as saved, and forgets what came after', async () => {
    const original = Buffer.from('the bytes as they were saved');
    const kept = await emulator.admin.media.upload(new Blob([original], { type: 'text/plain' }), {
      fileName: 'kept.txt',
    });
    const itemsBefore = await movies();
    const membersBefore = await members();
    const saved = await emulator.snapshots.save('before-changes');
    expect(saved).toMatchObject({ name: 'before-changes', replaced: false });
    expect(saved.sizeBytes).toBeGreaterThan(original.length);

    // Everything a test might do to the site afterwards.
    const [firstId, first] = Object.entries(itemsBefore)[0]!;
    await emulator.admin.items.update('Movies', { ...first, _id: firstId, title: 'Changed' });
    await emulator.admin.items.insert('Movies', { _id: 'added-later', title: 'Added later' });
    const removedMember = Object.keys(membersBefore)[0]!;
    await emulator.admin.members.deleteMember(removedMember);
    await emulator.config.update({ ownerApprovalRequired: true });
    await emulator.admin.collections.createDataCollection({ id: 'Later', fields: [] } as never);
    await emulator.admin.media.bulkDeleteFiles([kept._id!], { permanent: true });
    const added = await emulator.admin.media.upload(new Blob(['added later'], { type: 'text/plain' }), {
      fileName: 'added.txt',
    });

    const restored = await emulator.snapshots.restore('before-changes');
    expect(restored).toEqual({ name: 'before-changes', createdAt: saved.createdAt, sizeBytes: saved.sizeBytes });
    expect(await movies()).toEqual(itemsBefore);
    expect(await members()).toEqual(membersBefore);
    expect((await emulator.config.get()).ownerApprovalRequired).toBe(false);
    // The collections cache forgot the collection made after the snapshot.
    const missing = await failure(emulator.admin.items.query('Later').find());
    expect(isApplicationError(missing) && missing.code).toBe('WDE0025');
    // The bytes of a file deleted for good are back; a file uploaded since is gone, bytes too.
    expect(await downloadBytes(emulator, kept._id!)).toEqual(original);
    const gone = await failure(emulator.admin.media.getFileDescriptor(added._id!));
    expect(isApplicationError(gone) && gone.status).toBe(404);

    // Restored as often as wanted: a test's changes never reach the snapshot.
    await emulator.admin.items.remove('Movies', firstId);
    await emulator.snapshots.restore('before-changes');
    expect(await movies()).toEqual(itemsBefore);
  });

  it("rewrites a file's bytes that differ from the snapshot's, and only those", async () => {
    const saved = Buffer.from('0123456789');
    const file = await emulator.admin.media.upload(new Blob([saved], { type: 'text/plain' }), { fileName: 'same.txt' });
    await emulator.snapshots.save('bytes');
    const path = bytesPath(emulator.context, file._id!);
    // Same size, other bytes (an import that reused the id): the size alone does not tell.
    await writeFile(path, '9876543210');
    await emulator.snapshots.restore('bytes');
    expect(await readFile(path)).toEqual(saved);
    // Unchanged bytes are left as they are: the file is not written again.
    const { mtimeMs } = await stat(path);
    await emulator.snapshots.restore('bytes');
    expect((await stat(path)).mtimeMs).toBe(mtimeMs);
  });

  it('leaves the clock, the fault rules and the request log as they are', async () => {
    await emulator.snapshots.save('controls');
    const { offsetSeconds } = await emulator.clock.advance(3600);
    const { id } = await emulator.faults.add({ operation: 'items.query', status: 503 });
    try {
      await emulator.snapshots.restore('controls');
      expect((await emulator.clock.now()).offsetSeconds).toBe(offsetSeconds);
      expect((await emulator.faults.list()).map((rule) => rule.id)).toEqual([id]);
      const logged = await emulator.requests({ path: '/_emulator/snapshots/controls/restore' });
      expect(logged).toHaveLength(1);
    } finally {
      await emulator.faults.clear();
      await emulator.clock.reset();
    }
  });
});

describe('tokens and sessions across a restore', () => {
  const token = (body: Record<string, unknown>) =>
    callJson(emulator, 'POST', '/oauth2/token', { body: { clientId: emulator.info.clientId, ...body } });
  const myMember = (accessToken: string) =>
    callJson(emulator, 'GET', '/members/v1/members/my', { authorization: accessToken });

  it('ends the sessions opened after the snapshot and keeps those it holds', async () => {
    const before = await emulator.signInAs({ email: 'ada@example.com' });
    await emulator.snapshots.save('sessions');
    const after = await emulator.signInAs({ email: 'ada@example.com' });
    expect((await myMember(after.accessToken.value)).status).toBe(200);

    await emulator.snapshots.restore('sessions');
    // Opened after: its access token answers 401 and its refresh token is refused.
    expect((await myMember(after.accessToken.value)).status).toBe(401);
    expect((await token({ grantType: 'refresh_token', refreshToken: after.refreshToken.value })).status).toBe(400);
    // Held by the snapshot: still works, and renews.
    expect((await myMember(before.accessToken.value)).status).toBe(200);
    expect((await token({ grantType: 'refresh_token', refreshToken: before.refreshToken.value })).status).toBe(200);
  });

  it('opens again a session the snapshot holds that logged out since: the state is as saved', async () => {
    const tokens = await emulator.signInAs({ email: 'ada@example.com' });
    await emulator.snapshots.save('logged-in');
    const logout = await callJson(emulator, 'GET', '/_api/iam/authentication/v1/logout', {
      authorization: tokens.accessToken.value,
    });
    expect(logout.status).toBe(200);
    expect((await myMember(tokens.accessToken.value)).status).toBe(401);

    await emulator.snapshots.restore('logged-in');
    expect((await myMember(tokens.accessToken.value)).status).toBe(200);
  });
});

describe('the snapshot routes', () => {
  it('answer 201 to a save, list the snapshots oldest first, and replace a name saved again', async () => {
    const created = await callJson(emulator, 'POST', '/_emulator/snapshots', { body: { name: 'listed-1' } });
    expect(created.status).toBe(201);
    await emulator.snapshots.save('listed-2');
    const again = await emulator.snapshots.save('listed-1');
    expect(again.replaced).toBe(true);
    const listed = await emulator.snapshots.list();
    const names = listed.map((snapshot) => snapshot.name);
    expect(names.filter((name) => name.startsWith('listed-'))).toEqual(['listed-2', 'listed-1']);
    expect(listed.find((snapshot) => snapshot.name == 'listed-1')).toEqual({
      name: 'listed-1',
      createdAt: again.createdAt,
      sizeBytes: again.sizeBytes,
    });
    await emulator.snapshots.remove('listed-1');
    await emulator.snapshots.remove('listed-2');
    expect((await emulator.snapshots.list()).map((snapshot) => snapshot.name)).not.toContain('listed-1');
  });

  it('answer 404 in the control API error shape for an unknown name', async () => {
    for (const call of [emulator.snapshots.restore('no-such'), emulator.snapshots.remove('no-such')]) {
      const error = await failure(call);
      expect(isApplicationError(error) && [error.status, error.code]).toEqual([404, 'SNAPSHOT_NOT_FOUND']);
    }
    const raw = await controlPost('/_emulator/snapshots/no-such/restore');
    expect(raw.body.details.applicationError).toMatchObject({ code: 'SNAPSHOT_NOT_FOUND', data: { name: 'no-such' } });
  });

  it('refuse a name that is not a plain path segment, in the URL and in the body', async () => {
    const hostile = ['..', '.hidden', 'a/b', 'a\\b', '', 'x'.repeat(65), 'café', 'a b', '-dash-first'];
    for (const name of hostile) {
      const error = await failure(emulator.snapshots.save(name));
      expect(isValidationError(error), name).toBe(true);
    }
    for (const path of ['a%2Fb', '.hidden', 'a%00b', 'a%5Cb']) {
      const answer = await controlPost(`/_emulator/snapshots/${path}/restore`);
      expect([answer.status, answer.body.details.validationError.fieldViolations[0].field], path).toEqual([
        400,
        'name',
      ]);
    }
    // The router resolves `..` before any route sees it.
    expect((await controlPost('/_emulator/snapshots/%2E%2E/restore')).body.details.applicationError).toBeUndefined();
  });

  it('refuse a name differing from another only in case, and more than the limit of snapshots', async () => {
    await emulator.snapshots.save('Cased');
    const clash = await failure(emulator.snapshots.save('cased'));
    expect(isApplicationError(clash) && [clash.status, clash.code]).toEqual([409, 'SNAPSHOT_NAME_TAKEN']);
    await emulator.snapshots.remove('Cased');

    const existing = (await emulator.snapshots.list()).length;
    const names = Array.from({ length: MAX_SNAPSHOTS - existing }, (_, index) => `many-${index}`);
    for (const name of names) await emulator.snapshots.save(name);
    const tooMany = await failure(emulator.snapshots.save('one-more'));
    expect(isApplicationError(tooMany) && [tooMany.status, tooMany.code]).toEqual([409, 'TOO_MANY_SNAPSHOTS']);
    // Replacing one is not one more.
    expect((await emulator.snapshots.save(names[0]!)).replaced).toBe(true);
    for (const name of names) await emulator.snapshots.remove(name);
  });
});

/** Whether this run's engine keeps a data folder (the wasm engine keeps memory only: no snapshots on disk then). */
const holdsFiles = await testEngineHoldsFiles();

describe.skipIf(!holdsFiles)('snapshots on disk', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sitekit-snapshots-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('survive a restart, media bytes too, and a leftover of an unfinished save is cleared', async () => {
    const first = await startEmulator({ memory: false, dataDir });
    const bytes = Buffer.from('bytes kept across a restart');
    let fileId: string;
    let saved: { createdAt: string; sizeBytes: number };
    let itemsBefore: unknown[];
    try {
      fileId = (await first.admin.media.upload(new Blob([bytes], { type: 'text/plain' }), { fileName: 'disk.txt' }))
        ._id!;
      itemsBefore = (await first.admin.items.query('Movies').find()).items;
      saved = await first.snapshots.save('on-disk');
      await first.admin.media.bulkDeleteFiles([fileId], { permanent: true });
      await first.admin.items.insert('Movies', { _id: 'after-save', title: 'After' });
    } finally {
      await first.close();
    }
    // What a save killed half-way leaves behind.
    await mkdir(join(dataDir, 'snapshots', '.saving-killed'));

    const second = await startEmulator({ memory: false, dataDir });
    try {
      expect(await second.snapshots.list()).toEqual([
        { name: 'on-disk', createdAt: saved.createdAt, sizeBytes: saved.sizeBytes },
      ]);
      expect(existsSync(join(dataDir, 'snapshots', '.saving-killed'))).toBe(false);
      await second.snapshots.restore('on-disk');
      expect((await second.admin.items.query('Movies').find()).items).toEqual(itemsBefore);
      expect(await downloadBytes(second, fileId)).toEqual(bytes);

      await second.snapshots.remove('on-disk');
      expect(await readdir(join(dataDir, 'snapshots'))).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('refuses to restore a snapshot whose files were edited, saying so (409), and changes nothing', async () => {
    const emulatorOnDisk = await startEmulator({ memory: false, dataDir });
    try {
      await emulatorOnDisk.snapshots.save('edited');
      await emulatorOnDisk.close();
      await writeFile(join(dataDir, 'snapshots', 'edited', 'state.json'), '{"migrations": "not a list"}');
    } catch (error) {
      await emulatorOnDisk.close();
      throw error;
    }
    const restarted = await startEmulator({ memory: false, dataDir });
    try {
      const before = (await restarted.admin.items.query('Movies').find()).items;
      const error = await failure(restarted.snapshots.restore('edited'));
      expect(isApplicationError(error) && [error.status, error.code]).toEqual([409, 'SNAPSHOT_UNUSABLE']);
      expect((error as Error).message).toContain('migrations');
      expect((await restarted.admin.items.query('Movies').find()).items).toEqual(before);
    } finally {
      await restarted.close();
    }
  });
});
