/** The chosen site's coordinates, read once at start-up from the emulator's control API. */
import type { SiteKitError } from 'sitekit-sdk';
import type { SiteInfo } from '../../../emulator/control/api.js';
import { createControlClient } from '../../../emulator/control/client.js';
import { chosenSiteId, forgetChosenSite } from './chosen-site.js';

/** What `GET /_emulator/info` answers. */
export type EmulatorInfo = SiteInfo;

/** Thrown when the console cannot reach the emulator at start-up. */
export class EmulatorUnavailableError extends Error {
  override readonly name = 'EmulatorUnavailableError';
}

/**
 * Reads `/_emulator/info` of the chosen site (`chosen-site.ts`) from the origin that served the
 * console; a chosen site that is gone is forgotten, and the default site's is read. This runs before
 * any sitekit client exists (the clients need these values), so the control client calls the
 * page's `fetch`.
 */
export async function loadEmulatorInfo(signal?: AbortSignal): Promise<EmulatorInfo> {
  let info: EmulatorInfo;
  const siteId = chosenSiteId();
  try {
    try {
      info = await createControlClient(siteId === undefined ? {} : { siteId }).call('getInfo', { signal });
    } catch (error) {
      if (siteId === undefined || (error as SiteKitError).status !== 404) throw error;
      forgetChosenSite();
      info = await createControlClient().call('getInfo', { signal });
    }
  } catch (error) {
    // What fetch says ("Failed to fetch") tells a person nothing: say where nothing answered.
    const status = (error as SiteKitError).status;
    throw new EmulatorUnavailableError(
      status === undefined
        ? `The emulator is not reachable at ${window.location.origin}.`
        : `The emulator answered ${status} to /_emulator/info.`,
      { cause: error },
    );
  }
  for (const key of ['apiKey', 'siteId', 'clientId'] as const) {
    if (typeof info[key] !== 'string' || info[key] === '')
      throw new EmulatorUnavailableError(`/_emulator/info has no ${key}.`);
  }
  return info;
}
