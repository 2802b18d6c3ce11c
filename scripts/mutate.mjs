// Mutation testing, module by module (`npm run mutate`), or only the files a change touched
// (`npm run mutate -- emulator/http/request-guards.ts src/http/retry.ts:40-60`). Each module of
// stryker.config.mjs runs in its own Stryker run against its own test files, remembering its
// results in reports/mutation/<module>.incremental.json; the end prints the score of each module.
// Exits 1 when a module scores under the threshold (85 %).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { Stryker } from '@stryker-mutator/core';
import config, { modules } from '../stryker.config.mjs';

const THRESHOLD = config.thresholds.low;
/** Test files for a changed file that is in no module: the ones vitest finds importing it. */
const UNLISTED_TESTS = [
  'test/unit/**/*.test.ts',
  'test/integration/**/*.test.ts',
  'test/emulator/**/*.test.ts',
  'test/cli/**/*.test.ts',
];

/** A file name without a `:line-line` range. */
const fileOf = (pattern) => pattern.replace(/:\d+(?:[-:]\d+)*$/, '');

/** The runs to make: `{ name, mutate, tests, related }` for every module, or for the given files. */
function plannedRuns(files) {
  const all = Object.entries(modules).map(([name, module]) => ({ name, ...module, related: false }));
  if (!files.length) return all;
  const runs = new Map();
  for (const pattern of files) {
    const owner = all.find((module) => module.mutate.includes(fileOf(pattern)));
    const run = owner ?? { name: 'unlisted files', tests: UNLISTED_TESTS, related: true };
    const planned = runs.get(run.name) ?? { ...run, mutate: [] };
    planned.mutate.push(pattern);
    runs.set(run.name, planned);
  }
  return [...runs.values()];
}

/** Killed, survived... counts of one run, and its score (detected of the mutants a test could reach or miss). */
function tally(results) {
  const count = (status) => results.filter((result) => result.status == status).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const detected = killed + timeout;
  const valid = detected + survived + noCoverage;
  return { mutants: valid, killed, timeout, survived, noCoverage, score: valid ? (100 * detected) / valid : 100 };
}

const slug = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

for (const [name, module] of Object.entries(modules))
  for (const file of module.mutate)
    if (!existsSync(file)) {
      console.error(`stryker.config.mjs: the module ${name} names ${file}, which is not there (moved?)`);
      process.exit(2);
    }

// --force: every mutant tested again. Stryker reuses a survivor's result while its file and the
// tests that reached it are unchanged, which a new test file may not count as (a mutant of a
// module's top-level constants is reached by no test in particular).
const force = process.argv.includes('--force');
const files = process.argv.slice(2).filter((arg) => arg != '--force');
if (files.some((file) => file.startsWith('-'))) {
  console.error('usage: npm run mutate [-- [--force] <file>[:<from line>-<to line>]...]');
  process.exit(2);
}
mkdirSync('reports/mutation', { recursive: true });
const rows = [];
for (const run of plannedRuns(files)) {
  console.log(`\n# ${run.name}: ${run.mutate.join(', ')}\n`);
  // Read by vitest.mutation.config.ts in Stryker's test processes, which inherit the environment.
  process.env.SITEKIT_MUTATION_TESTS = JSON.stringify(run.tests);
  const stryker = new Stryker({
    configFile: 'stryker.config.mjs',
    mutate: run.mutate,
    vitest: { configFile: 'vitest.mutation.config.ts', related: run.related },
    incrementalFile: `reports/mutation/${slug(run.name)}.incremental.json`,
    force,
    htmlReporter: { fileName: `reports/mutation/${slug(run.name)}.html` },
  });
  rows.push({ module: run.name, ...tally(await stryker.runMutationTest()) });
}

const table = [
  '| module | mutants | killed | timeout | survived | no coverage | score |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.module} | ${row.mutants} | ${row.killed} | ${row.timeout} | ${row.survived} | ${row.noCoverage} | ${row.score.toFixed(1)} % |`,
  ),
].join('\n');
writeFileSync('reports/mutation/scores.md', `${table}\n`);
console.log(
  `\nMutation score by module (reports/mutation/scores.md; each module's mutants: reports/mutation/<module>.html)\n\n${table}\n`,
);
const below = rows.filter((row) => row.score < THRESHOLD);
if (below.length) {
  console.log(`Under ${THRESHOLD} %: ${below.map((row) => row.module).join(', ')}`);
  process.exitCode = 1;
}
