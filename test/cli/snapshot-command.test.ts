/**
 * `sitekit-sdk snapshot`: saves, lists, restores and removes a running emulator's snapshots (of the
 * default site, or of `--site`); a
 * refusal is printed in the emulator's words (exit 1), a command line without its name is a usage
 * mistake (exit 2), and no emulator at the URL says what to start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIo } from '../../cli/command-io.js';
import { runCommand } from '../../cli/commands.js';
import { closedOrigin } from '../helpers/closed-origin.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

/** Runs `snapshot` with `args` against the test emulator (`SITEKIT_EMULATOR_URL`); its exit code and output. */
async function snapshot(...args: string[]) {
  const output = { stdout: '', stderr: '' };
  const io: CommandIo = {
    stdout: (text) => void (output.stdout += text),
    stderr: (text) => void (output.stderr += text),
    env: { SITEKIT_EMULATOR_URL: emulator.url },
  };
  const code = await runCommand(['snapshot', ...args], io);
  return { code, ...output };
}

describe('sitekit-sdk snapshot', () => {
  it('saves, lists, restores and removes a snapshot', async () => {
    const saved = await snapshot('save', 'from-cli');
    expect(saved).toMatchObject({ code: 0, stderr: '' });
    expect(saved.stdout).toMatch(/^Saved from-cli \(\d+ bytes\)\.\n$/);
    const [listed] = await emulator.snapshots.list();
    expect((await snapshot('list')).stdout).toBe(`from-cli\t${listed!.createdAt}\t${listed!.sizeBytes} bytes\n`);

    await emulator.admin.items.insert('Movies', { _id: 'after-cli-save', title: 'After' });
    expect(await snapshot('restore', 'from-cli', '--emulator', emulator.url)).toMatchObject({
      code: 0,
      stdout: `Restored from-cli, saved ${listed!.createdAt}.\n`,
    });
    expect(await emulator.admin.items.get('Movies', 'after-cli-save')).toBeNull();

    expect(await snapshot('remove', 'from-cli')).toMatchObject({ code: 0, stdout: 'Removed from-cli.\n' });
    expect((await snapshot('list')).stdout).toBe('No snapshots.\n');
  });

  it('acts on the site --site names, and only on it', async () => {
    const site = await emulator.createSite({ from: 'empty' });
    try {
      expect(await snapshot('save', 'site-only', '--site', site.info.siteId)).toMatchObject({ code: 0 });
      expect((await site.snapshots.list()).map((saved) => saved.name)).toEqual(['site-only']);
      expect((await snapshot('list')).stdout).toBe('No snapshots.\n');
      const unknownSite = await snapshot('list', '--site', 'no-such-site');
      expect(unknownSite.code).toBe(1);
      expect(unknownSite.stderr).toContain('(404)');
    } finally {
      await site.remove();
    }
  });

  it('prints the emulator’s refusal and exits 1', async () => {
    const missing = await snapshot('restore', 'no-such');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe(
      'The emulator refused to restore no-such (404): No snapshot named no-such: GET /_emulator/snapshots lists them\n',
    );
    const badName = await snapshot('save', '../up');
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain('The emulator refused to save ../up (400)');
  });

  it('is a usage mistake (2) without an action or a name, or with a name for list', async () => {
    for (const args of [[], ['keep', 'x'], ['save'], ['restore', 'a', 'b'], ['list', 'x']]) {
      const run = await snapshot(...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain('Usage: sitekit-sdk snapshot');
    }
  });

  it('says what to start when no emulator answers', async () => {
    const origin = await closedOrigin();
    const run = await snapshot('list', '--emulator', origin);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain(`No emulator answers at ${origin}: start one (npx sitekit-sdk emulator)`);
  });
});
