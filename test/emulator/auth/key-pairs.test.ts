/**
 * The site key pairs made ahead for in-process emulators: a prepared pair goes to one site only,
 * and emulators made one after another (each preparing the next one's) never share a key.
 */
import { exportSPKI } from 'jose';
import { afterAll, expect, it } from 'vitest';
import { newSigningKeyPair, prepareNextKeyPair } from '../../../emulator/auth/key-pairs.js';
import { createEmulator, type InProcessEmulator } from '../../../emulator/index.js';

const made: InProcessEmulator[] = [];
afterAll(async () => {
  for (const emulator of made) await emulator.close();
});

it('a prepared pair is handed out once: every pair taken is a different one', async () => {
  prepareNextKeyPair();
  const ahead = newSigningKeyPair();
  prepareNextKeyPair();
  prepareNextKeyPair();
  const [first, second, third] = await Promise.all([ahead, newSigningKeyPair(), newSigningKeyPair()]);
  const keys = await Promise.all([first, second, third].map((pair) => exportSPKI(pair.publicKey)));
  expect(new Set(keys).size).toBe(3);
});

it('emulators made one after another each have their own key pair', async () => {
  for (let index = 0; index < 3; index++) made.push(await createEmulator());
  expect(new Set(made.map((emulator) => emulator.info.publicKey)).size).toBe(3);
});
