/**
 * A BMP decoder for the scaled previews (`previews.ts`): uncompressed 24- and 32-bit BMPs, what
 * screenshots and paint programs save. Palette, 16-bit, bit-field and RLE BMPs are not read: their
 * previews are the originals.
 */

/** The layout of a BMP this decoder reads, or undefined. */
interface BmpLayout {
  width: number;
  height: number;
  /** Rows stored top row first (a negative height in the header), not bottom first. */
  topDown: boolean;
  bytesPerPixel: number;
  rowBytes: number;
  pixelsAt: number;
}

function bmpLayout(bytes: Buffer): BmpLayout | undefined {
  // File header (14 bytes), then a BITMAPINFOHEADER or later (at least 40 bytes).
  if (bytes.length < 54 || bytes.toString('latin1', 0, 2) != 'BM' || bytes.readUInt32LE(14) < 40) return undefined;
  const width = bytes.readInt32LE(18);
  const signedHeight = bytes.readInt32LE(22);
  const bitsPerPixel = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  if (width <= 0 || signedHeight == 0 || compression != 0 || (bitsPerPixel != 24 && bitsPerPixel != 32))
    return undefined;
  const bytesPerPixel = bitsPerPixel / 8;
  // Each row is padded to a multiple of 4 bytes.
  const rowBytes = Math.ceil((width * bytesPerPixel) / 4) * 4;
  const layout = {
    width,
    height: Math.abs(signedHeight),
    topDown: signedHeight < 0,
    bytesPerPixel,
    rowBytes,
    pixelsAt: bytes.readUInt32LE(10),
  };
  // The header's size must be the data's: a short file is not read (and no row is read past its end).
  return layout.pixelsAt + rowBytes * layout.height <= bytes.length ? layout : undefined;
}

/** The size of a BMP {@link decodeBmpRows} reads, or undefined. */
export function readableBmpSize(bytes: Buffer): { width: number; height: number } | undefined {
  const layout = bmpLayout(bytes);
  return layout && { width: layout.width, height: layout.height };
}

/**
 * Decodes a BMP top row first: `onRow(y, rgba)` gets each row as RGBA bytes (reused between calls;
 * opaque: the fourth byte of 32-bit BI_RGB pixels is unused by the format). Returns the size, or
 * undefined when the bytes are not a BMP this decoder reads.
 */
export function decodeBmpRows(
  bytes: Buffer,
  onRow: (y: number, rgba: Uint8Array) => void,
): { width: number; height: number } | undefined {
  const layout = bmpLayout(bytes);
  if (!layout) return undefined;
  const rgba = new Uint8Array(layout.width * 4).fill(255);
  for (let y = 0; y < layout.height; y++) {
    const stored = layout.topDown ? y : layout.height - 1 - y;
    const rowAt = layout.pixelsAt + stored * layout.rowBytes;
    for (let x = 0; x < layout.width; x++) {
      // Pixels are blue, green, red (and an unused byte).
      const at = rowAt + x * layout.bytesPerPixel;
      rgba[x * 4] = bytes[at + 2]!;
      rgba[x * 4 + 1] = bytes[at + 1]!;
      rgba[x * 4 + 2] = bytes[at]!;
    }
    onRow(y, rgba);
  }
  return { width: layout.width, height: layout.height };
}
