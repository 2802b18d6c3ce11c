/**
 * The emulator's control API (`/_emulator/…`): the outbox, the request log, the webhook
 * delivery log and the configuration. These are the only non-platform endpoints the console
 * uses. They go through the admin client's `fetchWithAuth`, so failures are the same typed
 * sitekit errors as everywhere else.
 */
import type { CallOptions } from 'sitekit-sdk';
import type { LoggedRequest } from '../../../emulator/control/request-log.js';
import type { OutboxEmail } from '../../../emulator/services/outbox.js';
import type { WebhookDelivery } from '../../../emulator/services/webhooks/service.js';
import type { AdminClient } from './clients.js';

// The emulator's own shapes of its answers (types only: nothing of the emulator enters the bundle).
export type { LoggedRequest, OutboxEmail, WebhookDelivery };

/** A setting's value: the emulator's settings are booleans, numbers, strings or lists of strings. */
export type SettingValue = boolean | number | string | string[];

/** The emulator's settings and what each one does. */
export interface EmulatorConfig {
  config: Record<string, SettingValue>;
  descriptions: Record<string, string>;
}

/**
 * The header the emulator asks of control API writes that carry no JSON body (its name is
 * `CONTROL_HEADER` of `emulator/http/request-guards.ts`): a web page of another site cannot send
 * it without the browser asking the emulator first. Sent on every call, so a new write cannot forget it.
 */
const CONTROL_HEADERS = { 'x-sitekit-emulator': '1' };

/** One call of the control API (`/_emulator/<path>`), answered as JSON; failures are sitekit errors. */
export async function readJson<T>(
  client: AdminClient,
  path: string,
  init: Omit<RequestInit, 'signal'> & CallOptions = {},
): Promise<T> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(CONTROL_HEADERS)) headers.set(name, value);
  const response = await client.fetchWithAuth(`/_emulator/${path}`, { ...init, headers });
  return (await response.json()) as T;
}

/** The outbox, newest first; `to` keeps only the emails sent to that address. */
export function listOutbox(client: AdminClient, to?: string, signal?: AbortSignal): Promise<OutboxEmail[]> {
  const query = to ? `?to=${encodeURIComponent(to)}` : '';
  return readJson<{ emails: OutboxEmail[] }>(client, `outbox${query}`, { signal }).then((answer) => answer.emails);
}

/** Which lines of the request log to read (the emulator filters them). */
export interface RequestLogFilter {
  /** At most this many, newest first. */
  limit: number;
  /** Only this HTTP status. */
  status?: number;
  /** Only paths that start with this. */
  path?: string;
  /** Only this caller: `visitor`, `member`, `elevated`, or a member's or visitor's id. */
  caller?: string;
}

/** The request log, newest first, filtered. */
export function listRequests(
  client: AdminClient,
  filter: RequestLogFilter,
  signal?: AbortSignal,
): Promise<LoggedRequest[]> {
  const query = new URLSearchParams({ limit: String(filter.limit) });
  if (filter.status !== undefined) query.set('status', String(filter.status));
  if (filter.path) query.set('path', filter.path);
  if (filter.caller) query.set('caller', filter.caller);
  return readJson<{ requests: LoggedRequest[] }>(client, `requests?${query.toString()}`, { signal }).then(
    (answer) => answer.requests,
  );
}

/** The webhook delivery log, newest first. */
export function listWebhookDeliveries(client: AdminClient, signal?: AbortSignal): Promise<WebhookDelivery[]> {
  return readJson<{ deliveries: WebhookDelivery[] }>(client, 'webhooks', { signal }).then(
    (answer) => answer.deliveries,
  );
}

/** The current configuration. */
export function getConfig(client: AdminClient, signal?: AbortSignal): Promise<EmulatorConfig> {
  return readJson<EmulatorConfig>(client, 'config', { signal });
}

/** Changes some settings (all or nothing: a wrong value is a ValidationError); answers every setting's new value. */
export function updateConfig(
  client: AdminClient,
  changes: Record<string, SettingValue>,
): Promise<Record<string, SettingValue>> {
  return readJson<{ config: Record<string, SettingValue> }>(client, 'config', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ config: changes }),
  }).then((answer) => answer.config);
}
