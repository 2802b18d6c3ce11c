/**
 * The global setup of README.md's "one site per test worker" recipe: one emulator for the whole run,
 * its URL handed to every worker (see `notes.test.ts`, which makes its own site in it).
 */
// README:start
import type { TestProject } from 'vitest/node';
import { startEmulator } from '../../../emulator/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    emulatorUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // sitePool: the key pairs of 8 sites made ahead, in the background, while the workers start.
  const emulator = await startEmulator({ port: 0, memory: true, sitePool: 8 });
  project.provide('emulatorUrl', emulator.url);
  return () => emulator.close();
}
// README:end
