/** A real PNG image made in memory, for upload tests (no binary fixture in the repository). */
import { crc32, deflateSync } from 'node:zlib';

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}

/**
 * A `width` × `height` RGB PNG: a horizontal gradient between two colours, so a thumbnail of it
 * is visibly an image and not a blank box.
 */
export function gradientPng(width: number, height: number, from: [number, number, number], to: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // colour type: RGB
  const rowLength = 1 + width * 3;
  const pixels = Buffer.alloc(rowLength * height);
  for (let y = 0; y < height; y++) {
    const row = y * rowLength; // each row starts with filter type 0 (none)
    for (let x = 0; x < width; x++) {
      const share = width > 1 ? x / (width - 1) : 0;
      for (let channel = 0; channel < 3; channel++) {
        pixels[row + 1 + x * 3 + channel] = Math.round(from[channel]! + (to[channel]! - from[channel]!) * share);
      }
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}
