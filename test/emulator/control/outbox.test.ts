/**
 * The outbox: nothing is ever sent; every email the emulator "sends" is listed newest first,
 * filterable by address, written only when the request that sends it succeeds, and emptied by
 * a reset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import type { OutboxEmail } from '../../helpers/sign-in.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

const outbox = (to?: string): Promise<OutboxEmail[]> => emulator.outbox(to);

describe('outbox', () => {
  it('lists emails newest first, filters by address (case-insensitive), and keeps nothing a failed request would have sent', async () => {
    const visitor = emulator.newVisitor();
    const stamp = Date.now();
    const first = `first-${stamp}@example.test`;
    const second = `second-${stamp}@example.test`;
    for (const email of [first, second]) await visitor.auth.register({ email, password: 'outbox password' });
    await visitor.auth.sendPasswordResetEmail(first, 'http://localhost:4000/reset');
    await visitor.auth.sendPasswordResetEmail(second, 'http://localhost:4000/reset');

    const all = await outbox();
    expect(all.slice(0, 2).map((email) => email.to)).toEqual([second, first]);
    expect(Date.parse(all[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(all[1]!.createdAt));
    const mine = await outbox(first.toUpperCase());
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ to: first, kind: 'password-recovery', subject: 'Reset your password' });
    expect(mine[0]!.text).toContain(mine[0]!.link);

    // A recovery request for a redirect the client does not allow fails, and sends nothing.
    await expect(visitor.auth.sendPasswordResetEmail(first, 'https://elsewhere.example/reset')).rejects.toMatchObject({
      status: 400,
    });
    expect(await outbox(first)).toHaveLength(1);
  });

  it('is emptied by a reset', async () => {
    const email = `reset-${Date.now()}@example.test`;
    const visitor = emulator.newVisitor();
    await visitor.auth.register({ email, password: 'outbox password' });
    await visitor.auth.sendPasswordResetEmail(email, 'http://localhost:4000/reset');
    const before = await outbox(email);
    expect(await emulator.reset()).toEqual({ reset: true, seeded: true });
    expect(await outbox()).toEqual([]);
    expect(before).toHaveLength(1);
  });
});
