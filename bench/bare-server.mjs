/**
 * The limit the emulator is compared with in bench/emulator.ts: a bare Fastify + better-sqlite3
 * server answering the same four routes the benchmark calls (bulk insert, insert, get, query)
 * with the same SQL work and nothing else: no auth, no schema validation, no request log, no
 * events, no CORS. The same file settings as the emulator (WAL, synchronous=FULL), the same
 * table, the item stored as the emulator stores it (system fields and dates in the JSON).
 *
 * Plain JavaScript run by `node` itself: its start-up time is one of the figures compared.
 * Usage: `node bench/bare-server.mjs <database file> <query JSON>` where the query JSON is
 * `{sql, params}`, the statement the emulator builds for the benchmark's query (params before
 * the limit). Prints its port when listening.
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const [file, queryJson] = process.argv.slice(2);
const query = JSON.parse(queryJson);

const database = new Database(file);
database.pragma('journal_mode = WAL');
database.pragma('synchronous = FULL');
database.exec(`CREATE TABLE IF NOT EXISTS items (
  collection_id TEXT NOT NULL,
  id TEXT NOT NULL,
  data TEXT NOT NULL,
  created_date TEXT NOT NULL,
  owner TEXT,
  PRIMARY KEY (collection_id, id)
);
CREATE INDEX IF NOT EXISTS items_default_order ON items (collection_id, created_date DESC, id);`);

const insert = database.prepare(
  'INSERT INTO items (collection_id, id, data, created_date, owner) VALUES (?, ?, ?, ?, NULL)',
);
const select = database.prepare('SELECT data FROM items WHERE collection_id = ? AND id = ?');
const search = database.prepare(query.sql);

/** Stores one item as the emulator does, and returns its data. */
function store(collectionId, dataItem) {
  const now = { $date: new Date().toISOString() };
  const data = { ...dataItem.data, _id: dataItem.id ?? dataItem.data._id, _createdDate: now, _updatedDate: now };
  insert.run(collectionId, data._id, JSON.stringify(data), now.$date);
  return data;
}

const insertAll = database.transaction((collectionId, dataItems) =>
  dataItems.map((dataItem, index) => ({
    itemMetadata: { id: store(collectionId, dataItem)._id, originalIndex: index, success: true },
  })),
);

const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
app.get('/health', async () => ({ status: 'ok' }));
app.post('/wix-data/v2/bulk/items/insert', async (request) => {
  const { dataCollectionId, dataItems } = request.body;
  const results = insertAll.immediate(dataCollectionId, dataItems);
  return { results, bulkActionMetadata: { totalSuccesses: results.length, totalFailures: 0, undetailedFailures: 0 } };
});
app.post('/wix-data/v2/items', async (request) => {
  const { dataCollectionId, dataItem } = request.body;
  const data = store(dataCollectionId, dataItem);
  return { dataItem: { id: data._id, dataCollectionId, data } };
});
app.get('/wix-data/v2/items/:id', async (request, reply) => {
  const { dataCollectionId } = request.query;
  const row = select.get(dataCollectionId, request.params.id);
  if (!row) return reply.code(404).send({ message: 'not found' });
  const data = JSON.parse(row.data);
  return { dataItem: { id: data._id, dataCollectionId, data } };
});
app.post('/wix-data/v2/items/query', async (request) => {
  const { dataCollectionId, query: wanted } = request.body;
  const limit = wanted.paging.limit;
  const rows = search.all(dataCollectionId, ...query.params, limit + 1, 0);
  const dataItems = rows
    .slice(0, limit)
    .map((row) => JSON.parse(row.data))
    .map((data) => ({ id: data._id, dataCollectionId, data }));
  return { dataItems, pagingMetadata: { count: dataItems.length, offset: 0, hasNext: rows.length > limit } };
});

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(app.server.address().port);
process.on('SIGTERM', () => app.close().then(() => database.close()));
