/**
 * The emulator `verify` compares a site with when no `--emulator` is given: started in this
 * process on a free loopback port, in memory, seeded with a copy of the site made by `pull` (the
 * compared collections, members anonymized, media descriptors), so both answer from the same data.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pullCommand } from '../pull-command.js';
import type { CommandIo } from '../command-io.js';

/** A running emulator of the site. */
export interface SiteEmulator {
  url: string;
  close(): Promise<void>;
}

/**
 * Pulls the site (`siteArguments`: `--url`, `--api-key`, `--site-id`) into a temporary file and
 * starts an emulator on it; the file is gone once the emulator has loaded it.
 */
export async function startSiteEmulator(
  siteArguments: readonly string[],
  collectionIds: readonly string[],
  io: CommandIo,
): Promise<SiteEmulator> {
  const dir = await mkdtemp(join(tmpdir(), 'sitekit-verify-'));
  try {
    const file = join(dir, 'site.json');
    // Pull's progress and its closing advice (load the file with --seed) are not for this run:
    // the file is loaded here and then removed. Its failure still reaches the caller, thrown.
    const quiet: CommandIo = { ...io, stdout: () => {}, stderr: () => {} };
    const pulled = await pullCommand(
      [...siteArguments, '--out', file, ...(collectionIds.length ? ['--collections', collectionIds.join(',')] : [])],
      quiet,
    );
    if (pulled != 0) throw new Error('the copy of the site (pull) failed');
    let startEmulator: typeof import('../../emulator/index.js').startEmulator;
    try {
      ({ startEmulator } = await import('../../emulator/index.js'));
    } catch (error) {
      throw new Error(
        `cannot start an emulator here (${(error as Error).message}): install its server packages (npx sitekit-sdk emulator says which), or give --emulator <url> of a running one`,
      );
    }
    const emulator = await startEmulator({ port: 0, memory: true, seed: file });
    return { url: emulator.url, close: () => emulator.close() };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
