/** TanStack queries over the emulator's control API (not sitekit queries, so they have their own keys). */
import { useQuery } from '@tanstack/react-query';
import type { AdminClient } from './clients.js';

/** The key prefix of every control-API query. */
export const controlKey = ['sitekit-console', 'control'] as const;

/**
 * How long one read of the control API may take. The emulator runs on this machine and answers in
 * milliseconds: past this, it is stopped or stuck, and the page says so rather than "Reading…" for
 * the SDK's default minute.
 */
export const CONTROL_READ_LIMIT_MS = 8_000;

/**
 * Reads one control-API resource, refreshed every `refreshMs` while the page shows it (and only
 * when `enabled`: a page whose input is wrong reads nothing).
 */
export function useControlQuery<T>(
  name: string,
  client: AdminClient,
  read: (client: AdminClient, signal: AbortSignal) => Promise<T>,
  refreshMs: number | false = false,
  enabled = true,
) {
  return useQuery({
    queryKey: [...controlKey, name],
    // AbortSignal.timeout's reason is a TimeoutError: the SDK turns it into its own TimeoutError.
    queryFn: ({ signal }) => read(client, AbortSignal.any([signal, AbortSignal.timeout(CONTROL_READ_LIMIT_MS)])),
    refetchInterval: refreshMs,
    enabled,
  });
}
