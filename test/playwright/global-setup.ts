/** The Playwright recipe's global setup: one emulator for the whole run, its URL handed to the workers. */
// README:start
import { startEmulator } from '../../emulator/index.js';

export default async function globalSetup() {
  const emulator = await startEmulator({ port: 0, memory: true, sitePool: 4 });
  process.env.EMULATOR_URL = emulator.url; // the workers start with this environment
  return () => emulator.close();
}
// README:end
