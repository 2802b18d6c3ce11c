/**
 * A JPEG decoder for the scaled previews (`previews.ts`): baseline and progressive Huffman-coded
 * JPEGs of 8 bits per sample, gray or YCbCr (what cameras and phones write), any chroma
 * subsampling. Arithmetic coding, 12-bit, lossless and CMYK JPEGs are not read: their previews are
 * the originals. Damaged or hostile bytes make it return undefined, never throw: every loop is
 * bounded by the frame's block count, which the caller's pixel cap bounds.
 */

/** Why a JPEG is not read; caught in {@link decodeJpegRows}, which then answers undefined. */
class UnreadableJpeg extends Error {}

function unreadable(reason: string): never {
  throw new UnreadableJpeg(reason);
}

/** Where the k-th coefficient of a block's zigzag order sits in its 8×8 row-major order. */
const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
];

/**
 * A Huffman table as a lookup by the next 16 bits of the stream: each entry is the code's length
 * (high byte) and its symbol (low byte); 0 is no code. 64K entries make a symbol one lookup.
 */
type HuffmanTable = Uint16Array;

function huffmanTable(counts: Uint8Array, symbols: Uint8Array): HuffmanTable {
  const table = new Uint16Array(1 << 16);
  let code = 0;
  let next = 0;
  for (let length = 1; length <= 16; length++) {
    for (let index = 0; index < counts[length - 1]!; index++) {
      if (code >= 1 << length) unreadable('too many Huffman codes');
      const first = code << (16 - length);
      table.fill((length << 8) | symbols[next++]!, first, first + (1 << (16 - length)));
      code++;
    }
    code <<= 1;
  }
  return table;
}

/**
 * The entropy-coded bits of a scan: bytes 0xFF 0x00 stand for 0xFF, and any other 0xFF byte starts
 * a marker, where the data ends. Past the end it reads zeros, but using them is truncated data.
 */
class BitReader {
  private buffer = 0;
  private count = 0;
  /** How many of the buffer's lowest bits are zeros read past the data. */
  private padding = 0;
  private atMarker = false;

  constructor(
    private readonly bytes: Buffer,
    public position: number,
  ) {}

  private fill(): void {
    while (this.count <= 24) {
      let byte = 0;
      if (this.atMarker || this.position >= this.bytes.length) this.padding += 8;
      else if (this.bytes[this.position] != 0xff) byte = this.bytes[this.position++]!;
      else if (this.bytes[this.position + 1] == 0x00) {
        byte = 0xff;
        this.position += 2;
      } else {
        this.atMarker = true;
        this.padding += 8;
      }
      this.buffer = (this.buffer << 8) | byte;
      this.count += 8;
    }
  }

  private skip(bits: number): void {
    this.count -= bits;
    if (this.count < this.padding) unreadable('truncated scan');
  }

  /** The next `bits` bits (1 to 16) as an unsigned number. */
  bits(bits: number): number {
    this.fill();
    const value = (this.buffer >>> (this.count - bits)) & ((1 << bits) - 1);
    this.skip(bits);
    return value;
  }

  /** The next Huffman-coded symbol. */
  symbol(table: HuffmanTable): number {
    this.fill();
    const entry = table[(this.buffer >>> (this.count - 16)) & 0xffff]!;
    if (entry == 0) unreadable('no such Huffman code');
    this.skip(entry >> 8);
    return entry & 0xff;
  }

  /** A coefficient of `size` bits: the JPEG "receive and extend" of a magnitude category. */
  signed(size: number): number {
    if (size == 0) return 0;
    if (size > 16) unreadable('coefficient too large');
    const value = this.bits(size);
    return value < 1 << (size - 1) ? value - (1 << size) + 1 : value;
  }

  /** Skips the restart marker the encoder put here, and starts afresh after it. */
  restart(): void {
    this.buffer = 0;
    this.count = 0;
    this.padding = 0;
    this.atMarker = false;
    const marker = this.bytes[this.position + 1] ?? 0;
    if (this.bytes[this.position] != 0xff || marker < 0xd0 || marker > 0xd7) unreadable('restart marker missing');
    this.position += 2;
  }
}

