/**
 * The emulator benchmark, on 100,000 items in a file-backed store:
 * - a filtered, sorted, limited query through the SDK and the emulator, against the same SQL
 *   (the statement the emulator builds) run directly on the same SQLite file;
 * - a count with a filter, the same two ways;
 * - a bulk insert of 10,000 items through the SDK (10 calls of 1,000), against inserting the same
 *   rows with one direct SQL transaction.
 * Sides are interleaved in the same run (bench/timing.ts); prints ratios, asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startEmulator } from '../emulator/index.js';
import { filterToSql } from '../emulator/services/data/items/filter-sql.js';
import { orderBy } from '../emulator/services/data/items/paging-sql.js';
import { ApiKeyStrategy, createClient } from '../src/index.js';
import { sequential, type Measurement } from './timing.js';

const ITEM_COUNT = Number(process.env.BENCH_EMULATOR_ITEMS ?? 100_000);
const BULK_COUNT = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const GENRES = ['Drama', 'Comedy', 'Thriller', 'Sci-Fi', 'Romance'];

/** The `index`-th generated item, as a client sends it. */
function benchItem(index: number, prefix: string) {
  return {
    _id: `${prefix}-${index}`,
    title: `Title ${index}`,
    year: 1950 + ((index * 31) % 74),
    rating: ((index * 53) % 91) / 10,
    genre: GENRES[index % GENRES.length],
    tags: [GENRES[(index + 1) % GENRES.length], GENRES[(index + 2) % GENRES.length]],
  };
}

function report(title: string, { callsPerSecond }: Measurement, unit = 'calls/s'): void {
  const [sdk, sql] = [callsPerSecond.sitekit!, callsPerSecond.sql!];
  console.log(
    `${title}\n  ${unit}: sitekit + emulator ${sdk.toFixed(1)}, direct SQL ${sql.toFixed(1)}; ratio ${(sdk / sql).toFixed(2)}× (${((sql / sdk - 1) * 100).toFixed(0)}% overhead)`,
  );
}

/** Runs the emulator benchmark and prints its figures. */
export async function emulatorBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitekit-bench-'));
  const emulator = await startEmulator({ port: 0, dataDir });
  const database = new Database(join(dataDir, 'emulator.sqlite'));
  try {
    const admin = createClient({
      baseUrl: emulator.url,
      auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
    });
    const permissions = { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } as const;
    await admin.collections.createDataCollection({ _id: 'Bench', permissions });
    await admin.collections.createDataCollection({ _id: 'BulkSdk', permissions });

    // The 100,000 items go in with direct SQL (setup, not measured), into the emulator's own file.
    const insert = database.prepare(
      'INSERT INTO items (collection_id, id, data, created_date, owner) VALUES (?, ?, ?, ?, NULL)',
    );
    const insertAll = database.transaction((collectionId: string, prefix: string, count: number) => {
      for (let index = 0; index < count; index++) {
        // As the emulator stores it: with the system dates.
        const created = new Date(Date.UTC(2024, 0, 1) + index * 1000).toISOString();
        const item = {
          ...benchItem(index, prefix),
          _createdDate: { $date: created },
          _updatedDate: { $date: created },
        };
        insert.run(collectionId, item._id, JSON.stringify(item), created);
      }
    });
    insertAll('Bench', 'item', ITEM_COUNT);

    // The query: the same filter, sort and limit both ways; the SQL side runs the statement the emulator builds.
    const filter = { year: { $gt: 1990 }, genre: 'Drama' };
    const sort = [{ fieldName: 'rating', order: 'DESC' as const }];
    const where = filterToSql(filter, 'items.data', 'query.filter');
    const order = orderBy(sort, 'items.data', 'query.sort');
    const querySql = database.prepare(
      `SELECT items.data FROM items WHERE items.collection_id = ? AND (${where.sql}) ORDER BY ${order.sql}, items.id ASC LIMIT ? OFFSET ?`,
    );
    const countSql = database.prepare(
      `SELECT COUNT(*) AS total FROM items WHERE items.collection_id = ? AND (${where.sql})`,
    );
    const queryParams = ['Bench', ...where.params, ...order.params, 51, 0];
    const direct = querySql.all(...queryParams) as { data: string }[];
    const viaSdk = await admin.items
      .query('Bench')
      .gt('year', 1990)
      .eq('genre', 'Drama')
      .descending('rating')
      .limit(50)
      .find();
    if (viaSdk.items[0]?._id != (JSON.parse(direct[0]!.data) as { _id: string })._id)
      throw new Error('the two sides disagree on the first item');

    console.log(
      `emulator: ${ITEM_COUNT.toLocaleString('en')} items in a file-backed store, interleaved, ${ROUNDS} rounds`,
    );
    report(
      'query: year > 1990 and genre = Drama, sorted by rating desc, limit 50',
      await sequential(
        {
          sitekit: () =>
            admin.items.query('Bench').gt('year', 1990).eq('genre', 'Drama').descending('rating').limit(50).find(),
          sql: async () => querySql.all(...queryParams).map((row) => JSON.parse((row as { data: string }).data)),
        },
        ROUNDS,
        3,
      ),
    );
    report(
      'count: year > 1990 and genre = Drama',
      await sequential(
        {
          sitekit: () => admin.items.query('Bench').gt('year', 1990).eq('genre', 'Drama').count(),
          sql: async () => countSql.get('Bench', ...where.params),
        },
        ROUNDS,
        3,
      ),
    );

    // Bulk insert: 10,000 new items each time (fresh ids per round), 10 calls of 1,000 through the SDK.
    let round = 0;
    const bulk = await sequential(
      {
        sitekit: async () => {
          const prefix = `sdk${round++}`;
          for (let batch = 0; batch < BULK_COUNT / 1000; batch++) {
            await admin.items.bulkInsert(
              'BulkSdk',
              Array.from({ length: 1000 }, (_, index) => benchItem(batch * 1000 + index, prefix)),
            );
          }
        },
        sql: async () => insertAll('BulkSql', `sql${round++}`, BULK_COUNT),
      },
      Math.max(2, Math.floor(ROUNDS / 2)),
    );
    report(`bulk insert of ${BULK_COUNT.toLocaleString('en')} items`, bulk, 'runs/s');
    console.log(
      `  items/s: sitekit + emulator ${(bulk.callsPerSecond.sitekit! * BULK_COUNT).toFixed(0)}, direct SQL ${(bulk.callsPerSecond.sql! * BULK_COUNT).toFixed(0)}`,
    );
  } finally {
    database.close();
    await emulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
