/**
 * Snapshots of an emulator made in-process (`createEmulator()`, every socket of the process
 * forbidden): saved and restored through `emulator.fetch`, media bytes included.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../../emulator/index.js';
import { ApiKeyStrategy, createClient } from '../../../src/index.js';
import { forbidSockets } from '../../helpers/no-sockets.js';
import { testEngine } from '../../helpers/engine.js';

forbidSockets();

let emulator: InProcessEmulator;
beforeAll(async () => {
  emulator = await createEmulator({ engine: testEngine });
});
afterAll(() => emulator?.close());

const admin = () =>
  createClient({
    baseUrl: emulator.info.url,
    fetch: emulator.fetch,
    auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
  });

it('restores items and media bytes as saved, with no socket opened', async () => {
  const bytes = Buffer.from('bytes of an in-process emulator');
  const file = await admin().media.upload(new Blob([bytes], { type: 'text/plain' }), { fileName: 'kept.txt' });
  await admin().items.insert('Movies', { _id: 'kept', title: 'Kept' });
  await emulator.snapshots.save('in-process');

  await admin().items.remove('Movies', 'kept');
  await admin().media.bulkDeleteFiles([file._id!], { permanent: true });
  await emulator.snapshots.restore('in-process');

  expect((await admin().items.get('Movies', 'kept'))?.title).toBe('Kept');
  const { downloadUrls } = await admin().media.generateFileDownloadUrl(file._id!);
  const downloaded = await emulator.fetch(downloadUrls![0]!.url!);
  expect(Buffer.from(await downloaded.arrayBuffer())).toEqual(bytes);
  expect((await emulator.snapshots.list()).map((snapshot) => snapshot.name)).toEqual(['in-process']);
});
