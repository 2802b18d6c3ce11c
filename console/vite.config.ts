/**
 * Vite configuration of the console. The console always runs on the current SDK source:
 * `sitekit-sdk` and `sitekit-sdk/react` are aliased to `src/`, so a change to the SDK shows up in the
 * console without building the package first.
 *
 * `npm run dev:console` serves it with hot reload and proxies the API paths to a running emulator
 * (`SITEKIT_EMULATOR_URL`, default http://127.0.0.1:4700), so the app talks to one origin as it
 * does when the emulator serves the built files at `/`.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { API_PREFIXES } from '../emulator/http/static.js';

const consoleRoot = fileURLToPath(new URL('.', import.meta.url));
const sourceRoot = fileURLToPath(new URL('../src/', import.meta.url));
const outputDir = fileURLToPath(new URL('../dist/console/', import.meta.url));
const emulatorUrl = process.env.SITEKIT_EMULATOR_URL ?? 'http://127.0.0.1:4700';

export default defineConfig({
  root: consoleRoot,
  base: '/',
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^sitekit-sdk$/, replacement: `${sourceRoot}index.ts` },
      { find: /^sitekit-sdk\/react$/, replacement: `${sourceRoot}react/index.ts` },
    ],
  },
  build: {
    outDir: outputDir,
    emptyOutDir: true,
    target: 'es2022',
    // The built console ships inside the package: no source maps to weigh on every install.
    sourcemap: false,
    // A console, not a landing page: one app chunk of a few hundred KB is expected.
    chunkSizeWarningLimit: 1024,
  },
  server: {
    host: '127.0.0.1',
    // The emulator's own list of API paths: the dev server forwards them, every other path is a console route.
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: emulatorUrl, changeOrigin: false }])),
  },
});
