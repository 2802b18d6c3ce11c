/**
 * The CLI's one dispatch table: a command line names its command by its first words (`emulator
 * trigger` before `emulator`), `emulator` runs when none is named, and the emulator keeps running
 * until told to stop, then closes and exits 0 (no special "keep running" code).
 */
import { describe, expect, it, vi } from 'vitest';
import type { CommandIo } from '../../cli/command-io.js';
import { commandOf, runCommand } from '../../cli/commands.js';

/** Streams that keep what a command writes; `stop()` resolves its `untilStopped`. */
function testIo() {
  const output = { stdout: '', stderr: '' };
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const io: CommandIo = {
    stdout: (text) => void (output.stdout += text),
    stderr: (text) => void (output.stderr += text),
    env: {},
    untilStopped: () => stopped,
  };
  return { io, output, stop };
}

describe('the command a command line names', () => {
  it.each([
    [[], { name: 'emulator', argv: [] }],
    [['--port', '0'], { name: 'emulator', argv: ['--port', '0'] }],
    [['emulator', '--memory'], { name: 'emulator', argv: ['--memory'] }],
    [['emulator', 'trigger', 'x', '--id', '1'], { name: 'emulator trigger', argv: ['x', '--id', '1'] }],
    [['types', '--check'], { name: 'types', argv: ['--check'] }],
    [['pull'], { name: 'pull', argv: [] }],
    [['trigger'], { unknown: 'trigger' }],
    [['constructor'], { unknown: 'constructor' }],
  ])('%j', (argv, expected) => {
    expect(commandOf(argv)).toEqual(expected);
  });
});

describe('running a command line', () => {
  it('an unknown command is a usage mistake (2) that lists the commands', async () => {
    const { io, output } = testIo();
    expect(await runCommand(['tyeps'], io)).toBe(2);
    expect(output.stderr).toMatch(/^Unknown command: tyeps\n/);
    expect(output.stderr).toContain('emulator trigger');
  });

  it.each([
    [['--help'], 'Usage: sitekit-sdk emulator [options]'],
    [['emulator', 'trigger', '--help'], 'Usage: sitekit-sdk emulator trigger <event type>'],
    [['types', '-h'], 'Usage: sitekit-sdk types'],
    [['pull', '--help'], 'Usage: sitekit-sdk pull'],
  ])('%j prints its own help', async (argv, usage) => {
    const { io, output } = testIo();
    expect(await runCommand(argv, io)).toBe(0);
    expect(output.stdout.startsWith(usage)).toBe(true);
    // Columns a terminal shows as written: no line past 100 characters, every option's words in one column.
    const lines = output.stdout.split('\n');
    expect(lines.filter((line) => line.length > 100)).toEqual([]);
    const described = lines.filter((line) => /^ {2}-\S.* {2,}\S/.test(line) && !line.startsWith('    '));
    expect(new Set(described.map((line) => /^ {2}-\S.*? {2,}(?=\S)/.exec(line)![0].length)).size).toBe(1);
  });

  it('a bad option is a usage mistake printed with the help of its command', async () => {
    const { io, output } = testIo();
    expect(await runCommand(['emulator', '--port', 'x'], io)).toBe(2);
    expect(output.stderr).toContain('--port must be a whole number');
    expect(output.stderr).toContain('Usage: sitekit-sdk emulator [options]');
  });

  it('the emulator serves until stopped, then closes and exits 0', async () => {
    const { io, output, stop } = testIo();
    const run = runCommand(['emulator', '--port', '0', '--memory'], io);
    await vi.waitFor(() => expect(output.stdout).toMatch(/listening on (http:\S+)/), { timeout: 15_000 });
    const url = /listening on (http:\S+)/.exec(output.stdout)![1]!;
    expect((await fetch(`${url}/_emulator/health`)).ok).toBe(true);
    stop();
    expect(await run).toBe(0);
    await expect(fetch(`${url}/_emulator/health`)).rejects.toThrow();
  });
});
