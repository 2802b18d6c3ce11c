/**
 * A small JPEG encoder for tests (no binary fixture in the repository): YCbCr, 4:2:0 or 4:4:4,
 * baseline, or progressive with a DC pass split in two bits (first and refining) and AC passes by
 * spectral band with end-of-band runs. Huffman codes are all 8 bits (4 for DC sizes): valid JPEG,
 * simple to write, not small.
 */

/** What the encoder writes. */
export interface JpegOptions {
  progressive?: boolean;
  /** 4:2:0 (phones' default) halves the chroma both ways; 4:4:4 keeps it whole. */
  subsampling?: '4:2:0' | '4:4:4';
  /** One component (luma) only: a grayscale JPEG. */
  gray?: boolean;
  /** An Exif orientation (1 to 8) to write in an APP1 segment, big-endian TIFF as most cameras write. */
  orientation?: number;
  /** MCUs between restart markers, baseline only; 0 for none. */
  restartInterval?: number;
}

const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
];

/** cos((2x + 1)uπ / 16) at x * 8 + u. */
const COSINES = Array.from({ length: 64 }, (_, index) =>
  Math.cos(((2 * (index >> 3) + 1) * (index & 7) * Math.PI) / 16),
);

/** Every DC size (0..11), and every AC symbol: run/size pairs, sixteen zeros, end-of-band runs. */
const DC_SYMBOLS = Array.from({ length: 12 }, (_, size) => size);
const AC_SYMBOLS = [
  ...Array.from({ length: 15 }, (_, run) => run << 4), // end of band (runs of 2^run blocks)
  0xf0,
  ...Array.from({ length: 16 * 10 }, (_, index) => (Math.floor(index / 10) << 4) | ((index % 10) + 1)),
];

/** Codes of one length for every symbol, in order: a symbol's code is its index. */
const codesOf = (symbols: number[]) => new Map(symbols.map((symbol, index) => [symbol, index]));
const DC_CODES = codesOf(DC_SYMBOLS);
const AC_CODES = codesOf(AC_SYMBOLS);

class BitWriter {
  readonly bytes: number[] = [];
  private buffer = 0;
  private count = 0;

  write(value: number, bits: number): void {
    for (let bit = bits - 1; bit >= 0; bit--) {
      this.buffer = (this.buffer << 1) | ((value >> bit) & 1);
      if (++this.count == 8) {
        this.bytes.push(this.buffer);
        if (this.buffer == 0xff) this.bytes.push(0); // stuffed
        this.buffer = 0;
        this.count = 0;
      }
    }
  }

  /** Pads the last byte with ones, as the standard asks. */
  flush(): void {
    while (this.count != 0) this.write(1, 1);
  }
}

/** The magnitude category of a coefficient, and its bits (negative ones as value - 1). */
function category(value: number): [size: number, bits: number] {
  const size = value == 0 ? 0 : Math.floor(Math.log2(Math.abs(value))) + 1;
  return [size, value < 0 ? value + (1 << size) - 1 : value];
}

const segment = (marker: number, body: number[]) => [
  0xff,
  marker,
  (body.length + 2) >> 8,
  (body.length + 2) & 255,
  ...body,
];