/** One colour component of the frame and its coefficients, row-major blocks of 64, zigzag undone. */
interface Component {
  id: number;
  horizontal: number;
  vertical: number;
  quantizationTable: number;
  /** Blocks that hold image pixels, across and down (a non-interleaved scan codes only these). */
  blocksAcross: number;
  blocksDown: number;
  /** Blocks per row of storage: whole MCUs, which interleaved scans code even past the image. */
  blocksPerRow: number;
  coefficients: Int16Array;
  dcTable?: HuffmanTable;
  acTable?: HuffmanTable;
  dcPrediction: number;
}

interface Frame {
  width: number;
  height: number;
  progressive: boolean;
  components: Component[];
  maxHorizontal: number;
  maxVertical: number;
  mcusAcross: number;
  mcusDown: number;
}

function readFrame(segment: Buffer, progressive: boolean, maxPixels: number): Frame {
  if (segment.length < 6 || segment[0] != 8) unreadable('not 8 bits per sample');
  const height = segment.readUInt16BE(1);
  const width = segment.readUInt16BE(3);
  const count = segment[5]!;
  // Height 0 (given later by a DNL marker) is legal and rare.
  if (width == 0 || height == 0 || width * height > maxPixels) unreadable('no size, or too large');
  if ((count != 1 && count != 3) || segment.length < 6 + count * 3) unreadable('neither gray nor three components');
  const parts = [];
  for (let index = 0; index < count; index++) {
    const at = 6 + index * 3;
    const sampling = segment[at + 1]!;
    const part = { id: segment[at]!, horizontal: sampling >> 4, vertical: sampling & 15, table: segment[at + 2]! };
    if (part.horizontal < 1 || part.horizontal > 4 || part.vertical < 1 || part.vertical > 4 || part.table > 3)
      unreadable('bad sampling or table');
    parts.push(part);
  }
  const maxHorizontal = Math.max(...parts.map((part) => part.horizontal));
  const maxVertical = Math.max(...parts.map((part) => part.vertical));
  const mcusAcross = Math.ceil(width / (8 * maxHorizontal));
  const mcusDown = Math.ceil(height / (8 * maxVertical));
  const components = parts.map((part): Component => {
    const blocksPerRow = mcusAcross * part.horizontal;
    return {
      id: part.id,
      horizontal: part.horizontal,
      vertical: part.vertical,
      quantizationTable: part.table,
      blocksAcross: Math.ceil(Math.ceil((width * part.horizontal) / maxHorizontal) / 8),
      blocksDown: Math.ceil(Math.ceil((height * part.vertical) / maxVertical) / 8),
      blocksPerRow,
      coefficients: new Int16Array(blocksPerRow * mcusDown * part.vertical * 64),
      dcPrediction: 0,
    };
  });
  return { width, height, progressive, components, maxHorizontal, maxVertical, mcusAcross, mcusDown };
}

/** What a scan codes: its components, the zigzag range (start to end) and the bit positions. */
interface Scan {
  components: Component[];
  start: number;
  end: number;
  /** The bit refined by a later pass (0: first pass), and the bit this pass codes. */
  previousBit: number;
  bit: number;
}

/**
 * Decodes one block's share of a scan into `block` (64 coefficients at `offset`). `state.endOfBands`
 * counts the blocks left of a progressive end-of-band run, which skips blocks across calls.
 */
