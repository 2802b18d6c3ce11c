/**
 * Scaled previews of images, asked for the way the platform's image URLs ask: the file's URL, then
 * `/v1/<fill|fit>/w_<width>,h_<height>[,...]/<file name>` (`fill` covers the box and crops the
 * middle, `fit` fits inside it). The media grid loads these instead of the originals, so a 30 MB
 * upload costs its grid a few kilobytes. The emulator scales the PNGs (`png.ts`), JPEGs (`jpeg.ts`)
 * and BMPs (`bmp.ts`) it can decode of up to {@link MAX_SCALED_PIXELS}; any other image (GIF, WebP),
 * or a box larger than the image, is answered with the original.
 */
import { decodeBmpRows, readableBmpSize } from './bmp.js';
import { imageSize } from './image-size.js';
import { decodeJpegRows, jpegOrientation } from './jpeg.js';
import { encodePng, decodePngRows, readablePngSize, type RgbaImage } from './png.js';

/** What a preview URL asks for. */
export interface PreviewRequest {
  mode: 'fill' | 'fit';
  width: number;
  height: number;
}

/** The largest side a preview may ask for (larger is no preview). */
const MAX_SIDE = 2048;

/**
 * The largest image the emulator scales (10 megapixels, a 4K screenshot and more); a larger one is
 * served as its original. Decoding runs on the event loop at about 8 megapixels a second (a 10
 * megapixel JPEG to a 360 × 360 preview: about 1.5 s), and the size is the header's word: a 60-byte
 * upload claiming 2^31 × 2^31 pixels held the emulator for 42 s, a 1 MB one of 8,000 × 8,000 zeros
 * for 9 s. A 12-megapixel phone photo is over the cap: it is served as its original.
 */
const MAX_SCALED_PIXELS = 10_000_000;

/** The box of the grid's thumbnails (twice the cards' size, for sharp screens). */
export const THUMBNAIL_SIZE = 360;

/** The URL of a scaled preview of the file at `fileUrl`. */
export function previewUrl(fileUrl: string, fileName: string, request: PreviewRequest): string {
  return `${fileUrl}/v1/${request.mode}/w_${request.width},h_${request.height}/${encodeURIComponent(fileName)}`;
}

/** Reads a preview URL's mode and its parameters (`w_360,h_240,al_c,q_80`); undefined when it asks for none. */
export function parsePreviewRequest(mode: string, parameters: string): PreviewRequest | undefined {
  if (mode != 'fill' && mode != 'fit') return undefined;
  const values = new Map(
    parameters
      .split(',')
      .map((parameter) => [parameter.slice(0, parameter.indexOf('_')), parameter.slice(parameter.indexOf('_') + 1)]),
  );
  const side = (name: string) => {
    const value = Number(values.get(name));
    return Number.isInteger(value) && value >= 1 && value <= MAX_SIDE ? value : undefined;
  };
  const width = side('w');
  const height = side('h');
  return width && height ? { mode, width, height } : undefined;
}

/** Decodes an image row by row (RGBA rows to `onRow`); its size, or undefined when it cannot. */
type RowDecoder = (onRow: (y: number, rgba: Uint8Array) => void) => { width: number; height: number } | undefined;

/** The size and row decoder of a PNG, JPEG or BMP this emulator reads, or undefined for any other bytes. */
function readableImage(bytes: Buffer): { width: number; height: number; decodeRows: RowDecoder } | undefined {
  const pngSize = readablePngSize(bytes);
  if (pngSize) return { ...pngSize, decodeRows: (onRow) => decodePngRows(bytes, onRow) };
  const isJpeg = bytes[0] == 0xff && bytes[1] == 0xd8;
  const stored = isJpeg ? imageSize(bytes) : undefined;
  if (stored) {
    // A photo stored sideways (Exif orientation 5 to 8) is shown, and previewed, turned a quarter.
    const turned = jpegOrientation(bytes) >= 5;
    const width = turned ? stored.height : stored.width;
    const height = turned ? stored.width : stored.height;
    return { width, height, decodeRows: (onRow) => decodeJpegRows(bytes, MAX_SCALED_PIXELS, onRow) };
  }
  const bmpSize = readableBmpSize(bytes);
  if (bmpSize) return { ...bmpSize, decodeRows: (onRow) => decodeBmpRows(bytes, onRow) };
  return undefined;
}

/**
 * The preview of a PNG, JPEG or BMP, as a PNG: box-averaged down to the asked size (never up), decoded
 * row by row. Undefined when the bytes are not an image this emulator reads, or it already fits in
 * the box.
 */