/** A `width`×`height` JPEG of the colours `colorAt(x, y)` gives (RGB, 0..255). */
export function encodeJpeg(
  width: number,
  height: number,
  colorAt: (x: number, y: number) => readonly [number, number, number],
  options: JpegOptions = {},
): Buffer {
  // A gray image is one component sampled 1×1 (its MCU is one block).
  const sampling = options.subsampling == '4:4:4' || options.gray ? 1 : 2;
  const mcuSide = 8 * sampling;
  const mcusAcross = Math.ceil(width / mcuSide);
  const mcusDown = Math.ceil(height / mcuSide);
  // Y, Cb and Cr planes over whole MCUs (edges repeated), then chroma averaged down.
  const paddedWidth = mcusAcross * mcuSide;
  const paddedHeight = mcusDown * mcuSide;
  const planes = [0, 1, 2].map(() => new Float64Array(paddedWidth * paddedHeight));
  for (let y = 0; y < paddedHeight; y++)
    for (let x = 0; x < paddedWidth; x++) {
      const [red, green, blue] = colorAt(Math.min(x, width - 1), Math.min(y, height - 1));
      const at = y * paddedWidth + x;
      planes[0]![at] = 0.299 * red + 0.587 * green + 0.114 * blue;
      planes[1]![at] = -0.168736 * red - 0.331264 * green + 0.5 * blue + 128;
      planes[2]![at] = 0.5 * red - 0.418688 * green - 0.081312 * blue + 128;
    }
  const sampleAt = (component: number, x: number, y: number) => {
    if (component == 0 || sampling == 1) return planes[component]![y * paddedWidth + x]!;
    let sum = 0;
    for (let dy = 0; dy < 2; dy++)
      for (let dx = 0; dx < 2; dx++) sum += planes[component]![(y * 2 + dy) * paddedWidth + x * 2 + dx]!;
    return sum / 4;
  };
  // Quantized coefficients of each block, in zigzag order, by component then row-major blocks.
  const quantizer = 4;
  const components = (options.gray ? [0] : [0, 1, 2]).map((component) => {
    const blockSide = component == 0 ? sampling : 1;
    const blocksAcross = mcusAcross * blockSide;
    const blocksDown = mcusDown * blockSide;
    const blocks: number[][] = [];
    for (let by = 0; by < blocksDown; by++)
      for (let bx = 0; bx < blocksAcross; bx++) {
        const zigzag = new Array<number>(64);
        for (let k = 0; k < 64; k++) {
          const u = ZIGZAG[k]! & 7;
          const v = ZIGZAG[k]! >> 3;
          let sum = 0;
          for (let y = 0; y < 8; y++)
            for (let x = 0; x < 8; x++)
              sum += (sampleAt(component, bx * 8 + x, by * 8 + y) - 128) * COSINES[x * 8 + u]! * COSINES[y * 8 + v]!;
          const scale = (u == 0 ? Math.SQRT1_2 : 1) * (v == 0 ? Math.SQRT1_2 : 1) * 0.25;
          zigzag[k] = Math.round((sum * scale) / quantizer);
        }
        blocks.push(zigzag);
      }
    return { id: component + 1, blockSide, blocksAcross, blocks };
  });

  const writer = new BitWriter();
  const huffman = (codes: Map<number, number>, symbol: number, length: number) =>
    writer.write(codes.get(symbol)!, length);
  const dcSymbol = (symbol: number) => huffman(DC_CODES, symbol, 4);
  const acSymbol = (symbol: number) => huffman(AC_CODES, symbol, 8);
  /** Codes a DC difference; AC coefficients start..end, calling `onEmpty` when the band ends in zeros. */
  const codeDc = (difference: number) => {
    const [size, bits] = category(difference);
    dcSymbol(size);
    if (size) writer.write(bits, size);
  };
  const codeAc = (block: number[], start: number, end: number, onEmpty: () => void) => {
    let zeros = 0;
    for (let k = start; k <= end; k++) {
      if (block[k] == 0) {
        zeros++;
        continue;
      }
      for (; zeros >= 16; zeros -= 16) acSymbol(0xf0);
      const [size, bits] = category(block[k]!);
      acSymbol((zeros << 4) | size);
      writer.write(bits, size);
      zeros = 0;
    }
    if (zeros > 0) onEmpty();
  };
  const interleavedMcus = (codeBlock: (component: (typeof components)[number], block: number[]) => void) => {
    let mcu = 0;
    for (let my = 0; my < mcusDown; my++)
      for (let mx = 0; mx < mcusAcross; mx++, mcu++) {
        if (options.restartInterval && mcu > 0 && mcu % options.restartInterval == 0) {
          writer.flush();
          writer.bytes.push(0xff, 0xd0 + ((mcu / options.restartInterval - 1) & 7));
          for (const component of components) predictions[component.id] = 0;
        }
        for (const component of components)
          for (let dy = 0; dy < component.blockSide; dy++)
            for (let dx = 0; dx < component.blockSide; dx++)
              codeBlock(
                component,
                component.blocks[
                  (my * component.blockSide + dy) * component.blocksAcross + mx * component.blockSide + dx
                ]!,
              );
      }
  };
  const predictions: Record<number, number> = {};
  const scans: number[][] = [];
  const scanHeader = (ids: number[], start: number, end: number, previousBit: number, bit: number) =>
    segment(0xda, [
      ids.length,
      ...ids.flatMap((id) => [id, id == 1 ? 0x00 : 0x11]),
      start,
      end,
      (previousBit << 4) | bit,
    ]);
  const endScan = (header: number[]) => {
    writer.flush();
    scans.push([...header, ...writer.bytes.splice(0)]);
  };
  const ids = components.map((component) => component.id);
  if (!options.progressive) {
    for (const id of ids) predictions[id] = 0;
    interleavedMcus((component, block) => {
      codeDc(block[0]! - predictions[component.id]!);
      predictions[component.id] = block[0]!;
      codeAc(block, 1, 63, () => acSymbol(0x00));
    });
    endScan(scanHeader(ids, 0, 63, 0, 0));
  } else {
    // DC: every bit but the last, then the last bit alone.
    for (const id of ids) predictions[id] = 0;
    interleavedMcus((component, block) => {
      codeDc((block[0]! >> 1) - predictions[component.id]!);
      predictions[component.id] = block[0]! >> 1;
    });
    endScan(scanHeader(ids, 0, 0, 0, 1));
    interleavedMcus((_, block) => writer.write(block[0]! & 1, 1));
    endScan(scanHeader(ids, 0, 0, 1, 0));
    // AC in two bands per component; a run of blocks with nothing left in the band is one symbol.
    for (const component of components)
      for (const [start, end] of [
        [1, 5],
        [6, 63],
      ] as const) {
        let endOfBands = 0;
        const flush = () => {
          if (endOfBands == 0) return;
          const run = Math.floor(Math.log2(endOfBands));
          acSymbol(run << 4);
          if (run) writer.write(endOfBands - (1 << run), run);
          endOfBands = 0;
        };
        // A non-interleaved scan codes only the blocks inside the image.
        const across = Math.ceil(Math.ceil((width * component.blockSide) / sampling) / 8);
        const down = Math.ceil(Math.ceil((height * component.blockSide) / sampling) / 8);
        for (let by = 0; by < down; by++)
          for (let bx = 0; bx < across; bx++) {
            const block = component.blocks[by * component.blocksAcross + bx]!;
            if (block.slice(start, end + 1).some((value) => value != 0)) flush();
            codeAc(block, start, end, () => {
              if (++endOfBands == 0x7fff) flush();
            });
          }
        flush();
        endScan(scanHeader([component.id], start, end, 0, 0));
      }
  }

  const table = (tableClass: number, id: number, symbols: number[], length: number) => {
    const counts = new Array<number>(16).fill(0);
    counts[length - 1] = symbols.length;
    return [(tableClass << 4) | id, ...counts, ...symbols];
  };
  // Exif: "Exif\0\0", a TIFF header (MM, 42, first directory at 8), one entry: orientation (0x0112), SHORT.
  const exif = options.orientation
    ? segment(0xe1, [
        ...Buffer.from('Exif\0\0', 'latin1'),
        ...[0x4d, 0x4d, 0, 42, 0, 0, 0, 8],
        ...[0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, options.orientation, 0, 0],
        ...[0, 0, 0, 0],
      ])
    : [];
  return Buffer.from([
    0xff,
    0xd8,
    ...exif,
    ...segment(0xdb, [0, ...new Array<number>(64).fill(quantizer), 1, ...new Array<number>(64).fill(quantizer)]),
    ...segment(options.progressive ? 0xc2 : 0xc0, [
      8,
      height >> 8,
      height & 255,
      width >> 8,
      width & 255,
      components.length,
      ...[1, (sampling << 4) | sampling, 0],
      ...(options.gray ? [] : [2, 0x11, 1, 3, 0x11, 1]),
    ]),
    ...segment(0xc4, [
      ...table(0, 0, DC_SYMBOLS, 4),
      ...table(1, 0, AC_SYMBOLS, 8),
      ...table(0, 1, DC_SYMBOLS, 4),
      ...table(1, 1, AC_SYMBOLS, 8),
    ]),
    ...(options.restartInterval ? segment(0xdd, [options.restartInterval >> 8, options.restartInterval & 255]) : []),
    ...scans.flat(),
    0xff,
    0xd9,
  ]);
}
