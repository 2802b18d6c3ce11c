/**
 * `npm run codegen`: schema/*.yaml → generated/. `npm run codegen:check` writes nothing and fails,
 * naming the files, when generated/ differs from what the schema produces.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'generated');
const check = process.argv.includes('--check');

const files = await generate(join(root, 'schema'));

/** The files now in generated/, by their path inside it (subdirectories included). */
const existing = (): string[] =>
  existsSync(outDir)
    ? readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(join(outDir, name)).isFile())
    : [];

if (check) {
  const stale = Object.keys(files).filter(
    (name) => !existsSync(join(outDir, name)) || readFileSync(join(outDir, name), 'utf8') !== files[name],
  );
  const extra = existing().filter((name) => !(name in files));
  for (const name of stale) console.error(`generated/${name} is stale: run npm run codegen`);
  for (const name of extra) console.error(`generated/${name} is not produced by the codegen: remove it`);
  if (stale.length || extra.length) process.exit(1);
  console.log(`generated/ is up to date (${Object.keys(files).length} files)`);
} else {
  for (const name of existing()) {
    if (name in files) continue;
    // generated/operations/ is the codegen's own: a module of an operation no longer in the schema goes.
    if (dirname(name) === 'operations') rmSync(join(outDir, name));
    else console.warn(`note: generated/${name} is not produced by the codegen`);
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(outDir, name)), { recursive: true });
    writeFileSync(join(outDir, name), text);
  }
  console.log(`wrote ${Object.keys(files).length} files to generated/`);
}
