import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { exportSPKI, generateKeyPair, importSPKI as realImportSPKI, SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { createClient } from '../../../src/client.js';
import {
  isRequestError,
  isSiteKitError,
  isWebhookError,
  RequestError,
  WebhookError,
  type WebhookErrorCode,
} from '../../../src/errors/index.js';
import type { DataCollection, FileDescriptor, Item, Member } from '../../../generated/models.js';
import {
  createEventRegistry,
  type DataItemDeletedEntity,
  type DataItemEntity,
  type EventRegistry,
  type MediaEvents,
  type NamespaceEvents,
  type ProcessedEvent,
} from '../../../src/events/index.js';
import { eagerOutputs } from '../../../scripts/eager-chunks.mjs';

// importSPKI wrapped in a spy, to see the key imported once per client. The SDK imports jose
// dynamically; vi.mock applies to that import too.
vi.mock('jose', async (importOriginal) => {
  const jose = await importOriginal<typeof import('jose')>();
  return { ...jose, importSPKI: vi.fn(jose.importSPKI) };
});

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ISO = '2024-01-02T03:04:05.000Z';
const DATE = new Date(ISO);

let privateKey: CryptoKey;
let publicKey: string;
let otherPrivateKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  publicKey = await exportSPKI(pair.publicKey);
  otherPrivateKey = (await generateKeyPair('RS256', { extractable: true })).privateKey;
});

// --- building events as the provider sends them ---------------------------------------------

interface EnvelopeInit {
  eventType: string;
  /** The domain event's `data`, stringified into the envelope unless it is already a string. */
  data: unknown;
  identity?: unknown;
  instanceId?: string;
}

const envelope = ({
  eventType,
  data,
  identity = { identityType: 'MEMBER', memberId: 'mem-9' },
  instanceId = 'inst-1',
}: EnvelopeInit) => ({
  eventType,
  instanceId,
  identity: typeof identity === 'string' ? identity : JSON.stringify(identity),
  data: typeof data === 'string' ? data : JSON.stringify(data),
});

/** Signs `claims` (default RS256 with the app's key, valid for an hour). */
async function signClaims(
  claims: Record<string, unknown>,
  key: CryptoKey = privateKey,
  exp: number | string = '1h',
): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).setIssuedAt().setExpirationTime(exp).sign(key);
}

/** A signed event: the `data` claim is the JSON string of the envelope. */
const sign = (init: EnvelopeInit, key?: CryptoKey, exp?: number | string) =>
  signClaims({ data: JSON.stringify(envelope(init)) }, key, exp);

/** The domain event `data` around one part, with its metadata fields. */
function domainEvent(eventType: string, part: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const [, entityFqdn, slug] =
    /^(.*?)_(created|updated|deleted|changed|cloned|file_ready|file_failed)$/.exec(eventType) ?? [];
  return { id: 'evt-1', entityFqdn, slug, entityId: 'entity-1', eventTime: ISO, ...extra, ...part };
}

// --- wire entities and their public forms ---------------------------------------------------

const WIRE = {
  collection: {
    id: 'Movies',
    displayName: 'Movies',
    createdDate: ISO,
    updatedDate: ISO,
    fields: [{ key: 'rating', type: 'NUMBER', numberRange: { min: 'NaN', max: 10 } }],
  },
  item: {
    id: 'item-1',
    dataCollectionId: 'Movies',
    data: { _id: 'item-1', title: 'Up', released: { $date: '2009-05-29T00:00:00.000Z' }, _createdDate: { $date: ISO } },
  },
  file: {
    id: 'file-1',
    displayName: 'cat.png',
    mediaType: 'IMAGE',
    createdDate: ISO,
    media: {
      image: { image: { id: 'cat.png', url: 'https://static.wixstatic.com/media/cat.png', width: 10, height: 20 } },
    },
  },
  member: {
    id: 'member-1',
    loginEmail: 'a@example.com',
    createdDate: ISO,
    lastLoginDate: ISO,
    profile: { nickname: 'Ann' },
  },
};

