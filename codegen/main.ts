/**
 * `npm run codegen`: schema/*.yaml → generated/. `npm run codegen:check` writes nothing and fails,
 * naming the files, when generated/ differs from what the schema produces.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'generated');
const check = process.argv.includes('--check');

const files = await generate(join(root, 'schema'));

if (check) {
  const stale = Object.keys(files).filter(
    (name) => !existsSync(join(outDir, name)) || readFileSync(join(outDir, name), 'utf8') !== files[name],
  );
  const extra = existsSync(outDir) ? readdirSync(outDir).filter((name) => !(name in files)) : [];
  for (const name of stale) console.error(`generated/${name} is stale: run npm run codegen`);
  for (const name of extra) console.error(`generated/${name} is not produced by the codegen: remove it`);
  if (stale.length || extra.length) process.exit(1);
  console.log(`generated/ is up to date (${Object.keys(files).length} files)`);
} else {
  mkdirSync(outDir, { recursive: true });
  for (const name of readdirSync(outDir))
    if (!(name in files)) console.warn(`note: generated/${name} is not produced by the codegen`);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
  console.log(`wrote ${Object.keys(files).length} files to generated/`);
}
