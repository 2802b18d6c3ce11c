/**
 * The SDK the benchmarks measure: the node build, by its file (`dist/node/index.mjs`, what Node's
 * resolver gives an app for `import 'sitekit-sdk'`). Not by name: under tsx the name follows the
 * tsconfig `paths` to `src/index.ts`, whose default handler is fetch. `BENCH_SDK` overrides it.
 */
export const builtSdk: string = process.env.BENCH_SDK ?? new URL('../dist/node/index.mjs', import.meta.url).href;
