import { relative } from 'node:path';
import type { RunnerTestCase } from 'vitest';
import { BaseSequencer, type Reporter, type TestSpecification, type Vitest } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** The test files (or globs) of the module being mutated, in the order its entry lists them. */
const moduleTests = JSON.parse(process.env.SITEKIT_MUTATION_TESTS ?? '["test/unit/**/*.test.ts"]') as string[];

/**
 * Runs test files in the order the module lists them, its quick unit tests first: a mutant of a
 * module's top-level code runs all of them, stopping at the first failure, and vitest's own order
 * puts the slowest files first.
 */
class ListedOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = moduleTests.indexOf(relative(process.cwd(), file.moduleId));
      return index < 0 ? moduleTests.length : index;
    };
    return [...files].sort((left, right) => rank(left) - rank(right) || left.moduleId.localeCompare(right.moduleId));
  }
}

/**
 * Gives a test file that failed to load (an import threw) one failed test. Stryker's vitest runner
 * counts failed tests only, and such a file has none: a mutant of a module's top-level code that
 * throws as the module loads (`new BlockList().addSubnet(network, prefix, '')`) stopped the run at
 * the first file importing it (bail) with every test run so far passed, and was reported as survived.
 */
class LoadFailures implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) {
      if (file.result?.state != 'fail' || file.tasks.length) continue;
      const name = '(the test file failed to load)';
      const failed: RunnerTestCase = {
        type: 'test',
        id: `${file.id}_load`,
        name,
        fullName: `${file.name} ${name}`,
        fullTestName: name,
        mode: 'run',
        context: undefined as never,
        file,
        meta: {},
        annotations: [],
        artifacts: [],
        timeout: 0,
        result: { state: 'fail', errors: file.result.errors ?? [] },
      };
      file.tasks.push(failed);
    }
  }
}

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
    include: moduleTests,
    sequence: { sequencer: ListedOrder },
    reporters: ['default', new LoadFailures()],
  },
});
