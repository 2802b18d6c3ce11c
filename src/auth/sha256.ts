/**
 * SHA-256 (FIPS 180-4), written to be read next to the standard. Only used where WebCrypto's
 * `crypto.subtle.digest` is missing: pages served over plain http from a host other than
 * localhost, which browsers do not count as a secure context (see ./pkce.ts, which loads with it).
 */

/** The first 32 bits of the fractional parts of the square roots of the first 8 primes (FIPS 180-4, 5.3.3). */
const INITIAL_HASH = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4, 4.2.2). */
const ROUND_CONSTANTS = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];

/** Bytes per message block. */
const BLOCK_BYTES = 64;

/** Rotates a 32-bit word right by `bits`. */
const rotateRight = (word: number, bits: number): number => (word >>> bits) | (word << (32 - bits));

/**
 * The message padded as the standard says (FIPS 180-4, 5.1.1): the bytes, one 1 bit (the byte
 * 0x80), zeros, and the message length in bits as a 64-bit big-endian number, in whole blocks.
 */
function padded(message: Uint8Array): DataView {
  const lengthField = 8;
  const blocks = Math.ceil((message.length + 1 + lengthField) / BLOCK_BYTES);
  const bytes = new Uint8Array(blocks * BLOCK_BYTES);
  bytes.set(message);
  bytes[message.length] = 0x80;
  const view = new DataView(bytes.buffer);
  const bitLength = message.length * 8;
  view.setUint32(bytes.length - lengthField, Math.floor(bitLength / 2 ** 32));
  view.setUint32(bytes.length - 4, bitLength >>> 0);
  return view;
}

/** The SHA-256 digest (32 bytes) of `message`. */
export function sha256(message: Uint8Array): Uint8Array {
  const hash = [...INITIAL_HASH];
  const schedule = new Array<number>(64);
  const view = padded(message);
  for (let block = 0; block < view.byteLength; block += BLOCK_BYTES) {
    // The message schedule (6.2.2, step 1): the block's 16 words, then 48 derived from them.
    for (let t = 0; t < 16; t++) schedule[t] = view.getUint32(block + 4 * t);
    for (let t = 16; t < 64; t++) {
      const before15 = schedule[t - 15]!;
      const before2 = schedule[t - 2]!;
      const sigma0 = rotateRight(before15, 7) ^ rotateRight(before15, 18) ^ (before15 >>> 3);
      const sigma1 = rotateRight(before2, 17) ^ rotateRight(before2, 19) ^ (before2 >>> 10);
      schedule[t] = (schedule[t - 16]! + sigma0 + schedule[t - 7]! + sigma1) >>> 0;
    }
    // The working variables (step 2) and the 64 rounds (step 3).
    let [a, b, c, d, e, f, g, h] = hash as [number, number, number, number, number, number, number, number];
    for (let t = 0; t < 64; t++) {
      const sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25);
      const choice = (e & f) ^ (~e & g);
      const temp1 = (h + sum1 + choice + ROUND_CONSTANTS[t]! + schedule[t]!) >>> 0;
      const sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const temp2 = (sum0 + majority) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + temp1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (temp1 + temp2) >>> 0;
    }
    // The intermediate hash value (step 4).
    const working = [a, b, c, d, e, f, g, h];
    for (let index = 0; index < 8; index++) hash[index] = (hash[index]! + working[index]!) >>> 0;
  }
  const digest = new DataView(new ArrayBuffer(32));
  for (const [index, word] of hash.entries()) digest.setUint32(4 * index, word);
  return new Uint8Array(digest.buffer);
}
