/**
 * With no collection registered (no file from `sitekit-sdk types` in the program), the items
 * methods are what they were before registration existed: any collection ID, untyped items, or
 * the item type given. (With collections registered: test/types/registry/usage.ts, compiled on
 * its own by test/cli/types.test.ts, as registration is global to a program.)
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Client } from '../../src/client.js';
import type {
  BulkResult,
  DataItemOf,
  DefaultItem,
  ItemsQueryBuilder,
  PagedResult,
  DistinctResult,
  RegisteredCollectionId,
  TypedCollectionId,
} from '../../src/data/types.js';
import type { Item } from '../../src/types.js';

declare const client: Client;
interface Log {
  level: string;
}

describe('nothing registered', () => {
  it('takes any collection ID, untyped by default', () => {
    expectTypeOf<RegisteredCollectionId>().toBeNever();
    expectTypeOf<DefaultItem>().toEqualTypeOf<Item>();
    expectTypeOf<TypedCollectionId<Log>>().toEqualTypeOf<string>();
    expectTypeOf(client.items.query('Anything')).toEqualTypeOf<ItemsQueryBuilder<Item>>();
    expectTypeOf(client.items.get('Anything', 'id')).resolves.toEqualTypeOf<DataItemOf<Item> | null>();
    client.items.query('Anything').eq('whatever', 1).ascending('any.path');
    expectTypeOf(client.items.count('Anything')).resolves.toEqualTypeOf<number>();
    expectTypeOf(client.items.bulkRemove('Anything', ['a'])).resolves.toEqualTypeOf<BulkResult>();
    expectTypeOf(client.items.distinct('Anything', 'whatever')).resolves.toEqualTypeOf<DistinctResult<unknown>>();
    expectTypeOf(client.items.queryReferenced('Anything', 'id', 'actors')).resolves.toEqualTypeOf<
      PagedResult<DataItemOf<Item>>
    >();
    expectTypeOf(client.items.insertReference('Anything', 'actors', 'a', ['b'])).resolves.toEqualTypeOf<void>();
    expectTypeOf(client.items.removeReference('Anything', 'actors', 'a', 'b')).resolves.toEqualTypeOf<void>();
  });

  it('types by the item type given, or inferred from the item written', () => {
    expectTypeOf(client.items.query<Log>('Logs')).toEqualTypeOf<ItemsQueryBuilder<Log>>();
    expectTypeOf(client.items.insert('Logs', { level: 'info' })).resolves.toEqualTypeOf<
      DataItemOf<{ level: string }>
    >();
    // @ts-expect-error not a field of Log
    client.items.query<Log>('Logs').eq('lvl', 'info');
  });

  it('lets generic code pass its own item type and a plain string ID', () => {
    const latest = <T extends object>(collectionId: string) => client.items.query<T>(collectionId).limit(1);
    expectTypeOf(latest<Log>('Logs')).toEqualTypeOf<ItemsQueryBuilder<Log>>();
  });
});
