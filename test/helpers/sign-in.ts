/**
 * What the sign-in, members, media, webhooks and outbox tests share: the emulator's switches,
 * its outbox, fresh email addresses, and the session token of a successful sign-in.
 */
import { expect } from 'vitest';
import type { StateMachine } from '../../src/index.js';
import type { TestEmulator } from './emulator.js';

/** Changes emulator settings (`PUT /_emulator/config`); a refused change fails the test. */
export async function setConfig(emulator: TestEmulator, config: Record<string, unknown>): Promise<void> {
  const response = await emulator.fetch('/_emulator/config', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ config }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** One email of the outbox. */
export interface OutboxEmail {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: string;
  code?: string;
  link?: string;
  createdAt: string;
}

/** The outbox, newest first (only the emails to `to` when given). */
export async function readOutbox(emulator: TestEmulator, to?: string): Promise<OutboxEmail[]> {
  const response = await emulator.fetch(`/_emulator/outbox${to ? `?to=${encodeURIComponent(to)}` : ''}`);
  return ((await response.json()) as { emails: OutboxEmail[] }).emails;
}

let addresses = 0;
/** An email address no other test uses. */
export const newEmail = (name: string): string => `${name}-${++addresses}-${Date.now()}@example.test`;

/** The session token of a sign-in outcome, which must be SUCCESS. */
export function sessionTokenOf(outcome: StateMachine): string {
  if (outcome.loginState !== 'SUCCESS') throw new Error(`expected SUCCESS, got ${JSON.stringify(outcome)}`);
  return outcome.data.sessionToken;
}
