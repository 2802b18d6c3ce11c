/**
 * The emulator's test bench in the control API: the clock, fault rules, signing in as a member,
 * named snapshots and webhook events on demand (the console's Test bench and Webhooks pages),
 * through the control API's typed client.
 */
import type { Tokens } from 'sitekit-sdk';
import type {
  ClockState,
  FaultInput,
  FaultOperation,
  FaultRule,
  Snapshot,
  TriggerInput,
  TriggeredEvent,
} from '../../../emulator/control/api.js';
import type { AdminClient } from './clients.js';
import { controlOf } from './control.js';

export type { ClockState, FaultInput, FaultOperation, FaultRule, Snapshot, TriggeredEvent };

/** What the console's trigger form sends. */
export type TriggerRequest = TriggerInput;

/** The emulator's time and its offset from real time. */
export const readClock = (client: AdminClient, signal?: AbortSignal) => controlOf(client).call('getClock', { signal });

/** Moves the emulator's time forward by `seconds`. */
export const advanceClock = (client: AdminClient, seconds: number) =>
  controlOf(client).call('moveClock', { body: { advanceSeconds: seconds } });

/** Puts the emulator back on real time. */
export const resetClock = (client: AdminClient) => controlOf(client).call('moveClock', { body: { reset: true } });

/** Every fault rule, with how often it fired. */
export const listFaults = async (client: AdminClient, signal?: AbortSignal): Promise<FaultRule[]> =>
  (await controlOf(client).call('listFaults', { signal })).faults;

/** Adds a fault rule (a malformed one is a ValidationError). */
export const addFault = (client: AdminClient, rule: FaultInput) => controlOf(client).call('addFault', { body: rule });

/** Removes one fault rule. */
export const removeFault = (client: AdminClient, id: string) =>
  controlOf(client).call('removeFault', { params: { id } });

/** Removes every fault rule. */
export const clearFaults = (client: AdminClient) => controlOf(client).call('clearFaults');

/** An approved member's tokens; the emulator's sign-in cookie is set too, so a reload stays signed in. */
export const signInAs = async (client: AdminClient, memberId: string): Promise<Tokens> =>
  (await controlOf(client).call('signInAs', { body: { memberId, browserSession: true } })) as Tokens;

/** The site's snapshots, oldest first. */
export const listSnapshots = async (client: AdminClient, signal?: AbortSignal): Promise<Snapshot[]> =>
  (await controlOf(client).call('listSnapshots', { signal })).snapshots;

/** Saves the site's whole state as `name` (a snapshot of that name is replaced; a bad name is a ValidationError). */
export const saveSnapshot = (client: AdminClient, name: string) =>
  controlOf(client).call('saveSnapshot', { body: { name } });

/** Puts the site's state back as the snapshot `name` holds it. */
export const restoreSnapshot = (client: AdminClient, name: string) =>
  controlOf(client).call('restoreSnapshot', { params: { name } });

/** Removes the snapshot `name`. */
export const removeSnapshot = (client: AdminClient, name: string) =>
  controlOf(client).call('removeSnapshot', { params: { name } });

/** Sends a signed domain event of any type now. */
export const triggerEvent = (client: AdminClient, request: TriggerRequest) =>
  controlOf(client).call('triggerEvent', { body: request });

/** Sends a logged delivery's event again, to the same URL. */
export const redeliver = (client: AdminClient, deliveryId: string) =>
  controlOf(client).call('redeliverWebhook', { body: { deliveryId } });
