import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** README.md's "one site per test worker" recipe: its own project, for its global setup. */
const SITE_PER_WORKER = 'test/examples/site-per-worker';

/** React 18, installed by `npm test`'s pretest step (test/react18/install.mjs). */
const react18 = fileURLToPath(new URL('./test/react18/node_modules/', import.meta.url));
/** Testing Library's ES module build: its CommonJS one would `require` React past the aliases. */
const testingLibraryModule = fileURLToPath(
  new URL('./node_modules/@testing-library/react/dist/@testing-library/react.esm.js', import.meta.url),
);

export default defineConfig({
  test: {
    // Testing Library's auto-cleanup after each test needs the globals.
    globals: true,
    testTimeout: 20_000,
    // Hooks start and close emulators: on a loaded 2-core machine a close took over vitest's 10 s default
    // (bench.test.ts's afterAll, seen once in a clean-clone run with other work on both cores), and at a
    // load average of 15-20 (mutation runs beside the suite) its beforeAll (an emulator's first RSA key
    // pair, a seed's password hashes) passed 30 s three times: a hook's limit is where it gives up, not a bar.
    hookTimeout: 60_000,
    // How long expect.poll waits for its condition (vitest's default is 1 s): a machine running the
    // whole suite on two busy cores takes longer than that for an emulator round trip or a page's
    // refresh, and a poll that gives up early is a flaky test, not a finding.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...configDefaults.exclude, `${SITE_PER_WORKER}/**`],
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        extends: true,
        test: {
          name: 'site-per-worker',
          include: [`${SITE_PER_WORKER}/*.test.ts`],
          globalSetup: [`${SITE_PER_WORKER}/global-setup.ts`],
        },
      },
      {
        // test/react/ once more, against React 18: `react` and `react-dom` (and their subpaths)
        // resolve to test/react18/. The libraries that import React are bundled into the test
        // (inlined) so the aliases reach their imports too.
        extends: true,
        test: {
          name: 'react18',
          include: ['test/react/**/*.test.ts', 'test/react/**/*.test.tsx'],
          env: { SITEKIT_REACT_MAJOR: '18' },
          server: { deps: { inline: ['@testing-library/react', '@tanstack/react-query'] } },
        },
        resolve: {
          alias: [
            { find: /^@testing-library\/react$/, replacement: testingLibraryModule },
            { find: /^react$/, replacement: `${react18}react/index.js` },
            { find: /^react\/(.*)$/, replacement: `${react18}react/$1` },
            { find: /^react-dom$/, replacement: `${react18}react-dom/index.js` },
            { find: /^react-dom\/(.*)$/, replacement: `${react18}react-dom/$1` },
          ],
        },
      },
    ],
  },
});
