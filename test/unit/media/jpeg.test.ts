/**
 * The JPEG decoder of the scaled previews: baseline and progressive JPEGs (made by the test
 * encoder) decode to their source colours; damaged and hostile bytes answer undefined, quickly.
 */
import { describe, expect, it } from 'vitest';
import { decodeJpegRows } from '../../../emulator/services/media/jpeg.js';
import { encodeJpeg, type JpegOptions } from '../../helpers/jpeg-encoder.js';

const MAX_PIXELS = 10_000_000;

/** A smooth picture: red grows to the right, blue downwards, green fixed. */
const gradient = (width: number, height: number) => (x: number, y: number) =>
  [Math.round((255 * x) / (width - 1)), 90, Math.round((255 * y) / (height - 1))] as const;

/** The largest difference of any channel between the decoded JPEG and the colours it was made of. */
function worstDifference(width: number, height: number, options: JpegOptions): number {
  const colorAt = gradient(width, height);
  let worst = 0;
  let rows = 0;
  const size = decodeJpegRows(encodeJpeg(width, height, colorAt, options), MAX_PIXELS, (y, rgba) => {
    rows++;
    for (let x = 0; x < width; x++) {
      const expected = colorAt(x, y);
      for (let channel = 0; channel < 3; channel++)
        worst = Math.max(worst, Math.abs(rgba[x * 4 + channel]! - expected[channel]!));
      expect(rgba[x * 4 + 3]).toBe(255);
    }
  });
  expect(size).toEqual({ width, height });
  expect(rows).toBe(height);
  return worst;
}

/** Decodes and reports whether it read an image, failing the test on a throw. */
const reads = (bytes: Buffer) => decodeJpegRows(bytes, MAX_PIXELS, () => {}) !== undefined;