export function scaleImage(bytes: Buffer, request: PreviewRequest): Buffer | undefined {
  const size = readableImage(bytes);
  // An image that fits in the box is its own preview (never scaled up, nor cropped for nothing).
  if (!size || (size.width <= request.width && size.height <= request.height)) return undefined;
  if (size.width * size.height > MAX_SCALED_PIXELS) return undefined;
  // The part of the image that is shown: all of it (fit), or the middle that has the box's shape (fill).
  let crop = { x: 0, y: 0, width: size.width, height: size.height };
  if (request.mode == 'fill') {
    const scale = Math.max(request.width / size.width, request.height / size.height);
    const width = Math.min(size.width, Math.round(request.width / scale));
    const height = Math.min(size.height, Math.round(request.height / scale));
    crop = { x: Math.floor((size.width - width) / 2), y: Math.floor((size.height - height) / 2), width, height };
  }
  const scale = Math.min(1, request.width / crop.width, request.height / crop.height);
  const target: RgbaImage = {
    width: Math.max(1, Math.round(crop.width * scale)),
    height: Math.max(1, Math.round(crop.height * scale)),
    pixels: new Uint8Array(0),
  };
  // Sums and counts per target pixel: each source pixel of the crop adds to the one it falls in.
  const sums = new Float64Array(target.width * target.height * 4);
  const counts = new Uint32Array(target.width * target.height);
  const columnOf = new Int32Array(crop.width);
  for (let x = 0; x < crop.width; x++)
    columnOf[x] = Math.min(target.width - 1, Math.floor((x * target.width) / crop.width));
  const decoded = size.decodeRows((y, rgba) => {
    if (y < crop.y || y >= crop.y + crop.height) return;
    const row = Math.min(target.height - 1, Math.floor(((y - crop.y) * target.height) / crop.height));
    for (let x = 0; x < crop.width; x++) {
      const cell = row * target.width + columnOf[x]!;
      const source = (crop.x + x) * 4;
      for (let channel = 0; channel < 4; channel++) sums[cell * 4 + channel]! += rgba[source + channel]!;
      counts[cell]! += 1;
    }
  });
  // The decoder's size is the frame's own: a JPEG whose first frame header lies about it is not scaled.
  if (!decoded || decoded.width != size.width || decoded.height != size.height) return undefined;
  target.pixels = new Uint8Array(sums.length);
  for (let cell = 0; cell < counts.length; cell++) {
    const count = counts[cell] || 1;
    for (let channel = 0; channel < 4; channel++)
      target.pixels[cell * 4 + channel] = Math.round(sums[cell * 4 + channel]! / count);
  }
  return encodePng(target);
}

/** What an entry holds: its preview and its key (an original's entry, null, costs its key: sizes are many). */
const costOf = (key: string, preview: Buffer | null): number => key.length + (preview?.length ?? 0);

/**
 * Previews made recently, by their content hash and size, within a budget of bytes: oldest out
 * first. Bounded by bytes, not entries: a preview may be asked at any size up to 2048 × 2048, so
 * one noisy upload asked at 200 sizes could hold 16 MB each (3 GB) under a bound of 200 entries.
 */
export class PreviewCache {
  private readonly entries = new Map<string, Buffer | null>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The preview remembered for `key` (null: the original serves), or undefined when none is. */
  get(key: string): Buffer | null | undefined {
    return this.entries.get(key);
  }

  /** Remembers `preview` for `key`, forgetting the oldest until it fits; one larger than the budget is not kept. */
  set(key: string, preview: Buffer | null): void {
    const size = costOf(key, preview);
    if (size > this.maxBytes) return;
    this.delete(key);
    for (const oldest of this.entries.keys()) {
      if (this.bytes + size <= this.maxBytes) break;
      this.delete(oldest);
    }
    this.entries.set(key, preview);
    this.bytes += size;
  }

  private delete(key: string): void {
    if (!this.entries.has(key)) return;
    this.bytes -= costOf(key, this.entries.get(key) ?? null);
    this.entries.delete(key);
  }
}

/** The previews of this process: a grid asks again on every visit, and the same bytes give the same preview. */
const cache = new PreviewCache(32 * 1024 * 1024);

/** {@link scaleImage} of the bytes `read` gives, remembered by `contentHash`; null when the original serves. */
export async function cachedPreview(
  contentHash: string,
  read: () => Promise<Buffer>,
  request: PreviewRequest,
): Promise<Buffer | null> {
  const cacheKey = `${contentHash} ${request.mode} ${request.width}x${request.height}`;
  const known = contentHash ? cache.get(cacheKey) : undefined;
  if (known !== undefined) return known;
  const made = scaleImage(await read(), request) ?? null;
  if (contentHash) cache.set(cacheKey, made);
  return made;
}
