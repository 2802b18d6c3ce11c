/** The Playwright recipe's fixture: each worker makes its own site in the run's emulator, used by all its tests. */
// README:start
import { test as base } from '@playwright/test';
import { createSite, type EmulatorSite } from '../../emulator/index.js';

export const test = base.extend<object, { site: EmulatorSite }>({
  site: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's needs from this pattern (none here).
    async ({}, use) => {
      const site = await createSite(process.env.EMULATOR_URL!); // from the demo data
      await use(site);
      await site.remove();
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';
// README:end
