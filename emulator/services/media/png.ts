/**
 * Real PNG images made in memory: the demo media, and the images tests upload (no binary fixture
 * in the repository); and the decoding and encoding the scaled previews need (`previews.ts`).
 */
import { deflateSync, inflateSync } from 'node:zlib';
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

/** An image as 8-bit RGBA pixels, row after row. */
export interface RgbaImage {
  width: number;
  height: number;
  /** `width × height × 4` bytes: red, green, blue, alpha. */
  pixels: Uint8Array;
}

/** A `width`×`height` RGBA image as a PNG. */
export function encodePng({ width, height, pixels }: RgbaImage): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, no filter method, no interlace
  const rowLength = width * 4;
  const raw = Buffer.alloc((rowLength + 1) * height);
  for (let y = 0; y < height; y++)
    raw.set(pixels.subarray(y * rowLength, (y + 1) * rowLength), y * (rowLength + 1) + 1);
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Channels per pixel of each PNG colour type: gray, RGB, palette index, gray and alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The header and data of a PNG, or undefined when the bytes are not one this decoder reads. */
interface PngParts {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  palette?: Buffer;
  transparency?: Buffer;
  data: Buffer;
}

function pngParts(bytes: Buffer): PngParts | undefined {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  let header: Buffer | undefined;
  let palette: Buffer | undefined;
  let transparency: Buffer | undefined;
  const data: Buffer[] = [];
  for (let offset = 8; offset + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type == 'IHDR') header = body;
    else if (type == 'PLTE') palette = body;
    else if (type == 'tRNS') transparency = body;
    else if (type == 'IDAT') data.push(body);
    else if (type == 'IEND') break;
    offset += 12 + length;
  }
  if (!header || header.length < 13) return undefined;
  const interlaced = header[12] != 0;
  const parts = {
    width: header.readUInt32BE(0),
    height: header.readUInt32BE(4),
    bitDepth: header[8]!,
    colorType: header[9]!,
    palette,
    transparency,
    data: Buffer.concat(data),
  };
  // Interlaced images and depths below 8 bits are rare in uploads: their previews are the originals.
  const readable =
    !interlaced &&
    CHANNELS[parts.colorType] !== undefined &&
    (parts.bitDepth == 8 || (parts.bitDepth == 16 && parts.colorType != 3)) &&
    (parts.colorType != 3 || palette !== undefined);
  return readable && parts.width > 0 && parts.height > 0 ? parts : undefined;
}

/** The size of a PNG {@link decodePngRows} can read, or undefined (not a PNG, or not one it reads). */
export function readablePngSize(bytes: Buffer): { width: number; height: number } | undefined {
  const parts = pngParts(bytes);
  return parts && { width: parts.width, height: parts.height };
}

/** The Paeth predictor of the PNG specification. */
function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

/**
 * Decodes a PNG row by row: `onRow(y, rgba)` gets each row as RGBA bytes (reused between calls), so
 * a large image is never held whole as RGBA pixels (its inflated data is, once: at most the size its
 * header gives). Returns the size, or undefined when the bytes are
 * not a PNG this decoder reads (interlaced, below 8 bits per channel, damaged).
 */
export function decodePngRows(
  bytes: Buffer,
  onRow: (y: number, rgba: Uint8Array) => void,
): { width: number; height: number } | undefined {
  const parts = pngParts(bytes);
  if (!parts) return undefined;
  const { width, height, bitDepth, colorType, palette, transparency } = parts;
  const sampleBytes = bitDepth / 8;
  const pixelBytes = CHANNELS[colorType]! * sampleBytes;
  const rowBytes = width * pixelBytes;
  const expectedBytes = (rowBytes + 1) * height;
  let inflated: Buffer;
  try {
    // Never more than the header's size: a megabyte of deflated zeros inflates to gigabytes.
    inflated = inflateSync(parts.data, { maxOutputLength: expectedBytes });
  } catch {
    return undefined;
  }
  if (inflated.length < expectedBytes) return undefined;
  let previous = new Uint8Array(rowBytes);
  let current = new Uint8Array(rowBytes);
  const rgba = new Uint8Array(width * 4);
  for (let y = 0; y < height; y++) {
    const start = y * (rowBytes + 1);
    const filter = inflated[start]!;
    for (let index = 0; index < rowBytes; index++) {
      const value = inflated[start + 1 + index]!;
      const left = index >= pixelBytes ? current[index - pixelBytes]! : 0;
      const up = previous[index]!;
      const upLeft = index >= pixelBytes ? previous[index - pixelBytes]! : 0;
      const predicted =
        filter == 1
          ? left
          : filter == 2
            ? up
            : filter == 3
              ? (left + up) >> 1
              : filter == 4
                ? paeth(left, up, upLeft)
                : 0;
      current[index] = (value + predicted) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      // The high byte of a 16-bit sample is its 8-bit value.
      const sample = (channel: number) => current[x * pixelBytes + channel * sampleBytes]!;
      const target = x * 4;
      switch (colorType) {
        case 0:
          rgba.fill(sample(0), target, target + 3);
          rgba[target + 3] = 255;
          break;
        case 2:
          rgba[target] = sample(0);
          rgba[target + 1] = sample(1);
          rgba[target + 2] = sample(2);
          rgba[target + 3] = 255;
          break;
        case 3: {
          const entry = sample(0);
          rgba[target] = palette![entry * 3] ?? 0;
          rgba[target + 1] = palette![entry * 3 + 1] ?? 0;
          rgba[target + 2] = palette![entry * 3 + 2] ?? 0;
          rgba[target + 3] = transparency?.[entry] ?? 255;
          break;
        }
        case 4:
          rgba.fill(sample(0), target, target + 3);
          rgba[target + 3] = sample(1);
          break;
        default:
          rgba[target] = sample(0);
          rgba[target + 1] = sample(1);
          rgba[target + 2] = sample(2);
          rgba[target + 3] = sample(3);
      }
    }
    onRow(y, rgba);
    [previous, current] = [current, previous];
  }
  return { width, height };
}
