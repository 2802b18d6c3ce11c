/**
 * Scaled previews of images (the media grid's thumbnails): asked for the way the platform's image
 * URLs ask (`/v1/fill|fit/w_,h_/name`), decoded and box-averaged from the PNG, JPEG or BMP, never the original
 * bytes for an image the emulator can read; the original for what it cannot scale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSize } from '../../../../emulator/services/media/image-size.js';
import { decodePngRows, encodePng, gradientPng } from '../../../../emulator/services/media/png.js';
import { PreviewCache, scaleImage } from '../../../../emulator/services/media/previews.js';
import { startEmulator, type TestEmulator } from '../../../helpers/emulator.js';
import { encodeJpeg } from '../../../helpers/jpeg-encoder.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

/** The RGBA of the pixel at (x, y) of a PNG. */
function pixelAt(png: Buffer, x: number, y: number): number[] {
  let found: number[] = [];
  decodePngRows(png, (row, rgba) => {
    if (row == y) found = [...rgba.subarray(x * 4, x * 4 + 4)];
  });
  return found;
}

describe('the emulator serves scaled previews', () => {
  it('gives an uploaded image a thumbnail URL that answers a small PNG of the same picture', async () => {
    const original = gradientPng(1200, 800, [255, 0, 0], [0, 0, 255]);
    const file = await emulator.admin.media.upload(new Blob([new Uint8Array(original)], { type: 'image/png' }), {
      fileName: 'big.png',
    });
    expect(file.thumbnailUrl).toMatch(/\/v1\/fill\/w_360,h_360\/big\.png$/);
    const response = await fetch(file.thumbnailUrl!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('image/png');
    const preview = Buffer.from(await response.arrayBuffer());
    // fill: the middle square of the 1200×800 picture, 360×360.
    expect(imageSize(preview)).toMatchObject({ width: 360, height: 360 });
    const [topRed, , topBlue] = pixelAt(preview, 180, 0);
    const [bottomRed, , bottomBlue] = pixelAt(preview, 180, 359);
    expect(topRed).toBeGreaterThan(240);
    expect(topBlue).toBeLessThan(15);
    expect(bottomBlue).toBeGreaterThan(240);
    expect(bottomRed).toBeLessThan(15);

    const fit = await fetch(file.url!.replace(/\/?$/, '/v1/fit/w_300,h_300,al_c,q_80/big.png'));
    expect(imageSize(Buffer.from(await fit.arrayBuffer()))).toMatchObject({ width: 300, height: 200 });
  });

  it.each([
    ['baseline', false],
    ['progressive', true],
  ])('scales a %s JPEG to a PNG of the asked size with the source colours', async (_, progressive) => {
    // 800×600, red growing to the right and blue downwards: fill takes the middle 600×600.
    const colorAt = (x: number, y: number) => [Math.round((255 * x) / 799), 60, Math.round((255 * y) / 599)] as const;
    const original = encodeJpeg(800, 600, colorAt, { progressive });
    const file = await emulator.admin.media.upload(new Blob([new Uint8Array(original)], { type: 'image/jpeg' }), {
      fileName: 'photo.jpg',
    });
    const response = await fetch(file.thumbnailUrl!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('image/png');
    const preview = Buffer.from(await response.arrayBuffer());
    expect(imageSize(preview)).toMatchObject({ width: 360, height: 360 });
    for (const [x, y] of [
      [0, 0],
      [180, 180],
      [359, 0],
      [0, 359],
      [359, 359],
      [90, 270],
    ] as const) {
      // The middle of the source pixels the preview pixel averages.
      const expected = colorAt(100 + ((x + 0.5) * 600) / 360, ((y + 0.5) * 600) / 360);
      const [red, green, blue] = pixelAt(preview, x, y);
      expect(Math.abs(red! - expected[0])).toBeLessThanOrEqual(6);
      expect(Math.abs(green! - expected[1])).toBeLessThanOrEqual(6);
      expect(Math.abs(blue! - expected[2])).toBeLessThanOrEqual(6);
    }
    const fit = await fetch(file.url!.replace(/\/?$/, '/v1/fit/w_200,h_200/photo.jpg'));
    expect(imageSize(Buffer.from(await fit.arrayBuffer()))).toMatchObject({ width: 200, height: 150 });
  });

  it('previews a sideways-stored phone photo (Exif orientation 6) turned upright, as browsers show it', async () => {
    const original = encodeJpeg(800, 600, (x) => (x < 400 ? [255, 0, 0] : [0, 0, 255]), { orientation: 6 });
    const file = await emulator.admin.media.upload(new Blob([new Uint8Array(original)], { type: 'image/jpeg' }), {
      fileName: 'portrait.jpg',
    });
    const fit = await fetch(file.url!.replace(/\/?$/, '/v1/fit/w_300,h_300/portrait.jpg'));
    const preview = Buffer.from(await fit.arrayBuffer());
    expect(imageSize(preview)).toMatchObject({ width: 225, height: 300 });
    // The stored left half (red) is shown at the top.
    expect(pixelAt(preview, 112, 20)![0]).toBeGreaterThan(240);
    expect(pixelAt(preview, 112, 280)![2]).toBeGreaterThan(240);
  });

  it('answers the original of a truncated JPEG', async () => {
    const truncated = encodeJpeg(800, 600, () => [10, 200, 30]).subarray(0, 2000);
    const file = await emulator.admin.media.upload(new Blob([new Uint8Array(truncated)], { type: 'image/jpeg' }), {
      fileName: 'cut.jpg',
    });
    const response = await fetch(file.thumbnailUrl!);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(truncated);
  });

  it('scales a BMP (24-bit bottom-up, 32-bit top-down) and answers the original of a short one', async () => {
    // 301×200 (rows padded to 4 bytes), left half red, right half blue, a green bottom quarter.
    const colorAt = (x: number, y: number) => (y >= 150 ? [0, 255, 0] : x < 150 ? [255, 0, 0] : [0, 0, 255]);
    const bmp = (bitsPerPixel: 24 | 32, topDown: boolean) => {
      const width = 301;
      const height = 200;
      const rowBytes = Math.ceil((width * bitsPerPixel) / 8 / 4) * 4;
      const bytes = Buffer.alloc(54 + rowBytes * height);
      bytes.write('BM', 0, 'latin1');
      bytes.writeUInt32LE(bytes.length, 2);
      bytes.writeUInt32LE(54, 10); // where the pixels start
      bytes.writeUInt32LE(40, 14); // BITMAPINFOHEADER
      bytes.writeInt32LE(width, 18);
      bytes.writeInt32LE(topDown ? -height : height, 22);
      bytes.writeUInt16LE(1, 26);
      bytes.writeUInt16LE(bitsPerPixel, 28);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const [red, green, blue] = colorAt(x, y);
          const at = 54 + (topDown ? y : height - 1 - y) * rowBytes + (x * bitsPerPixel) / 8;
          bytes.set([blue!, green!, red!], at);
        }
      return bytes;
    };
    for (const [bitsPerPixel, topDown] of [
      [24, false],
      [32, true],
    ] as const) {
      const original = bmp(bitsPerPixel, topDown);
      const file = await emulator.admin.media.upload(new Blob([new Uint8Array(original)], { type: 'image/bmp' }), {
        fileName: 'paint.bmp',
      });
      const fit = await fetch(file.url!.replace(/\/?$/, '/v1/fit/w_100,h_100/paint.bmp'));
      expect(fit.headers.get('content-type')).toContain('image/png');
      const preview = Buffer.from(await fit.arrayBuffer());
      // 301×200 fitted in 100×100: 100×66.
      expect(imageSize(preview)).toMatchObject({ width: 100, height: 66 });
      expect(pixelAt(preview, 10, 10)).toEqual([255, 0, 0, 255]);
      expect(pixelAt(preview, 90, 10)).toEqual([0, 0, 255, 255]);
      expect(pixelAt(preview, 50, 60)).toEqual([0, 255, 0, 255]);
    }
    const short = bmp(24, false).subarray(0, 5000);
    const file = await emulator.admin.media.upload(new Blob([new Uint8Array(short)], { type: 'image/bmp' }), {
      fileName: 'short.bmp',
    });
    expect(Buffer.from(await (await fetch(file.thumbnailUrl!)).arrayBuffer())).toEqual(short);
  });

  it('answers the original for an image it cannot scale or that is already small, and 400 for no size', async () => {
    const small = gradientPng(40, 30, [0, 0, 0], [255, 255, 255]);
    const file = await emulator.admin.media.upload(new Blob([new Uint8Array(small)], { type: 'image/png' }), {
      fileName: 'small.png',
    });
    expect(Buffer.from(await (await fetch(file.thumbnailUrl!)).arrayBuffer())).toEqual(small);
    const bad = await fetch(file.url!.replace(/\/?$/, '/v1/fill/w_0,h_99999/small.png'));
    expect(bad.status).toBe(400);
  });
});

describe('scaleImage', () => {
  it('makes a preview much smaller than a large, detailed original', () => {
    const width = 1200;
    const height = 800;
    const pixels = new Uint8Array(width * height * 4);
    // Noise (xorshift32), which deflate cannot shrink: the original is as large as its pixels.
    let state = 2463534242;
    for (let index = 0; index < pixels.length; index++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      pixels[index] = state & 0xff;
    }
    const original = encodePng({ width, height, pixels });
    const preview = scaleImage(original, { mode: 'fill', width: 360, height: 360 })!;
    expect(imageSize(preview)).toMatchObject({ width: 360, height: 360 });
    expect(original.length).toBeGreaterThan(3_000_000);
    expect(preview.length).toBeLessThan(original.length / 5);
  });

  it('averages an RGBA image down, alpha too', () => {
    const width = 64;
    const height = 64;
    const pixels = new Uint8Array(width * height * 4);
    // Left half opaque white, right half transparent black.
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width / 2; x++) pixels.set([255, 255, 255, 255], (y * width + x) * 4);
    const scaled = scaleImage(encodePng({ width, height, pixels }), { mode: 'fit', width: 2, height: 2 })!;
    expect(imageSize(scaled)).toMatchObject({ width: 2, height: 2 });
    expect(pixelAt(scaled, 0, 0)).toEqual([255, 255, 255, 255]);
    expect(pixelAt(scaled, 1, 1)).toEqual([0, 0, 0, 0]);
  });

  it('declines what it cannot read (a GIF)', () => {
    expect(scaleImage(Buffer.from('GIF89a not a png at all, not at all'), { mode: 'fit', width: 2, height: 2 })).toBe(
      undefined,
    );
  });

  it('serves the original of an image too large to scale, however its header or data are forged', async () => {
    const thumbnailOf = async (png: Buffer, fileName: string) => {
      const file = await emulator.admin.media.upload(new Blob([new Uint8Array(png)], { type: 'image/png' }), {
        fileName,
      });
      return Buffer.from(await (await fetch(file.thumbnailUrl!)).arrayBuffer());
    };
    // 12 megapixels of zeros: about 100 KB deflated, 48 MB of pixels (decoding took seconds).
    const large = encodePng({ width: 4000, height: 3000, pixels: new Uint8Array(4000 * 3000 * 4) });
    expect(await thumbnailOf(large, 'large.png')).toEqual(large);
    // A 1×1 image whose header claims 2^31 × 2^31 pixels (the emulator spent 42 s on its columns).
    const forged = encodePng({ width: 1, height: 1, pixels: new Uint8Array(4) });
    forged.writeUInt32BE(2 ** 31, 16);
    forged.writeUInt32BE(2 ** 31, 20);
    expect(await thumbnailOf(forged, 'forged.png')).toEqual(forged);
  });

  it('inflates no more than the header says (data of 1,000 × 1,000 pixels under a 10 × 10 header)', () => {
    const padded = encodePng({ width: 1000, height: 1000, pixels: new Uint8Array(1000 * 1000 * 4) });
    padded.writeUInt32BE(10, 16);
    padded.writeUInt32BE(10, 20);
    expect(decodePngRows(padded, () => {})).toBeUndefined();
  });
});

describe('the preview cache', () => {
  it('holds at most its budget of bytes, the oldest out first; a preview larger than the budget is not kept', () => {
    const cache = new PreviewCache(100);
    const preview = (size: number) => Buffer.alloc(size);
    cache.set('a', preview(40));
    cache.set('b', preview(40));
    expect(cache.get('a')).toBeDefined();
    cache.set('c', preview(40));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.length).toBe(40);
    expect(cache.get('c')?.length).toBe(40);
    cache.set('huge', preview(200));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('c')?.length).toBe(40);
  });

  it('counts an original (null) by its key, so sizes asked without end do not pile up', () => {
    const cache = new PreviewCache(1000);
    for (let width = 1; width <= 2048; width++) cache.set(`hash fill ${width}x360`, null);
    expect(cache.get('hash fill 2048x360')).toBeNull();
    expect(cache.get('hash fill 1x360')).toBeUndefined();
  });
});