function decodeBlock(
  reader: BitReader,
  scan: Scan,
  frame: Frame,
  component: Component,
  offset: number,
  state: { endOfBands: number },
): void {
  const block = component.coefficients;
  if (scan.start == 0) {
    // The DC coefficient: a difference from the component's previous block, or one refining bit.
    if (scan.previousBit == 0) {
      component.dcPrediction += reader.signed(reader.symbol(component.dcTable!));
      block[offset] = component.dcPrediction * (1 << scan.bit);
    } else if (reader.bits(1)) block[offset]! |= 1 << scan.bit;
    if (frame.progressive) return;
  }
  const first = Math.max(1, scan.start);
  if (!frame.progressive || scan.previousBit == 0) {
    // AC coefficients: (zeros before, size) symbols, then each coefficient's bits.
    if (state.endOfBands > 0) {
      state.endOfBands--;
      return;
    }
    for (let k = first; k <= scan.end; k++) {
      const symbol = reader.symbol(component.acTable!);
      const zeros = symbol >> 4;
      const size = symbol & 15;
      if (size == 0) {
        if (zeros == 15) {
          k += 15; // sixteen zeros
          continue;
        }
        // End of band: this block, and (progressive) zeros 2^zeros - 1 + the next bits more blocks.
        if (frame.progressive) state.endOfBands = (1 << zeros) - 1 + (zeros ? reader.bits(zeros) : 0);
        return;
      }
      k += zeros;
      if (k > scan.end) unreadable('coefficient past the band');
      block[offset + ZIGZAG[k]!] = reader.signed(size) * (1 << scan.bit);
    }
    return;
  }
  // A refining AC pass (ITU T.81 G.1.2.3): one more bit for each coefficient already nonzero, and
  // new coefficients of ±1 placed by counting only the zero ones.
  const plus = 1 << scan.bit;
  const minus = -1 << scan.bit;
  const refine = (at: number) => {
    if (reader.bits(1) && (block[at]! & plus) == 0) block[at]! += block[at]! >= 0 ? plus : minus;
  };
  let k = first;
  if (state.endOfBands == 0) {
    for (; k <= scan.end; k++) {
      const symbol = reader.symbol(component.acTable!);
      let zeros = symbol >> 4;
      const size = symbol & 15;
      let value = 0;
      if (size != 0) {
        if (size != 1) unreadable('refinement larger than one bit');
        value = reader.bits(1) ? plus : minus;
      } else if (zeros != 15) {
        state.endOfBands = (1 << zeros) + (zeros ? reader.bits(zeros) : 0);
        break;
      }
      for (; k <= scan.end; k++) {
        const at = offset + ZIGZAG[k]!;
        if (block[at] != 0) refine(at);
        else if (zeros-- == 0) break;
      }
      if (value != 0) {
        if (k > scan.end) unreadable('coefficient past the band');
        block[offset + ZIGZAG[k]!] = value;
      }
    }
  }
  if (state.endOfBands > 0) {
    // Inside an end-of-band run: the block gets no new coefficient, only its refining bits.
    for (; k <= scan.end; k++) if (block[offset + ZIGZAG[k]!] != 0) refine(offset + ZIGZAG[k]!);
    state.endOfBands--;
  }
}

/** Decodes a scan's entropy-coded data from `position`; returns where it ends (at the next marker). */
function decodeScan(bytes: Buffer, position: number, frame: Frame, scan: Scan, restartInterval: number): number {
  const reader = new BitReader(bytes, position);
  const state = { endOfBands: 0 };
  for (const component of frame.components) component.dcPrediction = 0;
  // One component alone is coded block by block over its own size; several, MCU by MCU.
  const single = scan.components.length == 1 ? scan.components[0]! : undefined;
  const units = single ? single.blocksAcross * single.blocksDown : frame.mcusAcross * frame.mcusDown;
  for (let unit = 0; unit < units; unit++) {
    if (restartInterval > 0 && unit > 0 && unit % restartInterval == 0) {
      reader.restart();
      state.endOfBands = 0;
      for (const component of frame.components) component.dcPrediction = 0;
    }
    if (single) {
      const row = Math.floor(unit / single.blocksAcross);
      const column = unit % single.blocksAcross;
      decodeBlock(reader, scan, frame, single, (row * single.blocksPerRow + column) * 64, state);
      continue;
    }
    const mcuRow = Math.floor(unit / frame.mcusAcross);
    const mcuColumn = unit % frame.mcusAcross;
    for (const component of scan.components)
      for (let down = 0; down < component.vertical; down++)
        for (let across = 0; across < component.horizontal; across++) {
          const row = mcuRow * component.vertical + down;
          const column = mcuColumn * component.horizontal + across;
          decodeBlock(reader, scan, frame, component, (row * component.blocksPerRow + column) * 64, state);
        }
  }
  // The scan's data ends at the first marker other than a restart (the last MCUs may leave bytes).
  let end = reader.position;
  while (end + 1 < bytes.length && !(bytes[end] == 0xff && bytes[end + 1] != 0 && (bytes[end + 1]! & 0xf8) != 0xd0))
    end++;
  return end;
}

