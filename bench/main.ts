/**
 * `npm run bench`: sequential calls through sitekit against a local HTTP server, and raw fetch to
 * the same server in the same process; prints calls/s for each and the ratio (sitekit / raw).
 * Rounds alternate between the two to share any drift of the machine; the median round counts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiKeyStrategy, createClient } from '../src/index.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const item = JSON.stringify({ dataItem: { id: 'a', dataCollectionId: 'Movies', data: { _id: 'a', title: 'Jaws', year: 1975, released: { $date: '1975-06-20T00:00:00.000Z' } } } });
const collection = JSON.stringify({ collection: { id: 'Movies', displayName: 'Movies', createdDate: '2024-01-01T00:00:00.000Z', fields: [{ key: 'year', type: 'NUMBER', numberRange: { min: 0, max: 'Infinity' } }] } });

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url!.startsWith('/wix-data/v2/items/') ? item : collection);
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const client = createClient({ auth: ApiKeyStrategy({ apiKey: 'bench-key' }), baseUrl: base });

const cases: Record<string, { sitekit: () => Promise<unknown>; raw: () => Promise<unknown> }> = {
  'items.get': {
    sitekit: () => client.items.get('Movies', 'a'),
    raw: async () => (await fetch(`${base}/wix-data/v2/items/a?dataCollectionId=Movies`, { headers: { Authorization: 'bench-key' } })).json(),
  },
  'collections.getDataCollection': {
    sitekit: () => client.collections.getDataCollection('Movies'),
    raw: async () => (await fetch(`${base}/wix-data/v2/collections/Movies`, { headers: { Authorization: 'bench-key' } })).json(),
  },
};

async function rate(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  return (CALLS / (performance.now() - t0)) * 1000;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`sequential calls against a local server: ${CALLS} calls x ${ROUNDS} rounds, median round`);
for (const [name, { sitekit, raw }] of Object.entries(cases)) {
  await rate(sitekit);
  await rate(raw); // warm-up
  const s: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    s.push(await rate(sitekit));
    r.push(await rate(raw));
  }
  const [ms, mr] = [median(s), median(r)];
  console.log(`${name.padEnd(30)} sitekit ${ms.toFixed(0).padStart(6)} calls/s   raw fetch ${mr.toFixed(0).padStart(6)} calls/s   ratio ${(ms / mr).toFixed(2)}x`);
}
server.close();
