// @ts-check
/**
 * Mutation testing (StrykerJS): the code where a silent mistake costs most, by module, each with
 * the test files that pin it. `npm run mutate` runs every module in turn and prints the score of
 * each (scripts/mutate.mjs); `npm run mutate -- <file>...` runs the modules holding those files,
 * mutating only them. Not in CI: a module takes minutes.
 *
 * A mutant that no test can tell apart from the code (an equivalent mutant) is marked where it is
 * made, with `// Stryker disable next-line <mutator>: <why>`, so the reason stays next to the code.
 */

/**
 * @typedef {object} MutationModule
 * @property {string[]} mutate The files mutated.
 * @property {string[]} tests The test files run against their mutants (only those covering a mutant
 *   run for it), quick unit tests first: they run in this order (vitest.mutation.config.ts).
 */

/** @type {Record<string, MutationModule>} */
export const modules = {
  'request guards': {
    mutate: ['emulator/http/request-guards.ts', 'emulator/http/cors.ts'],
    tests: [
      'test/emulator/http/request-guards.test.ts',
      'test/emulator/http/web-security.test.ts',
      'test/emulator/http/cors.test.ts',
    ],
  },
  'untrusted input': {
    mutate: ['emulator/untrusted-json.ts', 'emulator/http/querystring.ts', 'emulator/services/media/import-fetch.ts'],
    tests: [
      'test/emulator/untrusted-json.test.ts',
      'test/emulator/http/querystring.test.ts',
      'test/emulator/services/media/import-fetch.test.ts',
      'test/emulator/services/data/input-security.test.ts',
      'test/emulator/services/media/security.test.ts',
      'test/emulator/http/bad-input.test.ts',
    ],
  },
  redaction: {
    mutate: ['emulator/control/logged-bodies.ts'],
    tests: [
      'test/emulator/control/logged-bodies.test.ts',
      'test/emulator/control/request-log-bodies.test.ts',
      'test/emulator/control/request-log.test.ts',
    ],
  },
  'tokens and sessions': {
    mutate: [
      'emulator/auth/tokens.ts',
      'emulator/services/accounts/sign-in/browser-session.ts',
      'emulator/services/accounts/sign-in/authorization-codes.ts',
    ],
    tests: [
      'test/emulator/services/accounts/sign-in/authorization-codes.test.ts',
      'test/emulator/services/accounts/sign-in/browser-session.test.ts',
      'test/emulator/auth/access-tokens.test.ts',
      'test/emulator/auth/token-security.test.ts',
      'test/integration/auth-flows.test.ts',
      'test/integration/auth-hosted-pages.test.ts',
      'test/integration/auth-direct-node.test.ts',
    ],
  },
  'control API and test bench': {
    mutate: ['emulator/test-bench/faults.ts', 'emulator/control/test-identities.ts', 'emulator/test-bench/bench.ts'],
    tests: [
      'test/emulator/test-bench/faults.test.ts',
      'test/emulator/control/test-identities.test.ts',
      'test/emulator/test-bench/bench.test.ts',
      'test/emulator/control/control.test.ts',
    ],
  },
  'types and pull': {
    mutate: ['cli/pull-command.ts', 'cli/types-changes.ts', 'cli/site-copy.ts', 'cli/raw-calls.ts'],
    tests: [
      'test/cli/site-types.test.ts',
      'test/cli/site-copy.test.ts',
      'test/cli/pull-rate-limit.test.ts',
      'test/cli/raw-calls.test.ts',
      'test/cli/pull.test.ts',
      'test/cli/pull-paging.test.ts',
      'test/cli/pull-media-trust.test.ts',
    ],
  },
  'SDK transport': {
    mutate: ['src/http/transport.ts', 'src/http/response-shape.ts', 'src/http/redirect.ts', 'src/http/query.ts'],
    tests: ['test/unit/http/*.test.ts', 'test/unit/request.test.ts'],
  },
  'SDK retry': {
    mutate: ['src/http/retry.ts', 'src/http/deadline.ts'],
    tests: ['test/unit/http/*.test.ts'],
  },
  'SDK auth': {
    mutate: ['src/auth/token-lifecycle.ts', 'src/auth/storage.ts', 'src/http/auth.ts', 'src/auth/pkce.ts'],
    tests: ['test/unit/auth/*.test.ts'],
  },
  'SDK transforms': {
    mutate: ['src/wire/transform.ts', 'src/wire/plain.ts', 'src/wire/date.ts', 'src/wire/media.ts'],
    tests: ['test/unit/wire/*.test.ts'],
  },
  'clock and rate limit': {
    mutate: ['emulator/clock.ts', 'emulator/http/rate-limit.ts', 'emulator/test-bench/clock-routes.ts'],
    tests: [
      'test/emulator/clock.test.ts',
      'test/emulator/http/rate-limit.test.ts',
      'test/emulator/test-bench/clock-routes.test.ts',
      'test/emulator/test-bench/bench.test.ts',
    ],
  },
};

// The test files vitest.mutation.config.ts runs: scripts/mutate.mjs names one module's; a plain
// `npx stryker run` gets every module's. Stryker's test processes inherit the environment.
process.env.SITEKIT_MUTATION_TESTS ??= JSON.stringify([...new Set(Object.values(modules).flatMap((m) => m.tests))]);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // Each mutant runs only the tests that reached its code in the first (coverage) run.
  coverageAnalysis: 'perTest',
  // The machines are shared: one test process at a time.
  concurrency: 1,
  // A busy machine stretches every run: a mutant is a timeout only well past its normal time.
  timeoutMS: 20_000,
  timeoutFactor: 2,
  mutate: Object.values(modules).flatMap((module) => module.mutate),
  // The test files are chosen in vitest.mutation.config.ts (a module's, or all modules'), not with
  // Stryker's `testFiles`: with it, 9.6 activates a mutant of a module's top-level code (a constant,
  // a list of address ranges) only after the module has loaded, and reports it as survived.
  // Remembers each mutant's result and reruns only those whose code or tests changed (reports/ is not committed).
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: true },
  thresholds: { high: 90, low: 85, break: null },
  // What the sandbox copy of the project leaves out: nothing a test above reads.
  ignorePatterns: [
    'dist',
    'reports',
    'coverage',
    'console/dist',
    'bench/results',
    '.sitekit',
    'test/react18/node_modules',
  ],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
