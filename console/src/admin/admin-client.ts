/** The elevated client of the admin pages, typed. */
import type { ApiKeyAuth } from 'sitekit-sdk';
import { useClient } from 'sitekit-sdk/react';
import type { AdminClient } from '../emulator/clients.js';

/** The admin pages' client: the one the shell provides around them, holding the demo API key. */
export function useAdminClient(): AdminClient {
  return useClient<ApiKeyAuth>();
}
