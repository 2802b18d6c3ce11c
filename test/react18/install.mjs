// `npm test`'s pretest step: installs React 18 into this folder (from its lock file) for the
// React 18 run of test/react/, unless the pinned versions are already there. Nothing is fetched
// when they are, so a machine that has run it once works offline.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = dirname(fileURLToPath(import.meta.url));
const wanted = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).dependencies;

const installedVersion = (name) => {
  try {
    return JSON.parse(readFileSync(join(folder, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
};

const missing = Object.entries(wanted).filter(([name, version]) => installedVersion(name) !== version);
if (missing.length) {
  console.log(
    `Installing ${missing.map(([name, version]) => `${name}@${version}`).join(', ')} into test/react18 for the React 18 test run`,
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: folder,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('Could not install React 18 into test/react18 (is the npm registry reachable?)');
    process.exit(result.status ?? 1);
  }
}
