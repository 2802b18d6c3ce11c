/**
 * The emulator's test bench in the control API: the clock, fault rules, signing in as a member
 * and webhook events on demand (the console's Test bench and Webhooks pages).
 */
import type { Tokens } from 'sitekit-sdk';
import type { ClockState } from '../../../emulator/control/clock-routes.js';
import type { FaultInput, FaultRule } from '../../../emulator/control/faults.js';
import type { TriggeredEvent } from '../../../emulator/test-bench.js';
import type { AdminClient } from './clients.js';
import { readJson } from './control.js';

// The emulator's own shapes (types only: nothing of the emulator enters the bundle).
export type { ClockState, FaultInput, FaultRule, TriggeredEvent };

/** A JSON write of the control API. */
const write = <T>(client: AdminClient, method: string, path: string, body: unknown = {}) =>
  readJson<T>(client, path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The emulator's time and its offset from real time. */
export const readClock = (client: AdminClient, signal?: AbortSignal) =>
  readJson<ClockState>(client, 'clock', { signal });

/** Moves the emulator's time forward by `seconds`. */
export const advanceClock = (client: AdminClient, seconds: number) =>
  write<ClockState>(client, 'POST', 'clock', { advanceSeconds: seconds });

/** Puts the emulator back on real time. */
export const resetClock = (client: AdminClient) => write<ClockState>(client, 'POST', 'clock', { reset: true });

/** Every fault rule, with how often it fired. */
export const listFaults = (client: AdminClient, signal?: AbortSignal) =>
  readJson<{ faults: FaultRule[] }>(client, 'faults', { signal }).then((answer) => answer.faults);

/** Adds a fault rule (a malformed one is a ValidationError). */
export const addFault = (client: AdminClient, rule: FaultInput) =>
  write<{ id: string }>(client, 'POST', 'faults', rule);

/** Removes one fault rule. */
export const removeFault = (client: AdminClient, id: string) =>
  readJson<object>(client, `faults/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** Removes every fault rule. */
export const clearFaults = (client: AdminClient) => readJson<object>(client, 'faults', { method: 'DELETE' });

/** An approved member's tokens; the emulator's sign-in cookie is set too, so a reload stays signed in. */
export const signInAs = (client: AdminClient, memberId: string) =>
  write<Tokens>(client, 'POST', 'sign-in-as', { memberId, browserSession: true });

/** What the console's trigger form sends. */
export interface TriggerRequest {
  eventType: string;
  collection?: string;
  id?: string;
  /** Default: the config's webhookUrls. */
  urls?: string[];
  badSignature?: boolean;
}

/** Sends a signed domain event of any type now. */
export const triggerEvent = (client: AdminClient, request: TriggerRequest) =>
  write<TriggeredEvent>(client, 'POST', 'webhooks/trigger', request);

/** Sends a logged delivery's event again, to the same URL. */
export const redeliver = (client: AdminClient, deliveryId: string) =>
  write<{ eventId: string; url: string }>(client, 'POST', 'webhooks/redeliver', { deliveryId });
