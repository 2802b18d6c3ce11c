/** Our SHA-256 (used where WebCrypto's digest is missing) against node:crypto. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../../src/auth/sha256.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const reference = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('sha256', () => {
  it('gives the FIPS 180-4 examples', () => {
    const text = (value: string) => new TextEncoder().encode(value);
    expect(hex(sha256(text('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(text('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('equals node:crypto for any bytes, block and padding boundaries included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(hex(sha256(bytes))).toBe(reference(bytes));
      }),
      { numRuns: 300 },
    );
    for (let length = 50; length < 140; length++) {
      const bytes = new Uint8Array(length).fill(0x78);
      expect(hex(sha256(bytes))).toBe(reference(bytes));
    }
  });
});
