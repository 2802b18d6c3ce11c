import { relative } from 'node:path';
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

type RunnerTask = ReturnType<Vitest['state']['getFiles']>[number]['tasks'][number];

/**
 * Makes a failed `beforeAll` of a test file fail the tests it skipped. Vitest marks them skipped
 * and the file failed, and Stryker 9.6's vitest runner reads only the tests (and their describe
 * blocks, not the file): a mutant that stops the emulator a file starts in its `beforeAll` (a
 * migration's SQL, a service's setup) was reported as survived by every test of the file.
 */
class FileHookFailures implements Reporter {
  private vitest?: Vitest;
  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }
  // The files' tasks, as the runner reads them once the run has ended.
  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) {
      if (file.result?.state != 'fail' || !file.result.errors?.length) continue;
      const fail = (task: RunnerTask): void => {
        if (task.type == 'suite') task.tasks.forEach(fail);
        // Only those it skipped: not those left out by a name filter (mode 'skip') or a bail (no result).
        else if (task.mode == 'run' && task.result?.state == 'skip')
          task.result = { ...task.result, state: 'fail', errors: file.result!.errors };
      };
      file.tasks.forEach(fail);
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
    reporters: ['default', new FileHookFailures()],
  },
});
