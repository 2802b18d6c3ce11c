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

type RunnerFile = ReturnType<Vitest['state']['getFiles']>[number];

/**
 * Gives a test file that failed outside its tests one failed test, as Stryker's vitest runner
 * counts failed tests only (and reads a test's describe blocks, not its file). Such a file failed
 * - to load (an import threw): a mutant of a module's top-level code that throws as the module
 *   loads (`new BlockList().addSubnet(network, prefix, '')`) stopped the run at the first file
 *   importing it (bail) with every test run so far passed;
 * - in a `beforeAll` hook, which skips the file's tests: a mutant that stops the emulator a file
 *   starts there (a migration's SQL, the token service's body) skipped every test of the file.
 * Both were reported as survived.
 */
class FileFailures implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? [])
      if (file.result?.state == 'fail' && !file.tasks.some(failed)) file.tasks.push(fileFailure(file));
  }
}

/** Whether a test, or a test under a describe block, failed. */
const failed = (task: RunnerFile['tasks'][number]): boolean =>
  task.type == 'suite' ? task.tasks.some(failed) : task.result?.state == 'fail';

/** The failed test standing for the failure of a file outside its tests. */
function fileFailure(file: RunnerFile): RunnerTestCase {
  const name = '(the test file failed outside its tests: as it loaded, or in a hook)';
  return {
    type: 'test',
    id: `${file.id}_file`,
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
    result: { state: 'fail', errors: file.result?.errors ?? [] },
  };
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
    reporters: ['default', new FileFailures()],
  },
});
