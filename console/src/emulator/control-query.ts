/** TanStack queries over the emulator's control API (not sitekit queries, so they have their own keys). */
import { useQuery } from '@tanstack/react-query';
import type { AdminClient } from './clients.js';

/** The key prefix of every control-API query. */
export const controlKey = ['sitekit-console', 'control'] as const;

/** Reads one control-API resource, refreshed every `refreshMs` while the page shows it. */
export function useControlQuery<T>(
  name: string,
  client: AdminClient,
  read: (client: AdminClient, signal: AbortSignal) => Promise<T>,
  refreshMs: number | false = false,
) {
  return useQuery({
    queryKey: [...controlKey, name],
    queryFn: ({ signal }) => read(client, signal),
    refetchInterval: refreshMs,
  });
}