function readScan(segment: Buffer, frame: Frame, dcTables: HuffmanTable[], acTables: HuffmanTable[]): Scan {
  const count = segment[0] ?? 0;
  if (count < 1 || count > 4 || segment.length < 4 + count * 2) unreadable('bad scan header');
  const components: Component[] = [];
  for (let index = 0; index < count; index++) {
    const component = frame.components.find((candidate) => candidate.id == segment[1 + index * 2]);
    const tables = segment[2 + index * 2]!;
    if (!component || components.includes(component)) unreadable('scan of an unknown component');
    component.dcTable = dcTables[tables >> 4];
    component.acTable = acTables[tables & 15];
    components.push(component);
  }
  const at = 1 + count * 2;
  const scan = {
    components,
    start: segment[at]!,
    end: segment[at + 1]!,
    previousBit: segment[at + 2]! >> 4,
    bit: segment[at + 2]! & 15,
  };
  const sequential = !frame.progressive && scan.start == 0 && scan.end == 63 && scan.previousBit == 0;
  const progressive =
    frame.progressive &&
    scan.start <= scan.end &&
    scan.end <= 63 &&
    (scan.start == 0 ? scan.end == 0 : count == 1) &&
    scan.bit <= 13 &&
    (scan.previousBit == 0 || scan.previousBit == scan.bit + 1);
  if (!sequential && !progressive) unreadable('bad spectral selection');
  // The tables this scan uses must be defined (a refining DC pass uses none).
  for (const component of components) {
    if (scan.start == 0 && scan.previousBit == 0 && !component.dcTable) unreadable('missing DC table');
    if (scan.end > 0 && !component.acTable) unreadable('missing AC table');
  }
  return scan;
}

