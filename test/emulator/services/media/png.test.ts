/**
 * The one PNG generator (demo media and test uploads): a valid PNG (signature, chunk CRCs), the
 * size asked for as the emulator's own reader sees it, and the gradient's end colours.
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { imageSize } from '../../../../emulator/services/media/image-size.js';
import { gradientPng, PNG_SIGNATURE } from '../../../../emulator/services/media/png.js';
import { crc32 } from '../../../../emulator/services/media/zip.js';
import { gradientPng as testUploadPng } from '../../../e2e/png.js';

/** The chunks of a PNG, with their CRCs checked. */
function chunksOf(png: Buffer): { type: string; data: Buffer }[] {
  const chunks: { type: string; data: Buffer }[] = [];
  for (let offset = PNG_SIGNATURE.length; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const typed = png.subarray(offset + 4, offset + 8 + length);
    expect(png.readUInt32BE(offset + 8 + length), 'chunk CRC').toBe(crc32(typed));
    chunks.push({ type: typed.subarray(0, 4).toString('latin1'), data: typed.subarray(4) });
    offset += 12 + length;
  }
  return chunks;
}

describe('gradientPng', () => {
  it('makes a valid RGB PNG of the size asked, fading from the first colour (top) to the second (bottom)', () => {
    const png = gradientPng(7, 5, [255, 0, 10], [0, 100, 250]);
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(imageSize(png)).toMatchObject({ width: 7, height: 5 });
    const chunks = chunksOf(png);
    expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const pixels = inflateSync(chunks[1]!.data);
    const rowLength = 1 + 7 * 3;
    expect(pixels.length).toBe(rowLength * 5);
    expect([...pixels.subarray(1, 4)]).toEqual([255, 0, 10]);
    expect([...pixels.subarray(4 * rowLength + 1 + 6 * 3, 4 * rowLength + 1 + 7 * 3)]).toEqual([0, 100, 250]);
  });

  it('is the same generator the browser tests upload with', () => {
    expect(testUploadPng).toBe(gradientPng);
  });
});
