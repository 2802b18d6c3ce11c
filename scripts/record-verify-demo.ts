/**
 * Writes the recording CI replays (`test/cli/fixtures/verify-demo/`): the demo site (the
 * emulator's demo data, its Movies cut to 40 to keep the files small) copied by `sitekit-sdk pull`
 * into `site.json`, and `sitekit-sdk verify --record` run against a site loaded from that copy. CI
 * then loads `site.json` into a new emulator and replays the recording against it, with no
 * credentials. Run it again (`npx tsx scripts/record-verify-demo.ts`) when the scenario changes.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand } from '../cli/commands.js';
import { startEmulator } from '../emulator/index.js';

const dir = join(import.meta.dirname, '../test/cli/fixtures/verify-demo');
const io = {
  stdout: (text: string) => void process.stdout.write(text),
  stderr: (text: string) => void process.stderr.write(text),
  env: {},
};
const siteOf = (emulator: { url: string; info: { apiKey: string; siteId: string } }) => [
  ...['--url', emulator.url, '--api-key', emulator.info.apiKey, '--site-id', emulator.info.siteId],
];

await rm(dir, { recursive: true, force: true });
const demo = await startEmulator({ port: 0, memory: true });
const pulled = await runCommand(['pull', ...siteOf(demo), '--out', join(dir, 'site.json'), '--limit', '40'], io);
await demo.close();
if (pulled != 0) process.exit(pulled);
const [live, against] = await Promise.all(
  [0, 1].map(() => startEmulator({ port: 0, memory: true, seed: join(dir, 'site.json') })),
);
const verified = await runCommand(['verify', ...siteOf(live!), '--emulator', against!.url, '--record', dir], io);
await Promise.all([live!.close(), against!.close()]);
process.exitCode = verified;
