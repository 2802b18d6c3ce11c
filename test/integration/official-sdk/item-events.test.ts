/**
 * Item events ported unchanged: the emulator delivers an item's created, updated and deleted
 * events; the official SDK's `items.onDataItem…` handlers and ours receive each one, and every key
 * of the official event is in ours with the same kind: the entity is `{_id, dataCollectionId, data}`
 * on both sides.
 */
import { items } from '@wix/data';
import { AppStrategy, createClient as createOfficialClient } from '@wix/sdk';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ApiKeyStrategy, createClient } from '../../../src/index.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { setConfig } from '../../helpers/sign-in.js';
import { missingShape } from './result-shapes.js';

let emulator: TestEmulator;
let receiver: Server;
/** The JWT bodies the emulator delivered, in order. */
const bodies: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
  receiver = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    bodies.push(body);
    response.writeHead(200).end();
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const { port } = receiver.address() as AddressInfo;
  await setConfig(emulator, { webhookUrls: [`http://127.0.0.1:${port}/hooks`] });
});
afterAll(async () => {
  await emulator?.close();
  receiver?.close();
});

it('the official handlers and ours receive the same item events, entity as {_id, dataCollectionId, data}', async () => {
  const { publicKey, apiKey, siteId } = emulator.info;
  const official = createOfficialClient({ modules: { items }, auth: AppStrategy({ appId: 'app', publicKey }) });
  const ours = createClient({
    baseUrl: emulator.url,
    auth: ApiKeyStrategy({ apiKey, siteId }),
    webhooks: { publicKey },
  });
  const officialEvents: Record<string, any> = {};
  const ourEvents: Record<string, any> = {};
  official.items.onDataItemCreated((event) => void (officialEvents.created = event));
  official.items.onDataItemUpdated((event) => void (officialEvents.updated = event));
  official.items.onDataItemDeleted((event) => void (officialEvents.deleted = event));
  ours.items.onDataItemCreated((event) => void (ourEvents.created = event));
  ours.items.onDataItemUpdated((event) => void (ourEvents.updated = event));
  ours.items.onDataItemDeleted((event) => void (ourEvents.deleted = event));

  const item = await emulator.admin.items.insert('Movies', { title: 'Evented', year: 2001 });
  await emulator.admin.items.update('Movies', { ...item, title: 'Evented again' });
  await emulator.admin.items.remove('Movies', item._id);
  await vi.waitFor(() => expect(bodies).toHaveLength(3), { timeout: 10_000, interval: 20 });
  for (const body of bodies) {
    await official.webhooks.process(body);
    await ours.webhooks.process(body);
  }

  expect(Object.keys(officialEvents).sort()).toEqual(['created', 'deleted', 'updated']);
  for (const kind of ['created', 'updated', 'deleted']) {
    expect(missingShape(officialEvents[kind], ourEvents[kind], kind)).toEqual([]);
    expect(ourEvents[kind].entity).toMatchObject({ _id: item._id, dataCollectionId: 'Movies' });
    expect(ourEvents[kind].entity._id).toBe(officialEvents[kind].entity._id);
  }
  expect(ourEvents.created.entity.data).toMatchObject({ _id: item._id, title: 'Evented', year: 2001 });
  expect(ourEvents.created.entity.data._createdDate).toBeInstanceOf(Date);
  expect(ourEvents.updated.entity.data.title).toBe('Evented again');
});