describe('decodeJpegRows', () => {
  // Sizes that are not whole MCUs, so the padding blocks at the right and bottom edges are exercised.
  it.each([
    ['baseline 4:2:0', { subsampling: '4:2:0' }],
    ['baseline 4:4:4', { subsampling: '4:4:4' }],
    ['baseline with restart markers', { restartInterval: 3 }],
    ['progressive 4:2:0', { progressive: true, subsampling: '4:2:0' }],
    ['progressive 4:4:4', { progressive: true, subsampling: '4:4:4' }],
  ] as const)('decodes a %s JPEG to its source colours', (_, options) => {
    expect(worstDifference(101, 75, options)).toBeLessThanOrEqual(8);
  });

  it.each([
    ['baseline', false],
    ['progressive', true],
  ])('decodes a %s gray JPEG to its source brightness', (_, progressive) => {
    const brightness = (x: number, y: number) => Math.round((255 * (x + y)) / (57 + 39));
    const bytes = encodeJpeg(58, 40, (x, y) => [brightness(x, y), brightness(x, y), brightness(x, y)], {
      gray: true,
      progressive,
    });
    let worst = 0;
    expect(
      decodeJpegRows(bytes, MAX_PIXELS, (y, rgba) => {
        for (let x = 0; x < 58; x++)
          for (let channel = 0; channel < 3; channel++)
            worst = Math.max(worst, Math.abs(rgba[x * 4 + channel]! - brightness(x, y)));
      }),
    ).toEqual({ width: 58, height: 40 });
    expect(worst).toBeLessThanOrEqual(6);
  });

  it('turns the rows as the Exif orientation says (phones store portrait photos sideways)', () => {
    // Stored 64×32: left half red, right half blue.
    const stored = (x: number) => (x < 32 ? ([255, 0, 0] as const) : ([0, 0, 255] as const));
    const shown = (orientation: number) => {
      const rows: number[][][] = [];
      const size = decodeJpegRows(encodeJpeg(64, 32, stored, { orientation }), MAX_PIXELS, (_, rgba) =>
        rows.push(Array.from({ length: rgba.length / 4 }, (_, x) => [...rgba.subarray(x * 4, x * 4 + 3)])),
      );
      // The colour at a point of the shown picture, as the nearest of red and blue.
      const at = (x: number, y: number) => (rows[y]![x]![0]! > rows[y]![x]![2]! ? 'red' : 'blue');
      return { size, at };
    };
    const upright = shown(1);
    expect(upright.size).toEqual({ width: 64, height: 32 });
    expect([upright.at(5, 16), upright.at(60, 16)]).toEqual(['red', 'blue']);
    // 6: shown a quarter turn clockwise, 32×64, the stored left half at the top.
    const clockwise = shown(6);
    expect(clockwise.size).toEqual({ width: 32, height: 64 });
    expect([clockwise.at(16, 5), clockwise.at(16, 60)]).toEqual(['red', 'blue']);
    // 8: a quarter turn counter-clockwise, the stored left half at the bottom.
    const counterClockwise = shown(8);
    expect(counterClockwise.size).toEqual({ width: 32, height: 64 });
    expect([counterClockwise.at(16, 5), counterClockwise.at(16, 60)]).toEqual(['blue', 'red']);
    // 3: half a turn; 2: mirrored.
    expect([shown(3).at(5, 16), shown(3).at(60, 16)]).toEqual(['blue', 'red']);
    expect([shown(2).at(5, 16), shown(2).at(60, 16)]).toEqual(['blue', 'red']);
  });

  it('declines a header larger than the cap without decoding it', () => {
    const forged = encodeJpeg(16, 16, gradient(16, 16));
    const frame = forged.indexOf(Buffer.from([0xff, 0xc0]));
    forged.writeUInt16BE(65535, frame + 5); // height
    forged.writeUInt16BE(65535, frame + 7); // width
    const started = performance.now();
    expect(reads(forged)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('declines truncated data, baseline or progressive', () => {
    for (const progressive of [false, true]) {
      const whole = encodeJpeg(64, 64, gradient(64, 64), { progressive });
      expect(reads(whole)).toBe(true);
      expect(reads(whole.subarray(0, Math.floor(whole.length * 0.6)))).toBe(false);
      expect(reads(whole.subarray(0, 2))).toBe(false);
    }
  });

  it('declines hostile segments: past the end, over-full Huffman tables, bad sampling, unknown scan components', () => {
    const base = () => encodeJpeg(32, 32, gradient(32, 32));
    const at = (bytes: Buffer, marker: number) => bytes.indexOf(Buffer.from([0xff, marker]));

    const pastTheEnd = base();
    pastTheEnd.writeUInt16BE(65535, at(pastTheEnd, 0xdb) + 2);
    expect(reads(pastTheEnd)).toBe(false);

    const overFull = base();
    overFull[at(overFull, 0xc4) + 5] = 200; // 200 codes of length 1
    expect(reads(overFull)).toBe(false);

    const badSampling = base();
    badSampling[at(badSampling, 0xc0) + 11] = 0x00; // luma sampled 0 × 0
    expect(reads(badSampling)).toBe(false);

    const unknownComponent = base();
    unknownComponent[at(unknownComponent, 0xda) + 5] = 9; // the scan names component 9
    expect(reads(unknownComponent)).toBe(false);

    const twelveBits = base();
    twelveBits[at(twelveBits, 0xc0) + 4] = 12;
    expect(reads(twelveBits)).toBe(false);
  });

  it('never throws nor hangs on damaged bytes (10,000 random corruptions)', () => {
    const originals = [
      encodeJpeg(48, 40, gradient(48, 40)),
      encodeJpeg(48, 40, gradient(48, 40), { progressive: true, orientation: 6 }),
    ];
    // xorshift32: the same corruptions on every run.
    let state = 88172645;
    const random = (below: number) => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) % below;
    };
    const started = performance.now();
    for (let trial = 0; trial < 10_000; trial++) {
      const bytes = Buffer.from(originals[trial % 2]!);
      for (let change = 0; change <= random(4); change++) bytes[random(bytes.length)] = random(256);
      expect(() => decodeJpegRows(bytes, MAX_PIXELS, () => {})).not.toThrow();
    }
    expect(performance.now() - started).toBeLessThan(60_000);
  });
});
