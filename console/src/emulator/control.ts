/**
 * The emulator's control API (`/_emulator/…`) as the console reads it: the outbox, the request
 * log, the webhook delivery log and the configuration, through the control API's one typed client
 * (`emulator/control/client.ts`, browser-safe). Its calls go through the admin client's
 * `fetchWithAuth`, so time limits, aborts and failures are the same typed sitekit errors as
 * everywhere else.
 */
import { createControlClient, type ControlClient } from '../../../emulator/control/client.js';
import type {
  ImportInput,
  ImportResult,
  LoggedRequest,
  OutboxEmail,
  SettingValue,
  SiteExport,
  SiteInfo,
  WebhookDelivery,
} from '../../../emulator/control/api.js';
import type { AdminClient } from './clients.js';

export type { ImportResult, LoggedRequest, OutboxEmail, SettingValue, SiteExport, WebhookDelivery };

/** The emulator's settings and what each one does. */
export interface EmulatorConfig {
  config: Record<string, SettingValue>;
  descriptions: Record<string, string>;
}

/** The control client of the emulator that served the console, calling through `client`. */
export const controlOf = (client: AdminClient): ControlClient =>
  createControlClient({
    fetch: (url, init) => client.fetchWithAuth(url, { ...init, signal: init.signal ?? undefined }),
  });

/** The outbox, newest first; `to` keeps only the emails sent to that address. */
export async function listOutbox(client: AdminClient, to?: string, signal?: AbortSignal): Promise<OutboxEmail[]> {
  return (await controlOf(client).call('listOutbox', { query: to ? { to } : {}, signal })).emails;
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
export async function listRequests(
  client: AdminClient,
  filter: RequestLogFilter,
  signal?: AbortSignal,
): Promise<LoggedRequest[]> {
  const query = { ...filter, path: filter.path || undefined, caller: filter.caller || undefined };
  return (await controlOf(client).call('listRequests', { query, signal })).requests;
}

/** The webhook delivery log, newest first. */
export async function listWebhookDeliveries(client: AdminClient, signal?: AbortSignal): Promise<WebhookDelivery[]> {
  return (await controlOf(client).call('listWebhookDeliveries', { signal })).deliveries;
}

/** The current configuration. */
export function getConfig(client: AdminClient, signal?: AbortSignal): Promise<EmulatorConfig> {
  return controlOf(client).call('getConfig', { signal });
}

/** Changes some settings (all or nothing: a wrong value is a ValidationError); answers every setting's new value. */
export async function updateConfig(
  client: AdminClient,
  changes: Record<string, SettingValue>,
): Promise<Record<string, SettingValue>> {
  return (await controlOf(client).call('updateConfig', { body: { config: changes } })).config;
}

/** The site's whole state (version 2 export): what {@link importState} and `--seed` read back. */
export function exportState(client: AdminClient): Promise<SiteExport> {
  return controlOf(client).call('exportState');
}

/**
 * Replaces the site's state with an export. The emulator checks all of it first: a malformed file
 * is a ValidationError naming the bad section and changes nothing.
 */
export function importState(client: AdminClient, state: ImportInput): Promise<ImportResult> {
  return controlOf(client).call('importState', { body: state });
}

/** One of the emulator's sites, as `GET /_emulator/sites` lists them. */
export interface SiteSummary {
  siteId: string;
  /** The site of calls that name none (the one `npm start` prints). */
  default: boolean;
}

/** Every site of the emulator, the default site first. */
export async function listSites(client: AdminClient, signal?: AbortSignal): Promise<SiteSummary[]> {
  return (await controlOf(client).call('listSites', { signal })).sites;
}

/** Makes a site from the demo data; answers its id (and its keys). */
export function createSite(client: AdminClient): Promise<SiteInfo> {
  return controlOf(client).call('createSite', { body: { from: 'demo' } });
}

/** Deletes a site and all its data (never the default site). */
export async function deleteSite(client: AdminClient, siteId: string): Promise<void> {
  await controlOf(client).call('deleteSite', { params: { siteId } });
}