const expectPublicCollection = (entity: any) => {
  expect(entity).toMatchObject({ _id: 'Movies', displayName: 'Movies', _createdDate: DATE, _updatedDate: DATE });
  expect(entity.id).toBeUndefined();
  expect(entity.fields[0].numberRange.min).toBeNaN();
};
/** An item event's entity is the official payload's `{_id, dataCollectionId, data}`, the data in public form. */
const expectPublicItem = (entity: any) => {
  expect(entity).toEqual({
    _id: 'item-1',
    dataCollectionId: 'Movies',
    data: { _id: 'item-1', title: 'Up', released: new Date('2009-05-29T00:00:00.000Z'), _createdDate: DATE },
  });
};
const expectPublicFile = (entity: any) => {
  expect(entity).toMatchObject({ _id: 'file-1', displayName: 'cat.png', _createdDate: DATE });
  expect(entity.media.image.image).toMatch(/^wix:image:\/\/v1\/cat\.png\//);
};
const expectPublicMember = (entity: any) => {
  expect(entity).toMatchObject({
    _id: 'member-1',
    loginEmail: 'a@example.com',
    _createdDate: DATE,
    lastLoginDate: DATE,
    profile: { nickname: 'Ann' },
  });
};

type Kind = 'created' | 'updated' | 'deleted' | 'action';

/** The whole table: event type, namespace, method, shape, the wire entity and its public-form check. */
const TABLE: [string, keyof NamespaceEvents, string, Kind, unknown, (entity: any) => void][] = [
  [
    'wix.data.v2.data_collection_created',
    'collections',
    'onDataCollectionCreated',
    'created',
    WIRE.collection,
    expectPublicCollection,
  ],
  [
    'wix.data.v2.data_collection_updated',
    'collections',
    'onDataCollectionUpdated',
    'updated',
    WIRE.collection,
    expectPublicCollection,
  ],
  [
    'wix.data.v2.data_collection_deleted',
    'collections',
    'onDataCollectionDeleted',
    'deleted',
    WIRE.collection,
    expectPublicCollection,
  ],
  [
    'wix.data.v2.data_collection_changed',
    'collections',
    'onDataCollectionChanged',
    'action',
    WIRE.collection,
    expectPublicCollection,
  ],
  [
    'wix.data.v2.data_collection_cloned',
    'collections',
    'onDataCollectionCloned',
    'action',
    WIRE.collection,
    expectPublicCollection,
  ],
  ['wix.data.v2.data_item_created', 'items', 'onDataItemCreated', 'created', WIRE.item, expectPublicItem],
  ['wix.data.v2.data_item_updated', 'items', 'onDataItemUpdated', 'updated', WIRE.item, expectPublicItem],
  ['wix.data.v2.data_item_deleted', 'items', 'onDataItemDeleted', 'deleted', WIRE.item, expectPublicItem],
  [
    'wix.media.site_media.v1.file_descriptor_updated',
    'media',
    'onFileDescriptorUpdated',
    'updated',
    WIRE.file,
    expectPublicFile,
  ],
  [
    'wix.media.site_media.v1.file_descriptor_deleted',
    'media',
    'onFileDescriptorDeleted',
    'deleted',
    WIRE.file,
    expectPublicFile,
  ],
  [
    'wix.media.site_media.v1.file_descriptor_file_ready',
    'media',
    'onFileDescriptorFileReady',
    'action',
    WIRE.file,
    expectPublicFile,
  ],
  [
    'wix.media.site_media.v1.file_descriptor_file_failed',
    'media',
    'onFileDescriptorFileFailed',
    'action',
    WIRE.file,
    expectPublicFile,
  ],
  ['wix.members.v1.member_created', 'members', 'onMemberCreated', 'created', WIRE.member, expectPublicMember],
  ['wix.members.v1.member_updated', 'members', 'onMemberUpdated', 'updated', WIRE.member, expectPublicMember],
  ['wix.members.v1.member_deleted', 'members', 'onMemberDeleted', 'deleted', WIRE.member, expectPublicMember],
];

const PART: Record<Kind, (entity: unknown) => Record<string, unknown>> = {
  created: (entity) => ({ createdEvent: { entity } }),
  updated: (entity) => ({ updatedEvent: { currentEntity: entity, modifiedFields: { displayName: 'New' } } }),
  deleted: (entity) => ({ deletedEvent: { deletedEntity: entity } }),
  action: (entity) => ({ actionEvent: { body: entity } }),
};

const NAMESPACES = ['collections', 'items', 'media', 'members'] as const;

/** A registry with a spy on every `on...` method of every namespace. */
function spyAll(registry: EventRegistry = createEventRegistry({ publicKey })) {
  const spies: Record<string, ReturnType<typeof vi.fn>> = {};
  for (const namespace of NAMESPACES) {
    for (const [method, on] of Object.entries(
      registry.handlers(namespace) as unknown as Record<string, (h: unknown) => () => void>,
    )) {
      spies[method] = vi.fn();
      on(spies[method]);
    }
  }
  return { registry, spies, called: () => Object.keys(spies).filter((m) => spies[m]!.mock.calls.length > 0) };
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

async function expectWebhookError(promise: Promise<unknown>, code: WebhookErrorCode): Promise<WebhookError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(WebhookError);
  expect(isWebhookError(error)).toBe(true);
  expect(isSiteKitError(error)).toBe(true);
  expect(error.code).toBe(code);
  expect(error.message).not.toMatch(/\n/);
  return error;
}

// --- the bars ---------------------------------------------------------------------------------

describe('the bars', () => {
  it('a signed webhook reaches the right typed handler, and only it, with the entity in public form', async () => {
    const client = createClient({ webhooks: { publicKey } });
    const created = vi.fn();
    const updated = vi.fn();
    const collectionCreated = vi.fn();
    const memberCreated = vi.fn();
    (client.items as unknown as NamespaceEvents['items']).onDataItemCreated(created);
    (client.items as unknown as NamespaceEvents['items']).onDataItemUpdated(updated);
    (client.collections as unknown as NamespaceEvents['collections']).onDataCollectionCreated(collectionCreated);
    (client.members as unknown as NamespaceEvents['members']).onMemberCreated(memberCreated);

    const body = await sign({
      eventType: 'wix.data.v2.data_item_created',
      data: domainEvent('wix.data.v2.data_item_created', { createdEvent: { entity: WIRE.item } }),
    });
    const result = await client.webhooks.process(body);

    expect(created).toHaveBeenCalledTimes(1);
    expect(updated).not.toHaveBeenCalled();
    expect(collectionCreated).not.toHaveBeenCalled();
    expect(memberCreated).not.toHaveBeenCalled();
    const event = created.mock.calls[0]![0];
    expectPublicItem(event.entity);
    expect(event.entity.data._createdDate).toBeInstanceOf(Date);
    expect(event.entity.data.released).toBeInstanceOf(Date);
    // The collection is in the entity, as in the official payload; not beside it.
    expect(event).not.toHaveProperty('dataCollectionId');
    expect(event.metadata).toEqual({
      id: 'evt-1',
      _id: 'evt-1',
      entityFqdn: 'wix.data.v2.data_item',
      slug: 'created',
      entityId: 'entity-1',
      eventTime: DATE,
      eventType: 'wix.data.v2.data_item_created',
      instanceId: 'inst-1',
      identity: { identityType: 'MEMBER', memberId: 'mem-9' },
    });
    expect(event.modifiedFields).toBeUndefined();
    expect(result).toEqual({
      eventType: 'wix.data.v2.data_item_created',
      instanceId: 'inst-1',
      identity: { identityType: 'MEMBER', memberId: 'mem-9' },
      payload: event,
      handled: 1,
    });
  });

  it('a webhook signed with another key is rejected with INVALID_SIGNATURE and no handler runs', async () => {
    const { registry, called } = spyAll();
    const body = await sign(
      {
        eventType: 'wix.data.v2.data_item_created',
        data: domainEvent('wix.data.v2.data_item_created', { createdEvent: { entity: WIRE.item } }),
      },
      otherPrivateKey,
    );
    const error = await expectWebhookError(registry.webhooks.process(body), 'INVALID_SIGNATURE');
    expect(error.message).toMatch(/^webhooks: invalid signature/);
    expect(called()).toEqual([]);
  });
});

// --- dispatch ---------------------------------------------------------------------------------

describe('dispatch', () => {
  it.each(TABLE)('%s → %s.%s', async (eventType, namespace, method, kind, wire, expectPublic) => {
    const { registry, spies, called } = spyAll();
    expect(Object.keys(registry.handlers(namespace))).toContain(method);
    const body = await sign({ eventType, data: domainEvent(eventType, PART[kind](wire)) });
    const result = await registry.webhooks.process(body);
    expect(called()).toEqual([method]);
    const event = spies[method]!.mock.calls[0]![0];
    expectPublic(kind === 'action' ? event.data : event.entity);
    expect(event.metadata).toMatchObject({ eventType, instanceId: 'inst-1', entityId: 'entity-1', eventTime: DATE });
    if (kind === 'updated') expect(event.modifiedFields).toEqual({ displayName: 'New' });
    else expect(event).not.toHaveProperty('modifiedFields');
    expect(result.handled).toBe(1);
  });

  it('handlers are typed per event', () => {
    const registry = createEventRegistry({ publicKey });
    registry.handlers('items').onDataItemCreated((event) => {
      expectTypeOf(event.entity).toEqualTypeOf<DataItemEntity<Item>>();
      expectTypeOf(event.entity.dataCollectionId).toEqualTypeOf<string>();
      expectTypeOf(event.metadata.eventTime).toEqualTypeOf<Date | undefined>();
    });
    registry.handlers('collections').onDataCollectionUpdated((event) => {
      expectTypeOf(event.entity).toEqualTypeOf<DataCollection>();
      expectTypeOf(event.modifiedFields).toEqualTypeOf<Record<string, unknown> | undefined>();
    });
    registry
      .handlers('items')
      .onDataItemDeleted((event) =>
        expectTypeOf(event.entity).toEqualTypeOf<DataItemDeletedEntity<Item> | undefined>(),
      );
    registry
      .handlers('members')
      .onMemberDeleted((event) => expectTypeOf(event.entity).toEqualTypeOf<Member | undefined>());
    registry
      .handlers('media')
      .onFileDescriptorFileReady((event) => expectTypeOf(event.data.file).toEqualTypeOf<FileDescriptor | undefined>());
    expectTypeOf(registry.handlers('media')).toEqualTypeOf<MediaEvents>();
    expectTypeOf(registry.handlers('items').onDataItemCreated).returns.toEqualTypeOf<() => void>();
    // @ts-expect-error: not an event of items
    registry.handlers('items').onMemberCreated;
    expectTypeOf(registry.webhooks.process).returns.resolves.toEqualTypeOf<ProcessedEvent>();
  });

  it('every namespace has exactly the documented on... methods', () => {
    const registry = createEventRegistry({ publicKey });
    for (const namespace of NAMESPACES) {
      expect(Object.keys(registry.handlers(namespace)).sort()).toEqual(
        TABLE.filter((row) => row[1] === namespace)
          .map((row) => row[2])
          .sort(),
      );
    }
  });

  it('a deleted event may come without the entity', async () => {
    const { registry, spies } = spyAll();
    const eventType = 'wix.members.v1.member_deleted';
    await registry.webhooks.process(await sign({ eventType, data: domainEvent(eventType, { deletedEvent: {} }) }));
    const event = spies.onMemberDeleted!.mock.calls[0]![0];
    expect(event.entity).toBeUndefined();
    expect(event.metadata.entityId).toBe('entity-1');
  });

  it('a deleted item sent as its IDs alone is `{_id, dataCollectionId}`, as the official deleted entity', async () => {
    const { registry, spies } = spyAll();
    const eventType = 'wix.data.v2.data_item_deleted';
    const deletedEntity = { id: 'item-1', dataCollectionId: 'Movies' };
    await registry.webhooks.process(
      await sign({ eventType, data: domainEvent(eventType, { deletedEvent: { deletedEntity } }) }),
    );
    expect(spies.onDataItemDeleted!.mock.calls[0]![0].entity).toEqual({ _id: 'item-1', dataCollectionId: 'Movies' });
  });

  it('file ready with a `{file}` body: the descriptor in data.file is in public form; other fields pass', async () => {
    const { registry, spies } = spyAll();
    const eventType = 'wix.media.site_media.v1.file_descriptor_file_ready';
    const body = { file: WIRE.file, externalInfo: { origin: 'upload', externalIds: ['x'] } };
    await registry.webhooks.process(await sign({ eventType, data: domainEvent(eventType, { actionEvent: { body } }) }));
    const event = spies.onFileDescriptorFileReady!.mock.calls[0]![0];
    expectPublicFile(event.data.file);
    expect(event.data.externalInfo).toEqual({ origin: 'upload', externalIds: ['x'] });
    expect(event).not.toHaveProperty('entity');
  });

  it('updated events without modifiedFields have none; the handler still gets the current entity', async () => {
    const { registry, spies } = spyAll();
    const eventType = 'wix.members.v1.member_updated';
    await registry.webhooks.process(
      await sign({ eventType, data: domainEvent(eventType, { updatedEvent: { currentEntity: WIRE.member } }) }),
    );
    const event = spies.onMemberUpdated!.mock.calls[0]![0];
    expectPublicMember(event.entity);
    expect(event).not.toHaveProperty('modifiedFields');
  });

  it('metadata: triggeredByAnonymizeRequest and unknown fields pass through; the envelope wins over data for eventType', async () => {
    const { registry, spies } = spyAll();
    const eventType = 'wix.members.v1.member_created';
    const data = domainEvent(
      eventType,
      { createdEvent: { entity: WIRE.member } },
      { triggeredByAnonymizeRequest: true, originatedFrom: 'x', eventType: 'forged' },
    );
    await registry.webhooks.process(await sign({ eventType, data }));
    expect(spies.onMemberCreated!.mock.calls[0]![0].metadata).toMatchObject({
      triggeredByAnonymizeRequest: true,
      originatedFrom: 'x',
      eventType,
    });
  });

  it('identity is optional; an envelope without instanceId still dispatches', async () => {
    const { registry, spies } = spyAll();
    const eventType = 'wix.members.v1.member_created';
    const data = JSON.stringify(domainEvent(eventType, { createdEvent: { entity: WIRE.member } }));
    const body = await signClaims({ data: JSON.stringify({ eventType, data }) });
    const result = await registry.webhooks.process(body);
    expect(result.identity).toBeUndefined();
    expect(result.instanceId).toBeUndefined();
    expect(spies.onMemberCreated).toHaveBeenCalledTimes(1);
    const empty = await registry.webhooks.process(await sign({ eventType, data: JSON.parse(data), identity: '' }));
    expect(empty.identity).toBeUndefined();
    expect(spies.onMemberCreated!.mock.calls[1]![0].metadata.identity).toBeUndefined();
  });

  it('a known event with no handler registered resolves with handled 0', async () => {
    const registry = createEventRegistry({ publicKey });
    const eventType = 'wix.members.v1.member_created';
    const result = await registry.webhooks.process(
      await sign({ eventType, data: domainEvent(eventType, { createdEvent: { entity: WIRE.member } }) }),
    );
    expect(result).toMatchObject({ eventType, handled: 0 });
  });

  it('accepts the body as bytes (express.raw)', async () => {
    const { registry, spies } = spyAll();
    const eventType = 'wix.members.v1.member_created';
    const body = await sign({ eventType, data: domainEvent(eventType, { createdEvent: { entity: WIRE.member } }) });
    await registry.webhooks.process(Buffer.from(body));
    expect(spies.onMemberCreated).toHaveBeenCalledTimes(1);
  });

  it('registries are independent: one client never runs another client’s handlers', async () => {
    const a = spyAll();
    const b = spyAll();
    const eventType = 'wix.members.v1.member_created';
    await a.registry.webhooks.process(
      await sign({ eventType, data: domainEvent(eventType, { createdEvent: { entity: WIRE.member } }) }),
    );
    expect(a.called()).toEqual(['onMemberCreated']);
    expect(b.called()).toEqual([]);
  });
});

// --- handlers ---------------------------------------------------------------------------------

describe('handlers', () => {
  const eventType = 'wix.data.v2.data_item_created';
  const item = () => sign({ eventType, data: domainEvent(eventType, { createdEvent: { entity: WIRE.item } }) });

  it('unsubscribe removes the handler; calling it twice is harmless', async () => {
    const registry = createEventRegistry({ publicKey });
    const handler = vi.fn();
    const unsubscribe = registry.handlers('items').onDataItemCreated(handler);
    await registry.webhooks.process(await item());
    unsubscribe();
    unsubscribe();
    const result = await registry.webhooks.process(await item());
    expect(handler).toHaveBeenCalledTimes(1);
    expect(result.handled).toBe(0);
  });

  it('all handlers of one event run, async ones awaited before process resolves', async () => {
    const registry = createEventRegistry({ publicKey });
    const order: string[] = [];
    registry.handlers('items').onDataItemCreated(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('slow');
    });
    registry.handlers('items').onDataItemCreated(() => void order.push('sync'));
    const result = await registry.webhooks.process(await item());
    expect(order.sort()).toEqual(['slow', 'sync']);
    expect(result.handled).toBe(2);
  });

  it('the same function registered twice runs once', async () => {
    const registry = createEventRegistry({ publicKey });
    const handler = vi.fn();
    registry.handlers('items').onDataItemCreated(handler);
    registry.handlers('items').onDataItemCreated(handler);
    await registry.webhooks.process(await item());
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('a throwing handler: the others still run, and process rejects with the first failure as thrown', async () => {
    const registry = createEventRegistry({ publicKey });
    const first = new Error('first');
    const second = new Error('second');
    const after = vi.fn();
    registry.handlers('items').onDataItemCreated(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw first;
    });
    registry.handlers('items').onDataItemCreated(() => {
      throw second;
    });
    registry.handlers('items').onDataItemCreated(after);
    const error = await rejection(registry.webhooks.process(await item()));
    expect(error).toBe(first);
    expect(isWebhookError(error)).toBe(false);
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('a handler that is not a function is refused at registration with a RequestError', () => {
    const registry = createEventRegistry({ publicKey });
    expect(() => registry.handlers('items').onDataItemCreated('nope' as never)).toThrow(RequestError);
  });

  it('a handler unsubscribing another during dispatch: that one still runs this time, not the next', async () => {
    const registry = createEventRegistry({ publicKey });
    const second = vi.fn();
    registry.handlers('items').onDataItemCreated(() => unsubscribeSecond());
    const unsubscribeSecond = registry.handlers('items').onDataItemCreated(second);
    await registry.webhooks.process(await item());
    await registry.webhooks.process(await item());
    expect(second).toHaveBeenCalledTimes(1);
  });
});

// --- refusals ---------------------------------------------------------------------------------

describe('refusals', () => {
  const eventType = 'wix.members.v1.member_created';
  const data = () => domainEvent(eventType, { createdEvent: { entity: WIRE.member } });

  it('an expired token → EXPIRED', async () => {
    const { registry, called } = spyAll();
    await expectWebhookError(
      registry.webhooks.process(
        await sign({ eventType, data: data() }, privateKey, Math.floor(Date.now() / 1000) - 60),
      ),
      'EXPIRED',
    );
    expect(called()).toEqual([]);
  });

  it('alg none → INVALID_SIGNATURE', async () => {
    const { registry, called } = spyAll();
    const body = new UnsecuredJWT({ data: JSON.stringify(envelope({ eventType, data: data() })) })
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    await expectWebhookError(registry.webhooks.process(body), 'INVALID_SIGNATURE');
    expect(called()).toEqual([]);
  });

  it('HS256 signed with the public key as secret → INVALID_SIGNATURE', async () => {
    const { registry, called } = spyAll();
    const body = await new SignJWT({ data: JSON.stringify(envelope({ eventType, data: data() })) })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(publicKey));
    await expectWebhookError(registry.webhooks.process(body), 'INVALID_SIGNATURE');
    expect(called()).toEqual([]);
  });

  it('a tampered payload → INVALID_SIGNATURE', async () => {
    const { registry, called } = spyAll();
    const [header, , signature] = (await sign({ eventType, data: data() })).split('.');
    const forged = Buffer.from(
      JSON.stringify({ data: JSON.stringify(envelope({ eventType, data: data(), instanceId: 'evil' })) }),
    ).toString('base64url');
    await expectWebhookError(registry.webhooks.process(`${header}.${forged}.${signature}`), 'INVALID_SIGNATURE');
    expect(called()).toEqual([]);
  });

  it.each(['', 'not a jwt', 'a.b.c', '{"eventType":"wix.members.v1.member_created"}'])(
    'a body that is no JWT (%j) → INVALID_SIGNATURE',
    async (body) => {
      const { registry } = spyAll();
      await expectWebhookError(registry.webhooks.process(body), 'INVALID_SIGNATURE');
    },
  );

  it('a body that is not a string → RequestError', async () => {
    const registry = createEventRegistry({ publicKey });
    for (const body of [undefined, null, 42, {}]) {
      const error = await rejection(registry.webhooks.process(body as never));
      expect(isRequestError(error)).toBe(true);
    }
  });

  it('no public key → NO_PUBLIC_KEY, whatever the body', async () => {
    const body = await sign({ eventType, data: data() });
    await expectWebhookError(createEventRegistry().webhooks.process(body), 'NO_PUBLIC_KEY');
    await expectWebhookError(createClient().webhooks.process(body), 'NO_PUBLIC_KEY');
    await expectWebhookError(createEventRegistry({ publicKey: '' }).webhooks.process(body), 'NO_PUBLIC_KEY');
  });

  it('a public key that is not an SPKI PEM → NO_PUBLIC_KEY', async () => {
    const body = await sign({ eventType, data: data() });
    await expectWebhookError(createEventRegistry({ publicKey: 'not a key' }).webhooks.process(body), 'NO_PUBLIC_KEY');
  });

  it('the public key is imported once per client', async () => {
    const spy = vi.mocked(realImportSPKI);
    spy.mockClear();
    const registry = createEventRegistry({ publicKey });
    await registry.webhooks.process(await sign({ eventType, data: data() }));
    await registry.webhooks.process(await sign({ eventType, data: data() }));
    await rejection(registry.webhooks.process(await sign({ eventType, data: data() }, otherPrivateKey)));
    expect(spy).toHaveBeenCalledTimes(1);
  });

  describe('expectedEvents', () => {
    it('an event in the list is processed', async () => {
      const { registry, called } = spyAll();
      await registry.webhooks.process(await sign({ eventType, data: data() }), {
        expectedEvents: ['wix.members.v1.member_updated', eventType],
      });
      expect(called()).toEqual(['onMemberCreated']);
    });

    it('an event not in the list → UNEXPECTED_EVENT, no handler runs', async () => {
      const { registry, called } = spyAll();
      const error = await expectWebhookError(
        registry.webhooks.process(await sign({ eventType, data: data() }), {
          expectedEvents: ['wix.members.v1.member_updated'],
        }),
        'UNEXPECTED_EVENT',
      );
      expect(error.details).toEqual({ eventType });
      expect(called()).toEqual([]);
    });

    it('an empty list refuses everything', async () => {
      const { registry } = spyAll();
      await expectWebhookError(
        registry.webhooks.process(await sign({ eventType, data: data() }), { expectedEvents: [] }),
        'UNEXPECTED_EVENT',
      );
    });

    it('a list that is not an array → RequestError', async () => {
      const { registry } = spyAll();
      const error = await rejection(
        registry.webhooks.process(await sign({ eventType, data: data() }), { expectedEvents: eventType as never }),
      );
      expect(error).toBeInstanceOf(RequestError);
    });
  });

  it.each(['wix.stores.v1.product_created', 'wix.data.v2.data_item', 'constructor', '__proto__', 'toString'])(
    'an unknown event type %j → UNEXPECTED_EVENT',
    async (type) => {
      const { registry, called } = spyAll();
      await expectWebhookError(
        registry.webhooks.process(await sign({ eventType: type, data: data() })),
        'UNEXPECTED_EVENT',
      );
      expect(called()).toEqual([]);
    },
  );

  describe('malformed events → MALFORMED_EVENT, no handler runs', () => {
    const cases: [string, () => Promise<string>][] = [
      ['no data claim', () => signClaims({ other: 1 })],
      ['data claim not JSON', () => signClaims({ data: '{"eventType":' })],
      ['data claim a JSON array', () => signClaims({ data: '[1,2]' })],
      ['data claim a JSON string', () => signClaims({ data: '"text"' })],
      ['no eventType', () => signClaims({ data: JSON.stringify({ instanceId: 'i', data: JSON.stringify(data()) }) })],
      [
        'eventType not a string',
        () => signClaims({ data: JSON.stringify({ eventType: 7, data: JSON.stringify(data()) }) }),
      ],
      ['event data not JSON', () => sign({ eventType, data: '{oops' })],
      ['event data JSON null', () => sign({ eventType, data: 'null' })],
      ['identity not JSON', () => sign({ eventType, data: data(), identity: '{oops' })],
      ['no entityId', () => sign({ eventType, data: { ...data(), entityId: undefined } })],
      ['no id', () => sign({ eventType, data: { ...data(), id: 3 } })],
      ['no event part', () => sign({ eventType, data: { ...data(), createdEvent: undefined } })],
      ['createdEvent without entity', () => sign({ eventType, data: { ...data(), createdEvent: {} } })],
      ['createdEvent not an object', () => sign({ eventType, data: { ...data(), createdEvent: 'x' } })],
      [
        'updatedEvent without currentEntity',
        () =>
          sign({
            eventType: 'wix.members.v1.member_updated',
            data: domainEvent('wix.members.v1.member_updated', { updatedEvent: { modifiedFields: {} } }),
          }),
      ],
      ['entity not an object', () => sign({ eventType, data: { ...data(), createdEvent: { entity: [1] } } })],
      [
        'actionEvent without body',
        () =>
          sign({
            eventType: 'wix.media.site_media.v1.file_descriptor_file_ready',
            data: domainEvent('x_file_ready', { actionEvent: {} }),
          }),
      ],
    ];
    it.each(cases)('%s', async (_, body) => {
      const { registry, called } = spyAll();
      const error = await expectWebhookError(registry.webhooks.process(await body()), 'MALFORMED_EVENT');
      expect(error.message).toMatch(/^webhooks: malformed event \(.+\)$/);
      expect(called()).toEqual([]);
    });
  });

  it('never a TypeError: hostile but signed payloads all reject with a SiteKitError', async () => {
    const registry = createEventRegistry({ publicKey });
    const hostile: unknown[] = [
      null,
      0,
      true,
      [],
      'x',
      { createdEvent: null },
      { __proto__: { createdEvent: { entity: {} } } },
    ];
    for (const value of hostile) {
      for (const body of [
        await signClaims({ data: value as never }),
        await signClaims({ data: JSON.stringify({ eventType, data: JSON.stringify(value) }) }),
        // An identity must be an object too (an object one is valid: skipped here).
        ...(typeof value === 'object' && value !== null && !Array.isArray(value)
          ? []
          : [
              await signClaims({
                data: JSON.stringify({ eventType, data: JSON.stringify(data()), identity: JSON.stringify(value) }),
              }),
            ]),
      ]) {
        expect(isSiteKitError(await rejection(registry.webhooks.process(body)))).toBe(true);
      }
    }
  });
});

// --- processRequest ---------------------------------------------------------------------------

describe('processRequest', () => {
  const eventType = 'wix.data.v2.data_collection_created';
  const data = () => domainEvent(eventType, { createdEvent: { entity: WIRE.collection } });

  it('reads a real Request and dispatches', async () => {
    const { registry, spies, called } = spyAll();
    const request = new Request('https://app.example/webhooks', {
      method: 'POST',
      body: await sign({ eventType, data: data() }),
    });
    const result = await registry.webhooks.processRequest(request);
    expect(called()).toEqual(['onDataCollectionCreated']);
    expectPublicCollection(spies.onDataCollectionCreated!.mock.calls[0]![0].entity);
    expect(result.eventType).toBe(eventType);
  });

  it('passes expectedEvents on', async () => {
    const { registry } = spyAll();
    const request = new Request('https://app.example/webhooks', {
      method: 'POST',
      body: await sign({ eventType, data: data() }),
    });
    await expectWebhookError(
      registry.webhooks.processRequest(request, { expectedEvents: ['wix.members.v1.member_created'] }),
      'UNEXPECTED_EVENT',
    );
  });

  it('a Request signed with another key → INVALID_SIGNATURE', async () => {
    const { registry, called } = spyAll();
    const request = new Request('https://app.example/webhooks', {
      method: 'POST',
      body: await sign({ eventType, data: data() }, otherPrivateKey),
    });
    await expectWebhookError(registry.webhooks.processRequest(request), 'INVALID_SIGNATURE');
    expect(called()).toEqual([]);
  });

  it('a body already read, or no Request at all → RequestError', async () => {
    const registry = createEventRegistry({ publicKey });
    const request = new Request('https://app.example/webhooks', { method: 'POST', body: 'x' });
    await request.text();
    expect(isRequestError(await rejection(registry.webhooks.processRequest(request)))).toBe(true);
    expect(isRequestError(await rejection(registry.webhooks.processRequest({} as Request)))).toBe(true);
    expect(isRequestError(await rejection(registry.webhooks.processRequest(undefined as never)))).toBe(true);
  });
});

// --- loading ----------------------------------------------------------------------------------

describe('jose stays lazy', () => {
  const dir = join(ROOT, 'src/events');
  const sources = readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => [name, readFileSync(join(dir, name), 'utf8')] as const);

  it('no file of src/events imports jose statically', () => {
    expect(sources.length).toBeGreaterThan(1);
    for (const [, text] of sources) {
      expect(text).not.toMatch(/^\s*import\s[^(]*['"]jose['"]/m);
      expect(text).not.toMatch(/^\s*export\s[^(]*from\s*['"]jose['"]/m);
      expect(text).not.toMatch(/require\(\s*['"]jose['"]\s*\)/);
    }
    expect(sources.some(([, text]) => text.includes("import('jose')"))).toBe(true);
  });

  it('bundled with splitting, the eager part of src/events holds neither jose nor the processing module', async () => {
    const result = await build({
      entryPoints: [join(dir, 'index.ts')],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      minify: true,
      write: false,
      metafile: true,
      outdir: join(ROOT, 'node_modules/.cache/webhooks-split'),
      logLevel: 'silent',
    });
    const outputs = result.metafile.outputs;
    // Everything loaded eagerly: the entry and what it imports statically, transitively.
    const eager = eagerOutputs(result.metafile, 'src/events/index.ts');
    const eagerInputs = [...eager].flatMap((name) => Object.keys(outputs[name]!.inputs));
    expect(eagerInputs.some((input) => input.includes('node_modules/jose'))).toBe(false);
    expect(eagerInputs.some((input) => input.endsWith('src/events/process.ts'))).toBe(false);
    // ...and jose is in the bundle, behind a dynamic import.
    const allInputs = Object.values(outputs).flatMap((output) => Object.keys(output.inputs));
    expect(allInputs.some((input) => input.includes('node_modules/jose'))).toBe(true);
  });
});
