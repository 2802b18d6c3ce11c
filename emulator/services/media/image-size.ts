/**
 * Width and height of an image, read from its own bytes (the headers of PNG, GIF, JPEG, WebP and
 * BMP), so file descriptors carry real dimensions without an image library.
 */

/** An image's size in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

const startsWith = (bytes: Buffer, signature: number[], at = 0) =>
  signature.every((byte, index) => bytes[at + index] === byte);

function png(bytes: Buffer): ImageSize | undefined {
  // Signature, then the IHDR chunk: length (4), "IHDR" (4), width (4), height (4).
  if (
    bytes.length < 24 ||
    !startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    bytes.toString('latin1', 12, 16) != 'IHDR'
  )
    return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function gif(bytes: Buffer): ImageSize | undefined {
  if (bytes.length < 10 || (bytes.toString('latin1', 0, 6) != 'GIF87a' && bytes.toString('latin1', 0, 6) != 'GIF89a'))
    return undefined;
  return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
}

function bmp(bytes: Buffer): ImageSize | undefined {
  if (bytes.length < 26 || bytes.toString('latin1', 0, 2) != 'BM') return undefined;
  return { width: Math.abs(bytes.readInt32LE(18)), height: Math.abs(bytes.readInt32LE(22)) };
}

/** Start-of-frame markers of JPEG (baseline, progressive...), not DHT (C4), JPG (C8) or DAC (CC). */
const JPEG_FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(bytes: Buffer): ImageSize | undefined {
  if (!startsWith(bytes, [0xff, 0xd8])) return undefined;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker == 0xff) {
      at++;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (JPEG_FRAME_MARKERS.has(marker))
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return undefined;
}

function webp(bytes: Buffer): ImageSize | undefined {
  if (bytes.length < 30 || bytes.toString('latin1', 0, 4) != 'RIFF' || bytes.toString('latin1', 8, 12) != 'WEBP')
    return undefined;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk == 'VP8 ') return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk == 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk == 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** The image's size, or `undefined` when the bytes are not an image format read here. */
export function imageSize(bytes: Buffer): ImageSize | undefined {
  for (const reader of [png, jpeg, gif, webp, bmp]) {
    const size = reader(bytes);
    if (size && size.width > 0 && size.height > 0) return size;
  }
  return undefined;
}
