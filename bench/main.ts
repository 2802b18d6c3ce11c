/**
 * `npm run bench`: sequential calls through sitekit against a local HTTP server, and raw fetch to
 * the same server in the same process; prints calls/s for each and the ratio (sitekit / raw).
 * Calls are interleaved one by one (alternating which side goes first) and each side's time is
 * summed, so drift of the machine (a VM's neighbours, GC, JIT) lands on both sides alike.
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

/** Interleaved timing: returns calls/s of each side over the same stretch of time. */
async function race(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  let ta = 0;
  let tb = 0;
  for (let i = 0; i < CALLS; i++) {
    const first = i % 2 ? a : b;
    const second = i % 2 ? b : a;
    const t0 = performance.now();
    await first();
    const t1 = performance.now();
    await second();
    const t2 = performance.now();
    if (first === a) (ta += t1 - t0), (tb += t2 - t1);
    else (tb += t1 - t0), (ta += t2 - t1);
  }
  return [(CALLS / ta) * 1000, (CALLS / tb) * 1000];
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

console.log(`sequential calls against a local server, interleaved: ${CALLS} calls per side x ${ROUNDS} rounds, median round`);
for (const [name, { sitekit, raw }] of Object.entries(cases)) {
  await race(sitekit, raw); // warm-up
  const ratios: number[] = [];
  const s: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const [rs, rr] = await race(sitekit, raw);
    s.push(rs);
    r.push(rr);
    ratios.push(rs / rr);
  }
  console.log(`${name.padEnd(30)} sitekit ${median(s).toFixed(0).padStart(6)} calls/s   raw fetch ${median(r).toFixed(0).padStart(6)} calls/s   ratio ${median(ratios).toFixed(2)}x`);
}
server.close();
