/**
 * Key pairs made ahead of need. Every site signs its tokens and webhooks with its own RSA key pair,
 * and making one takes 50 ms on an idle core and up to a second on a loaded one: a new site takes
 * a pair made earlier, in the background, one at a time (so the pool never holds more than one
 * core), and the pool makes the next.
 */
import { exportPKCS8, exportSPKI } from 'jose';
import { newSigningKeyPair } from '../auth/key-pairs.js';
import type { KeyPairPems } from '../site.js';

/** A new key pair (`auth/key-pairs.ts`: the one made ahead for the process's next site, if any), exported. */
export async function newKeyPair(): Promise<KeyPairPems> {
  const { privateKey, publicKey } = await newSigningKeyPair();
  return { privateKeyPem: await exportPKCS8(privateKey), publicKeyPem: await exportSPKI(publicKey) };
}

/** Key pairs made ahead. */
export interface KeyPool {
  /** A key pair: one made ahead when there is one, else a new one. */
  take(): Promise<KeyPairPems>;
  /** Starts filling the pool (in the background); later calls do nothing. */
  fill(): void;
  /** Resolves once the pool holds `size` key pairs (after {@link KeyPool.fill}; at once for size 0). */
  filled(): Promise<void>;
  /** Stops making key pairs (the emulator closes); resolves once the one being made is done. */
  close(): Promise<void>;
}

/** A pool that keeps `size` key pairs ready once {@link KeyPool.fill} is called (0: none, each take makes one). */
export function createKeyPool(size: number, make: () => Promise<KeyPairPems> = newKeyPair): KeyPool {
  const ready: KeyPairPems[] = [];
  let filling = false;
  let closed = false;
  let making: Promise<void> | undefined;
  let waiting: (() => void)[] = [];
  const makeNext = () => {
    if (ready.length >= size || closed) {
      for (const resolve of waiting) resolve();
      waiting = [];
    }
    if (closed || !filling || making || ready.length >= size) return;
    making = make()
      .then((pair) => void ready.push(pair))
      // A failure here is the next take's to meet (it makes its own); the pool stops filling.
      .catch(() => void (filling = false))
      .finally(() => {
        making = undefined;
        makeNext();
      });
  };
  return {
    take() {
      const pair = ready.shift();
      makeNext();
      return pair ? Promise.resolve(pair) : make();
    },
    fill() {
      filling = true;
      makeNext();
    },
    filled() {
      if (ready.length >= size || closed) return Promise.resolve();
      return new Promise((resolve) => waiting.push(resolve));
    },
    async close() {
      closed = true;
      makeNext();
      await making;
    },
  };
}
