/**
 * Real PNG images made in memory: the demo media, and the images tests upload (no binary fixture
 * in the repository).
 */
import { deflateSync } from 'node:zlib';
import { crc32 } from './zip.js';

/** An RGB colour, each channel 0 to 255. */
export type Color = readonly [number, number, number];

/** The eight bytes every PNG starts with. */
export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A `width`×`height` RGB PNG fading from `from` (top) to `to` (bottom), so a thumbnail of it is
 * visibly an image and not a blank box.
 */
export function gradientPng(width: number, height: number, from: Color, to: Color): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter method, no interlace
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const share = height > 1 ? y / (height - 1) : 0;
    const color = from.map((channel, index) => Math.round(channel + (to[index]! - channel) * share));
    const row = Buffer.alloc(1 + width * 3); // filter type 0 (none), then the pixels
    for (let x = 0; x < width; x++) row.set(color, 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
