/**
 * The two sitekit clients the console uses, both created once at start-up:
 * - the **site** client is what a real site built with sitekit has: an OAuth client (visitor,
 *   then member). Its tokens stay in memory, so a reload signs the member in again silently
 *   (hidden iframe and the emulator's session cookie), as on a real site;
 * - the **admin** client holds the site's API key, which makes it elevated.
 * Both act on the site the console was opened on (`chosen-site.ts`): its OAuth client, its API key
 * and site id; the control calls made through the admin client name it (`x-sitekit-site`).
 */
import {
  ApiKeyStrategy,
  OAuthStrategy,
  createClient,
  memoryTokenStorage,
  type ApiKeyAuth,
  type Client,
  type OAuthAuth,
} from 'sitekit-sdk';
import { SITE_HEADER } from '../../../emulator/control/api.js';
import type { EmulatorInfo } from './info.js';

/** The visitor's or member's client. */
export type SiteClient = Client<OAuthAuth>;
/** The elevated client of the admin view. */
export type AdminClient = Client<ApiKeyAuth>;

/** Both clients, talking to the origin that served the console. */
export interface ConsoleClients {
  site: SiteClient;
  admin: AdminClient;
}

/** Creates the console's clients for the site described by `info`. */
export function createConsoleClients(info: EmulatorInfo, baseUrl: string = window.location.origin): ConsoleClients {
  return {
    site: createClient({ baseUrl, auth: OAuthStrategy({ clientId: info.clientId, storage: memoryTokenStorage() }) }),
    admin: createClient({
      baseUrl,
      auth: ApiKeyStrategy({ apiKey: info.apiKey, siteId: info.siteId }),
      // The control API's site (the platform's calls find it by the key and wix-site-id).
      headers: { [SITE_HEADER]: info.siteId },
    }),
  };
}
