import { defineConfig } from 'vitest/config';

/**
 * The test run of mutation testing (stryker.config.mjs): the test files of the module being
 * mutated, which stryker.config.mjs and scripts/mutate.mjs name in SITEKIT_MUTATION_TESTS (a JSON
 * list of globs). Node tests only: none of the type tests or the React 18 pass of vitest.config.ts
 * covers a mutated module.
 */
export default defineConfig({
  test: {
    globals: true,
    testTimeout: 20_000,
    include: JSON.parse(process.env.SITEKIT_MUTATION_TESTS ?? '["test/unit/**/*.test.ts"]') as string[],
  },
});
