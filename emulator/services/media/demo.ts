/**
 * Demo media, written on first start and by `POST /_emulator/reset`: two gradient images made
 * here (real PNGs, so their descriptors carry real sizes) and a text document.
 */
import { deflateSync } from 'node:zlib';
import type { EmulatorContext } from '../../service.js';
import { describeBuffer } from './descriptors.js';
import { saveFile } from './file-store.js';
import { crc32 } from './zip.js';

type Color = readonly [number, number, number];

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A `width`×`height` RGB PNG fading from `from` (top) to `to` (bottom). */
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
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** Writes the demo files (inside the seeding transaction). */
export function seedMedia(context: EmulatorContext): void {
  const files = [
    { bytes: gradientPng(640, 400, [255, 170, 60], [120, 40, 160]), request: { fileName: 'sunrise.png', mimeType: 'image/png', labels: ['demo'] } },
    { bytes: gradientPng(480, 320, [40, 120, 220], [10, 30, 70]), request: { fileName: 'deep-sea.png', mimeType: 'image/png', labels: ['demo'] } },
    { bytes: Buffer.from('Welcome to the sitekit emulator.\nThis file is demo media: upload your own from the console or the SDK.\n'), request: { fileName: 'welcome.txt', mimeType: 'text/plain', labels: ['demo'] } },
  ];
  for (const { bytes, request } of files) saveFile(context.store, describeBuffer(context, bytes, request), 'owner');
}
