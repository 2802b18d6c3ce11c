/**
 * What the sign-in, members, media, webhooks and outbox tests share: the emulator's switches,
 * its outbox, fresh email addresses, and the session token of a successful sign-in.
 */
import type { StateMachine } from '../../src/index.js';
import type { OutboxEmail, SettingValue } from '../../emulator/control/api.js';
import type { TestEmulator } from './emulator.js';

/** Changes emulator settings (`PUT /_emulator/config`, through the typed control client); a refused change rejects. */
export async function setConfig(emulator: TestEmulator, config: Record<string, SettingValue>): Promise<void> {
  await emulator.config.update(config);
}

export type { OutboxEmail };

/** The outbox, newest first (only the emails to `to` when given). */
export const readOutbox = (emulator: TestEmulator, to?: string): Promise<OutboxEmail[]> => emulator.outbox(to);

let addresses = 0;
/** An email address no other test uses. */
export const newEmail = (name: string): string => `${name}-${++addresses}-${Date.now()}@example.test`;

/** The session token of a sign-in outcome, which must be SUCCESS. */
export function sessionTokenOf(outcome: StateMachine): string {
  if (outcome.loginState !== 'SUCCESS') throw new Error(`expected SUCCESS, got ${JSON.stringify(outcome)}`);
  return outcome.data.sessionToken;
}
