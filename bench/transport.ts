/**
 * The transport benchmark: the same GET (an item, with its `_id` and `$date` transforms) against a
 * local server, four ways in the same run:
 * - sitekit as Node users get it (the package's `node` build: node:http with keep-alive);
 * - sitekit with `fetch` passed explicitly (the fetch handler);
 * - raw `fetch`, and a raw `node:http` keep-alive loop, each sending the same header fields as
 *   sitekit (read from one sitekit request before the run) and parsing the JSON. The raw
 *   node:http side builds its request options once: the honest limit, a loop with nothing to do
 *   but send and parse.
 * Sequential calls, batches of 64 concurrent calls, and a steady pool of 64 calls in flight.
 * Prints calls/s and the ratios the SDK is held to: sitekit ≥ 2.0× raw fetch and ≥ 0.9× raw
 * node:http; sitekit with fetch ≥ 0.95× raw fetch.
 * It imports the built package's node build (`npm run bench` builds it first), the file Node's
 * resolver gives an app for `sitekit-sdk`. By its file, not its name: under tsx the name follows
 * tsconfig's `paths` to `src/index.ts`, whose default handler is fetch (only the build swaps in
 * node:http), so the `sitekit` side measured the fetch handler from source.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, createServer, request, type IncomingHttpHeaders, type RequestOptions } from 'node:http';
import { concurrent, median, medianOf, sequential, steadyPool, type Call, type Measurement } from './timing.js';
import { builtSdk } from './built-sdk.js';

type SiteKit = typeof import('../src/index.js');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SEQUENTIAL_CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const CONCURRENCY = 64;
/** Calls (sequential) and batches (concurrent) a side makes in a row before the next side's turn. */
const SEQUENTIAL_BLOCK = 50;
const CONCURRENT_BLOCK = 5;
const CONCURRENT_BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
/** Calls per side's turn in the steady pool, and turns per run. */
const POOL_CALLS = 640;
const POOL_TURNS = Number(process.env.BENCH_POOL_TURNS ?? 4);

const ITEM_BODY = JSON.stringify({
  dataItem: {
    id: 'a',
    dataCollectionId: 'Movies',
    data: { _id: 'a', title: 'Jaws', year: 1975, released: { $date: '1975-06-20T00:00:00.000Z' } },
  },
});
const ITEM_PATH = '/wix-data/v2/items/a?dataCollectionId=Movies';

/**
 * The local server, in its own process: the client sides are what is measured, so the server's
 * work must not be counted in their time (in-process, it would be, and hide their differences),
 * and the CPU figures are the client's alone. It is a bare `node:net` server that answers every
 * request head with one prebuilt keep-alive response: a `node:http` server spends about as much
 * CPU per request as the clients measured, which on a 2-core machine adds the same time to
 * every side and pulls every ratio towards 1. Prints its port when listening.
 */
async function startServer(): Promise<{ server: ChildProcess; port: number }> {
  const source = `
    const { createServer } = require('node:net');
    const body = ${JSON.stringify(ITEM_BODY)};
    const response = 'HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + Buffer.byteLength(body) +
      '\\r\\nConnection: keep-alive\\r\\nKeep-Alive: timeout=60\\r\\n\\r\\n' + body;
    const server = createServer((socket) => {
      socket.setNoDelay(true);
      let pending = '';
      // The requests are GETs without a body: each blank line ends one.
      socket.on('data', (chunk) => {
        pending += chunk.toString('latin1');
        for (let end = pending.indexOf('\\r\\n\\r\\n'); end >= 0; end = pending.indexOf('\\r\\n\\r\\n')) {
          pending = pending.slice(end + 4);
          socket.write(response);
        }
      });
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));
  `;
  const server = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [firstLine] = (await once(server.stdout!, 'data')) as [Buffer];
  return { server, port: Number(firstLine.toString().trim()) };
}

/**
 * The header fields a sitekit client sends for its call, as a server receives them (less the
 * ones node:http adds to any request: host, connection).
 */
