// The WebAssembly engine's files (sql.js, a devDependency: its package is 31 MB installed, far
// past the install footprint, of which the engine needs two files), copied into the build at
// dist/vendor/sqljs/ with sql.js's license: emulator/store/engines/wasm.ts looks for them there.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A rollup plugin emitting `vendor/sqljs/{sql-wasm.cjs, sql-wasm.wasm, LICENSE}` beside the build's entries. */
export function sqlJsFiles() {
  const distDirectory = dirname(require.resolve('sql.js/dist/sql-wasm.js'));
  const files = {
    // .cjs: the package is "type": "module", and sql.js's loader is CommonJS.
    'sql-wasm.cjs': join(distDirectory, 'sql-wasm.js'),
    'sql-wasm.wasm': join(distDirectory, 'sql-wasm.wasm'),
    LICENSE: join(distDirectory, '..', 'LICENSE'),
  };
  return {
    name: 'sitekit-sqljs-files',
    generateBundle() {
      for (const [name, path] of Object.entries(files))
        this.emitFile({ type: 'asset', fileName: `vendor/sqljs/${name}`, source: readFileSync(path) });
    },
  };
}
