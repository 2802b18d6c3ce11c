/** 50 concurrent clients (visitors and elevated) for a few seconds: no error, every acknowledged write stored. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
  await emulator.admin.collections.createDataCollection({
    _id: 'Busy',
    permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ADMIN' },
  });
});
afterAll(() => emulator?.close());

describe('50 concurrent clients', () => {
  it('run for three seconds without an error', { timeout: 60_000 }, async () => {
    const clients = Array.from({ length: 50 }, (_, index) => (index % 5 == 0 ? emulator.admin : emulator.newVisitor()));
    const deadline = Date.now() + 3000;
    const errors: unknown[] = [];
    const inserted: string[] = [];
    let reads = 0;
    await Promise.all(
      clients.map(async (client, index) => {
        let round = 0;
        while (Date.now() < deadline) {
          try {
            const item = await client.items.insert('Busy', {
              client: index,
              round,
              label: `client ${index} round ${round}`,
            });
            inserted.push(item._id);
            await client.items.update('Busy', { ...item, round: round + 1 });
            const page = await client.items.query('Movies').gt('year', 1990).ascending('rating').limit(10).find();
            expect(page.items).toHaveLength(10);
            reads++;
          } catch (error) {
            errors.push(error);
          }
          round++;
        }
      }),
    );
    expect(errors).toEqual([]);
    expect(reads).toBeGreaterThan(50);
    expect(await emulator.admin.items.query('Busy').count()).toBe(inserted.length);
  });
});