async function sitekitHeaders(send: (base: string) => Promise<unknown>): Promise<Record<string, string>> {
  let seen: IncomingHttpHeaders = {};
  const server = createServer((incoming, response) => {
    seen = incoming.headers;
    response.setHeader('content-type', 'application/json');
    response.end(ITEM_BODY);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    await send(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
  const { host: _host, connection: _connection, ...rest } = seen;
  return rest as Record<string, string>;
}

/** Reads a raw node:http response to a parsed JSON value; `options` are built once by the caller. */
function rawNodeGet(options: RequestOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const outgoing = request(options, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(JSON.parse(text)));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const figures = (values: Record<string, number>, unit: string): string =>
  Object.entries(values)
    .map(([name, value]) => `${name} ${value.toFixed(0)}${unit}`)
    .join('   ');

/** min–median–max over runs of sitekit / raw node:http. */
function spread(runs: Measurement[]): string {
  const ratios = runs
    .map(({ callsPerSecond }) => callsPerSecond.sitekit! / callsPerSecond['raw node:http']!)
    .sort((a, b) => a - b);
  return `${ratios[0]!.toFixed(2)}–${median(ratios).toFixed(2)}–${ratios[ratios.length - 1]!.toFixed(2)}`;
}

function report(title: string, { callsPerSecond, cpuMicrosPerCall }: Measurement): void {
  const ratio = (a: string, b: string) => (callsPerSecond[a]! / callsPerSecond[b]!).toFixed(2);
  console.log(
    `${title}\n  calls/s:      ${figures(callsPerSecond, '')}\n  CPU per call: ${figures(cpuMicrosPerCall, ' µs')}`,
  );
  console.log(
    `  sitekit / raw fetch ${ratio('sitekit', 'raw fetch')}x (target 2.0)   sitekit / raw node:http ${ratio('sitekit', 'raw node:http')}x (target 0.9)   sitekit with fetch / raw fetch ${ratio('sitekit with fetch', 'raw fetch')}x (target 0.95)`,
  );
}

/** Runs the transport benchmark and prints its figures. */
export async function transportBench(): Promise<void> {
  const { ApiKeyStrategy, createClient } = (await import(builtSdk)) as SiteKit;
  const { server, port } = await startServer();
  const base = `http://127.0.0.1:${port}`;
  const agent = new Agent({ keepAlive: true });
  const auth = ApiKeyStrategy({ apiKey: 'bench-key' });
  const headers = await sitekitHeaders((baseUrl) => createClient({ auth, baseUrl }).items.get('Movies', 'a'));
  const sitekit = createClient({ auth, baseUrl: base });
  const sitekitWithFetch = createClient({ auth, baseUrl: base, fetch });
  const rawOptions: RequestOptions = { agent, host: '127.0.0.1', port, path: ITEM_PATH, method: 'GET', headers };
  const fetchInit: RequestInit = { headers };
  const fetchUrl = base + ITEM_PATH;
  const sides: Record<string, Call> = {
    sitekit: () => sitekit.items.get('Movies', 'a'),
    'sitekit with fetch': () => sitekitWithFetch.items.get('Movies', 'a'),
    'raw fetch': async () => (await fetch(fetchUrl, fetchInit)).json(),
    'raw node:http': () => rawNodeGet(rawOptions),
  };
  try {
    // Warm-up: JIT, connections.
    await sequential(sides, 300);
    await concurrent(sides, 5, CONCURRENCY);
    const sequentialRuns: Measurement[] = [];
    const concurrentRuns: Measurement[] = [];
    const poolRuns: Measurement[] = [];
    for (let run = 0; run < ROUNDS; run++) {
      sequentialRuns.push(
        await sequential(sides, Math.max(1, Math.round(SEQUENTIAL_CALLS / SEQUENTIAL_BLOCK)), SEQUENTIAL_BLOCK),
      );
      concurrentRuns.push(
        await concurrent(
          sides,
          Math.max(1, Math.round(CONCURRENT_BATCHES / CONCURRENT_BLOCK)),
          CONCURRENCY,
          CONCURRENT_BLOCK,
        ),
      );
      poolRuns.push(await steadyPool(sides, POOL_TURNS, CONCURRENCY, POOL_CALLS));
    }
    console.log(
      `transport: items.get against a local server, interleaved in blocks (${SEQUENTIAL_BLOCK} calls, ${CONCURRENT_BLOCK} batches), median of ${ROUNDS} runs`,
    );
    report(`sequential (${SEQUENTIAL_CALLS} calls per side per run)`, medianOf(sequentialRuns));
    report(`${CONCURRENCY} concurrent (${CONCURRENT_BATCHES} batches per side per run)`, medianOf(concurrentRuns));
    report(
      `steady pool of ${CONCURRENCY} in flight (${POOL_TURNS * POOL_CALLS} calls per side per run)`,
      medianOf(poolRuns),
    );
    console.log(
      `  sitekit / raw node:http per run: ${spread(sequentialRuns)} sequential, ${spread(poolRuns)} steady pool`,
    );
  } finally {
    agent.destroy();
    server.kill();
  }
}
