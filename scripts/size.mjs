// `npm run size`: the size budget. Bundles the built package's entry the way an app's bundler
// would (esbuild, minified, code splitting) and counts, min+gzip, what an app loads eagerly when it
// imports the client: the entry chunk and every chunk it imports statically. Chunks reached only
// through `import()` (the features that load on first use, see src/README.md) are reported
// separately, outside the budget. The budget's headroom is for readable code, not for features.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { eagerOutputs } from './eager-chunks.mjs';

const BUDGET = 20 * 1024;
const root = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'sitekit-size-'));
try {
  const entry = join(dir, 'app.mjs');
  // An app that uses the whole client: createClient and both strategies, all five namespaces.
  writeFileSync(
    entry,
    `import { createClient, OAuthStrategy, ApiKeyStrategy } from ${JSON.stringify(join(root, 'dist/index.mjs'))};\nconsole.log(createClient, OAuthStrategy, ApiKeyStrategy);\n`,
  );
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: join(dir, 'out'),
    metafile: true,
    logLevel: 'error',
  });
  const outputs = result.metafile.outputs;
  const eager = eagerOutputs(result.metafile, entry);
  const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
  const nodeBuiltins = Object.values(outputs).flatMap((o) =>
    o.imports
      .filter((i) => i.external && /^node:|^(fs|path|os|crypto|http|https|stream|buffer|url|util)$/.test(i.path))
      .map((i) => i.path),
  );
  let eagerBytes = 0;
  for (const file of Object.keys(outputs).filter((f) => f.endsWith('.js'))) {
    const size = gz(file);
    const isEager = eager.has(file);
    if (isEager) eagerBytes += size;
    console.log(
      `${isEager ? 'eager' : 'lazy '}  ${(size / 1024).toFixed(2).padStart(6)} KB  ${file.replace(/^.*\/out\//, '')}`,
    );
  }
  console.log(
    `whole client, loaded eagerly: ${(eagerBytes / 1024).toFixed(2)} KB min+gzip (budget ${(BUDGET / 1024).toFixed(0)} KB)`,
  );
  if (nodeBuiltins.length) {
    console.error(`the browser build imports Node built-ins: ${[...new Set(nodeBuiltins)].join(', ')}`);
    process.exitCode = 1;
  }
  if (eagerBytes > BUDGET) {
    console.error('over the size budget');
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
