/**
 * The `sitekit-sdk` command (the package's `bin`; `npm start` in this repository): runs the
 * command line with the process's streams and environment (./commands.ts dispatches it) and exits
 * with the command's code.
 */
import type { CommandIo } from './command-io.js';
import { runCommand } from './commands.js';

/** Set once a stop signal arrived: the process then exits as soon as the command has stopped. */
let stopRequested = false;

const io: CommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  untilStopped: () =>
    new Promise((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        process.once(signal, () => {
          stopRequested = true;
          resolve();
        });
      }
    }),
};

runCommand(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
    // A stopped emulator may leave idle handles behind (a client's keep-alive socket): do not wait on them.
    if (stopRequested) process.exit();
  },
  (error: unknown) => {
    process.stderr.write(`sitekit-sdk failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
