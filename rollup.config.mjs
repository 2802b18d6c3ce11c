// Builds dist/: ESM + CJS + .d.mts/.d.cts for the package entry points.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { dts } from 'rollup-plugin-dts';
import esbuild from 'rollup-plugin-esbuild';

const entries = { index: 'src/index.ts', react: 'src/react/index.ts' };
// Next.js (and other React Server Components bundlers) need the React entry marked as client
// code. Rollup drops module-level directives from sources, so the build writes it on top.
const banner = (chunk) => (chunk.isEntry && chunk.name === 'react' ? "'use client';" : '');
// Dependencies stay external: users' bundlers resolve them once.
const external = (id) => /^(jose|tus-js-client|react|react-dom|node:)/.test(id);

export default [
  {
    input: entries,
    external,
    plugins: [nodeResolve({ extensions: ['.ts', '.js'] }), esbuild({ target: 'es2022', tsconfig: 'tsconfig.json' })],
    output: [
      { dir: 'dist', format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs', sourcemap: true, banner },
      { dir: 'dist', format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs', sourcemap: true, interop: 'auto', exports: 'named', banner },
    ],
  },
  ...['mts', 'cts'].map((ext) => ({
    input: entries,
    external,
    plugins: [dts({ tsconfig: 'tsconfig.build.json' })],
    output: { dir: 'dist', format: ext === 'mts' ? 'es' : 'cjs', entryFileNames: `[name].d.${ext}`, chunkFileNames: `chunks/[name]-[hash].d.${ext}` },
  })),
];