/** cos((2x + 1)uπ / 16), scaled by the IDCT's normalisation (1/√2 for u = 0, halved). */
const IDCT_BASIS = Array.from({ length: 64 }, (_, index) => {
  const x = index >> 3;
  const u = index & 7;
  return ((u == 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
});

/** Dequantizes and inverse-transforms every block of a component into its plane of samples. */
function componentPlane(component: Component, quantization: Uint16Array): { width: number; samples: Uint8Array } {
  const blockRows = component.coefficients.length / 64 / component.blocksPerRow;
  const width = component.blocksPerRow * 8;
  const samples = new Uint8Array(width * blockRows * 8);
  const coefficients = new Float64Array(64);
  const columns = new Float64Array(64);
  for (let block = 0; block < blockRows * component.blocksPerRow; block++) {
    const offset = block * 64;
    let onlyDc = true;
    for (let index = 0; index < 64; index++) {
      coefficients[index] = component.coefficients[offset + index]! * quantization[index]!;
      if (index > 0 && coefficients[index] != 0) onlyDc = false;
    }
    const origin = Math.floor(block / component.blocksPerRow) * 8 * width + (block % component.blocksPerRow) * 8;
    if (onlyDc) {
      // A flat block (most of a smooth photo's chroma): every sample is the mean.
      const value = Math.min(255, Math.max(0, Math.round(coefficients[0]! / 8 + 128)));
      for (let y = 0; y < 8; y++) samples.fill(value, origin + y * width, origin + y * width + 8);
      continue;
    }
    // Rows first (frequency u to position x), then columns (v to y).
    for (let v = 0; v < 8; v++)
      for (let x = 0; x < 8; x++) {
        let sum = 0;
        for (let u = 0; u < 8; u++) sum += IDCT_BASIS[x * 8 + u]! * coefficients[v * 8 + u]!;
        columns[v * 8 + x] = sum;
      }
    for (let y = 0; y < 8; y++)
      for (let x = 0; x < 8; x++) {
        let sum = 0;
        for (let v = 0; v < 8; v++) sum += IDCT_BASIS[y * 8 + v]! * columns[v * 8 + x]!;
        samples[origin + y * width + x] = Math.min(255, Math.max(0, Math.round(sum + 128)));
      }
  }
  return { width, samples };
}

/**
 * The Exif orientation of an APP1 segment (1 to 8: how the stored picture is turned to be shown),
 * or undefined when it gives none. Phones store portrait photos sideways with orientation 6.
 */
function exifOrientation(segment: Buffer): number | undefined {
  if (segment.length < 14 || segment.toString('latin1', 0, 6) != 'Exif\0\0') return undefined;
  const tiff = segment.subarray(6);
  const little = tiff.toString('latin1', 0, 2) == 'II';
  const read16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const directory = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  if (directory + 2 > tiff.length) return undefined;
  for (
    let entry = directory + 2;
    entry + 12 <= tiff.length && entry < directory + 2 + read16(directory) * 12;
    entry += 12
  )
    if (read16(entry) == 0x0112) {
      const orientation = read16(entry + 8);
      return orientation >= 1 && orientation <= 8 ? orientation : undefined;
    }
  return undefined;
}

/** The Exif orientation of a JPEG (1 when it has none): {@link decodeJpegRows} gives rows turned by it. */
export function jpegOrientation(bytes: Buffer): number {
  // Exif comes first (APP1 right after the start of image, or after a JFIF APP0).
  for (let position = 2; position + 4 <= bytes.length && bytes[position] == 0xff; ) {
    const marker = bytes[position + 1]!;
    if (marker < 0xe0 || marker > 0xef) break; // past the application segments
    const end = position + 2 + bytes.readUInt16BE(position + 2);
    if (marker == 0xe1 && end <= bytes.length) {
      const orientation = exifOrientation(bytes.subarray(position + 4, end));
      if (orientation) return orientation;
    }
    position = end;
  }
  return 1;
}

/** Where the pixel (x, y) of the shown picture is in the stored one, for each Exif orientation. */
const STORED_PIXEL: Record<number, (x: number, y: number, width: number, height: number) => [number, number]> = {
  1: (x, y) => [x, y],
  2: (x, y, width) => [width - 1 - x, y], // mirrored
  3: (x, y, width, height) => [width - 1 - x, height - 1 - y], // turned half a turn
  4: (x, y, _, height) => [x, height - 1 - y], // flipped
  5: (x, y) => [y, x], // transposed
  6: (x, y, _, height) => [y, height - 1 - x], // stored a quarter turn left of how it is shown
  7: (x, y, width, height) => [width - 1 - y, height - 1 - x], // transversed
  8: (x, y, width) => [width - 1 - y, x], // stored a quarter turn right of how it is shown
};

/** A decoded JPEG: its frame, sample planes and whether three components are RGB rather than YCbCr. */
interface DecodedJpeg {
  frame: Frame;
  planes: { width: number; samples: Uint8Array }[];
  rgb: boolean;
}

function decode(bytes: Buffer, maxPixels: number): DecodedJpeg {
  if (bytes[0] != 0xff || bytes[1] != 0xd8) unreadable('not a JPEG');
  const quantization: Uint16Array[] = [];
  const dcTables: HuffmanTable[] = [];
  const acTables: HuffmanTable[] = [];
  let frame: Frame | undefined;
  let restartInterval = 0;
  let adobeTransform: number | undefined;
  let scans = 0;
  let position = 2;
  while (position + 1 < bytes.length) {
    if (bytes[position] != 0xff) unreadable('marker expected');
    const marker = bytes[position + 1]!;
    if (marker == 0xff) {
      position++; // fill byte
      continue;
    }
    if (marker == 0xd9) break; // end of image
    if (position + 4 > bytes.length) unreadable('truncated segment');
    const end = position + 2 + bytes.readUInt16BE(position + 2);
    if (end > bytes.length || end < position + 4) unreadable('segment past the end');
    const segment = bytes.subarray(position + 4, end);
    position = end;
    if (marker == 0xdb) {
      // Quantization tables: precision and id, then 64 values of 8 or 16 bits in zigzag order.
      for (let at = 0; at < segment.length; ) {
        const wide = segment[at]! >> 4 != 0;
        const id = segment[at]! & 15;
        if (id > 3 || at + 1 + (wide ? 128 : 64) > segment.length) unreadable('bad quantization table');
        const table = new Uint16Array(64);
        for (let k = 0; k < 64; k++)
          table[ZIGZAG[k]!] = wide ? segment.readUInt16BE(at + 1 + k * 2) : segment[at + 1 + k]!;
        quantization[id] = table;
        at += 1 + (wide ? 128 : 64);
      }
    } else if (marker == 0xc4) {
      // Huffman tables: class and id, 16 counts of codes by length, then the symbols.
      for (let at = 0; at < segment.length; ) {
        const counts = segment.subarray(at + 1, at + 17);
        const total = counts.reduce((sum, count) => sum + count, 0);
        const id = segment[at]! & 15;
        if (id > 3 || counts.length < 16 || at + 17 + total > segment.length) unreadable('bad Huffman table');
        const table = huffmanTable(counts, segment.subarray(at + 17, at + 17 + total));
        if (segment[at]! >> 4 == 0) dcTables[id] = table;
        else acTables[id] = table;
        at += 17 + total;
      }
    } else if (marker == 0xc0 || marker == 0xc1 || marker == 0xc2) {
      if (frame) unreadable('second frame');
      frame = readFrame(segment, marker == 0xc2, maxPixels);
    } else if ((marker >= 0xc3 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8) || marker == 0xdc) {
      unreadable('lossless, hierarchical or arithmetic-coded JPEG');
    } else if (marker == 0xdd) {
      restartInterval = segment.length >= 2 ? segment.readUInt16BE(0) : 0;
    } else if (marker == 0xee && segment.length >= 12 && segment.toString('latin1', 0, 5) == 'Adobe') {
      adobeTransform = segment[11];
    } else if (marker == 0xda) {
      if (!frame) unreadable('scan before frame');
      position = decodeScan(bytes, end, frame, readScan(segment, frame, dcTables, acTables), restartInterval);
      scans++;
    }
  }
  if (!frame || scans == 0) unreadable('no image data');
  const planes = frame.components.map((component) => {
    const table = quantization[component.quantizationTable];
    return componentPlane(component, table ?? unreadable('missing quantization table'));
  });
  // Three components are YCbCr (JFIF) unless an Adobe marker says they are not transformed.
  return { frame, planes, rgb: adobeTransform === 0 };
}

/** The clamped 0..255 value of a colour conversion. */
const clamp = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : Math.round(value));

/**
 * Decodes a JPEG of at most `maxPixels` pixels and hands `onRow(y, rgba)` each row as RGBA bytes
 * (reused between calls), turned as its Exif orientation says (as browsers show it). Returns the
 * size as shown, or undefined when the bytes are not a JPEG this decoder
 * reads (see the file's comment), are damaged or truncated, or have more pixels than `maxPixels`.
 */
export function decodeJpegRows(
  bytes: Buffer,
  maxPixels: number,
  onRow: (y: number, rgba: Uint8Array) => void,
): { width: number; height: number } | undefined {
  let decoded: DecodedJpeg;
  try {
    decoded = decode(bytes, maxPixels);
  } catch (error) {
    if (error instanceof UnreadableJpeg) return undefined;
    throw error;
  }
  const { frame, planes, rgb } = decoded;
  const orientation = jpegOrientation(bytes);
  const storedPixel = STORED_PIXEL[orientation]!;
  const turned = orientation >= 5;
  const width = turned ? frame.height : frame.width;
  const height = turned ? frame.width : frame.height;
  const rgba = new Uint8Array(width * 4).fill(255);
  // Where each plane's sample of a stored pixel is: subsampled components cover several pixels each.
  const sampleAt = (index: number, [x, y]: [number, number]) => {
    const component = frame.components[index]!;
    const column = Math.floor((x * component.horizontal) / frame.maxHorizontal);
    const row = Math.floor((y * component.vertical) / frame.maxVertical);
    return planes[index]!.samples[row * planes[index]!.width + column]!;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const stored = storedPixel(x, y, frame.width, frame.height);
      const target = x * 4;
      if (planes.length == 1) {
        rgba.fill(sampleAt(0, stored), target, target + 3);
      } else if (rgb) {
        rgba[target] = sampleAt(0, stored);
        rgba[target + 1] = sampleAt(1, stored);
        rgba[target + 2] = sampleAt(2, stored);
      } else {
        // JFIF's YCbCr to RGB.
        const luma = sampleAt(0, stored);
        const blue = sampleAt(1, stored) - 128;
        const red = sampleAt(2, stored) - 128;
        rgba[target] = clamp(luma + 1.402 * red);
        rgba[target + 1] = clamp(luma - 0.344136 * blue - 0.714136 * red);
        rgba[target + 2] = clamp(luma + 1.772 * blue);
      }
    }
    onRow(y, rgba);
  }
  return { width, height };
}
