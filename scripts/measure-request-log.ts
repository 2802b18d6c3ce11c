/**
 * How long one read of the request log takes once it is full of big bodies (issue 31, item 3):
 * `npx tsx scripts/measure-request-log.ts [entries] [KiB per body]` (default 1000 entries of 256 KiB).
 *
 * Fills the log of an in-memory emulator with item inserts sent without `Content-Length` (chunked,
 * the case the log could not size before parsing): half with one long string, half with thousands
 * of small objects (the walk a redaction does). Then reads `GET /_emulator/requests` as the
 * console does (limit 200) and whole (limit 1000), several times each, and prints the times and
 * what the process holds. Not part of the test suite: it takes tens of seconds on a busy machine.
 */
import { get, request } from 'node:http';
import { startEmulator } from '../emulator/index.js';

const entries = Number(process.argv[2] ?? 1000);
const kibPerBody = Number(process.argv[3] ?? 256);
const READS = 7;

/** One item insert's body of about `kibPerBody` KiB: one long string, or many small objects. */
function bigBody(index: number): string {
  const size = kibPerBody * 1024;
  const data =
    index % 2 == 0
      ? { title: `long ${index}`, notes: 'x'.repeat(size) }
      : {
          title: `many ${index}`,
          rows: Array.from({ length: Math.floor(size / 24) }, (_, row) => ({ row, name: 'ab' })),
        };
  return JSON.stringify({ dataCollectionId: 'Movies', dataItem: { data } });
}

/** Sends `body` chunked (no Content-Length), answers the status. */
function sendChunked(url: URL, apiKey: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', authorization: apiKey } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    outgoing.on('error', reject);
    // Two writes, so Node cannot size the body: it is sent chunked.
    const half = Math.floor(body.length / 2);
    outgoing.write(body.slice(0, half));
    outgoing.end(body.slice(half));
  });
}

/**
 * One read of the log: the time until its last byte and the CPU time this process spent on it, in
 * ms (the bytes are not decoded, so both are the emulator's), and the answer's size. The CPU time
 * is what a loaded machine does not inflate.
 */
function readLog(url: string, limit: number): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  return new Promise((resolve, reject) => {
    get(`${url}/_emulator/requests?limit=${limit}`, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () =>
        response.statusCode == 200
          ? resolve({ ms: performance.now() - started, cpuMs: cpuMs(process.cpuUsage(cpuStarted)), bytes })
          : reject(new Error(`the log answered ${response.statusCode}`)),
      );
    }).on('error', reject);
  });
}

const cpuMs = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1000;
const sorted = (values: number[]) => values.sort((left, right) => left - right);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;

/** `READS` reads of the log with `limit`: their wall and CPU times in ms, and the answer's size. */
async function timeReads(url: string, limit: number): Promise<{ times: number[]; cpuTimes: number[]; bytes: number }> {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let bytes = 0;
  for (let read = 0; read < READS; read++) {
    const answer = await readLog(url, limit);
    times.push(answer.ms);
    cpuTimes.push(answer.cpuMs);
    bytes = answer.bytes;
  }
  return { times: sorted(times), cpuTimes, bytes };
}

const emulator = await startEmulator({ port: 0, memory: true, bodyLimit: 64 * 1024 * 1024 });
try {
  const target = new URL('/wix-data/v2/items', emulator.url);
  const filling = performance.now();
  for (let index = 0; index < entries; index++) {
    const status = await sendChunked(target, emulator.info.apiKey, bigBody(index));
    if (status != 200) throw new Error(`insert ${index} answered ${status}`);
  }
  console.log(
    `filled the log with ${entries} inserts of ${kibPerBody} KiB (chunked) in ${Math.round(performance.now() - filling)} ms`,
  );
  global.gc?.();
  const heapMiB = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  console.log(`heap used after filling: ${heapMiB} MiB`);
  for (const limit of [200, 1000]) {
    const { times, cpuTimes, bytes } = await timeReads(emulator.url, limit);
    console.log(
      `GET /_emulator/requests?limit=${limit}: median ${median(times).toFixed(1)} ms (CPU ${median(cpuTimes).toFixed(1)} ms), slowest ${times.at(-1)!.toFixed(1)} ms, fastest ${times[0]!.toFixed(1)} ms (${READS} reads, ${Math.round(bytes / 1024)} KiB answered)`,
    );
  }
} finally {
  await emulator.close();
}
