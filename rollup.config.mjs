// Builds dist/: ESM + CJS + .d.mts/.d.cts for the package entry points. No source maps: the output
// is not minified (names, structure and line breaks as written, types stripped), so stack traces and
// debuggers already show readable code, and maps were most of the package's installed size.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';
import { bundledServerPackages } from './scripts/server-packages.mjs';
import { sqlJsFiles } from './scripts/sqljs-files.mjs';

const entries = { index: 'src/index.ts', react: 'src/react/index.ts', openapi: 'src/openapi/index.ts' };
// Next.js (and other React Server Components bundlers) need the React entry marked as client
// code. Rollup drops module-level directives from sources, so the build writes it on top.
const banner = (chunk) => (chunk.isEntry && chunk.name === 'react' ? "'use client';" : '');
// Dependencies stay external: users' bundlers resolve them once.
const external = (id) => /^(jose|tus-js-client|openapi-fetch|react|react-dom|node:)/.test(id);

// The `node` export condition's build (dist/node/): the same code, except that the modules of
// src/http/ with a `.node.ts` twin (the default HTTP handler) are swapped for it here, at build
// time. The choice is made by the
// package's export conditions, never by a runtime check that would pull Node built-ins into a
// browser bundle.
const nodeEntries = { index: 'src/index.ts', openapi: 'src/openapi/index.ts' };
const nodeTwins = {
  name: 'sitekit-node-twins',
  async resolveId(source, importer, options) {
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (resolved && /[\\/]src[\\/]http[\\/](default-handler)\.ts$/.test(resolved.id))
      return resolved.id.replace(/\.ts$/, '.node.ts');
    return resolved;
  },
};

// The emulator (Node-only, `sitekit-sdk/emulator`) and the `sitekit-sdk` command. Its server packages
// (Fastify, the TUS server) are bundled into dist/vendor/ (scripts/server-packages.mjs), so that
// installing the package is all the emulator needs; better-sqlite3 stays an optional peer.
const emulatorEntries = { emulator: 'emulator/index.ts', cli: 'cli/main.ts' };
// tus-js-client: the CLI's `types` and `pull` read a site through the SDK, whose uploads import it
// (a dependency of the package, so installed with it).
const emulatorExternal = (id) => /^(jose|tus-js-client|better-sqlite3|node:)/.test(id);
// The emulator's declarations name three of Fastify's types (a service module's raw request, reply
// and routes): Fastify is bundled, not installed with the package, so the declarations carry those
// types themselves (scripts/fastify-public-types.d.ts), for apps that type-check libraries too.
const emulatorTypesExternal = (id) => /^(jose|better-sqlite3|node:)/.test(id);
const fastifyPublicTypes = {
  name: 'sitekit-fastify-public-types',
  resolveId: (source) =>
    source === 'fastify' ? fileURLToPath(new URL('scripts/fastify-public-types.d.ts', import.meta.url)) : null,
};
const cliBanner = (chunk) => (chunk.isEntry && chunk.name === 'cli' ? '#!/usr/bin/env node' : '');
// The control API's OpenAPI document, shipped beside the emulator (`sitekit-sdk/emulator/openapi.json`)
// for tests in other languages; the emulator serves the same document at GET /_emulator/openapi.json.
const controlDocument = {
  name: 'sitekit-control-document',
  generateBundle() {
    this.emitFile({
      type: 'asset',
      fileName: 'emulator/openapi.json',
      source: readFileSync('generated/control/openapi.json', 'utf8'),
    });
  },
};

export default [
  {
    input: entries,
    external,
    plugins: [nodeResolve({ extensions: ['.ts', '.js'] }), esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' })],
    // hoistTransitiveImports off: an entry imports the chunks it uses, not bare copies of their
    // imports (which bundlers drop anyway under `sideEffects: false`, with a warning each).
    output: [
      {
        dir: 'dist',
        format: 'es',
        entryFileNames: '[name].mjs',
        chunkFileNames: 'chunks/[name]-[hash].mjs',
        banner,
        hoistTransitiveImports: false,
      },
      {
        dir: 'dist',
        format: 'cjs',
        entryFileNames: '[name].cjs',
        chunkFileNames: 'chunks/[name]-[hash].cjs',
        interop: 'auto',
        exports: 'named',
        banner,
      },
    ],
  },
  {
    input: nodeEntries,
    external,
    plugins: [
      nodeTwins,
      nodeResolve({ extensions: ['.ts', '.js'] }),
      esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' }),
    ],
    // hoistTransitiveImports off: a lazy chunk imports what it uses, not a copy of the shared
    // chunk's node: imports.
    output: [
      {
        dir: 'dist/node',
        format: 'es',
        entryFileNames: '[name].mjs',
        chunkFileNames: 'chunks/[name]-[hash].mjs',
        hoistTransitiveImports: false,
      },
      {
        dir: 'dist/node',
        format: 'cjs',
        entryFileNames: '[name].cjs',
        chunkFileNames: 'chunks/[name]-[hash].cjs',
        interop: 'auto',
        exports: 'named',
      },
    ],
  },
  {
    input: emulatorEntries,
    external: emulatorExternal,
    plugins: [
      bundledServerPackages(),
      nodeResolve({ extensions: ['.ts', '.js'] }),
      esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' }),
      controlDocument,
      sqlJsFiles(),
    ],
    output: {
      dir: 'dist',
      format: 'es',
      entryFileNames: '[name].mjs',
      chunkFileNames: 'chunks/emulator-[name]-[hash].mjs',
      banner: cliBanner,
    },
  },
  // `require('sitekit-sdk/emulator')`: the emulator only (the command is ESM: `bin` points at cli.mjs).
  {
    input: { emulator: emulatorEntries.emulator },
    external: emulatorExternal,
    plugins: [
      bundledServerPackages(),
      nodeResolve({ extensions: ['.ts', '.js'] }),
      esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' }),
    ],
    output: {
      dir: 'dist',
      format: 'cjs',
      entryFileNames: '[name].cjs',
      chunkFileNames: 'chunks/emulator-[name]-[hash].cjs',
      interop: 'auto',
      exports: 'named',
    },
  },
  ...['mts', 'cts'].map((ext) => ({
    input: { emulator: 'emulator/index.ts' },
    external: emulatorTypesExternal,
    plugins: [fastifyPublicTypes, dts({ tsconfig: 'tsconfig.build.json' })],
    output: {
      dir: 'dist',
      format: ext === 'mts' ? 'es' : 'cjs',
      entryFileNames: `[name].d.${ext}`,
      chunkFileNames: `chunks/emulator-[name]-[hash].d.${ext}`,
    },
  })),
  ...['mts', 'cts'].map((ext) => ({
    input: entries,
    external,
    plugins: [dts({ tsconfig: 'tsconfig.build.json' })],
    output: {
      dir: 'dist',
      format: ext === 'mts' ? 'es' : 'cjs',
      entryFileNames: `[name].d.${ext}`,
      chunkFileNames: `chunks/[name]-[hash].d.${ext}`,
    },
  })),
];
