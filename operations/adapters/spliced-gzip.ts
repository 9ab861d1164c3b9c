// A page compressed once and sent many times with a different value in a few places (the CSP nonce of each
// answer). The text around the holes is deflated once, each part ending on a byte boundary (a sync flush), so
// an answer is the parts laid end to end with the value between them as a stored (uncompressed) deflate
// block: a valid gzip stream, built by copying bytes. Even the checksum is not computed again over the text:
// each part's CRC is kept, and an answer's CRC is combined from them and the value's (as zlib's
// crc32_combine does), so an answer costs a few copies whatever the page's size.
import { crc32, constants as zlib, deflateRawSync, gunzipSync } from 'node:zlib';
import { ownedBytes } from '../corpus/owned-bytes.ts';

/** The gzip header: deflate, no name or time, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** An empty final stored block: ends a stream whose last part was a hole. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
/** A stored block holds at most this many bytes. */
const MAX_STORED = 0xffff;

// CRC-32 arithmetic: polynomials over GF(2) modulo the CRC polynomial, bit-reflected as the CRC is.
const POLY = 0xedb88320;
/** a(x)·b(x) mod p(x). */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let m = 0x80000000; m; m >>>= 1) {
    if (a & m) product ^= b;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return product >>> 0;
}
/** x^(2^k) mod p(x), k = 0…31 (x^1 is 1 << 30 in the reflected order). */
const X_POW_2K: number[] = [0x40000000];
for (let k = 1; k < 32; k++) X_POW_2K.push(multiplyModP(X_POW_2K[k - 1]!, X_POW_2K[k - 1]!));
/** x^(8·bytes) mod p(x): what shifting a CRC past `bytes` bytes multiplies it by. */
function shiftOf(bytes: number): number {
  let power = 0x80000000; // x^0
  for (let n = bytes, k = 3; n; n >>>= 1, k++) if (n & 1) power = multiplyModP(X_POW_2K[k & 31]!, power);
  return power;
}

export class SplicedText {
  readonly compressible = true;
  /** Each part deflated to a byte boundary; the last one final. Only the compressed form is kept. */
  private readonly deflated: readonly Buffer[];
  /** Each part's own CRC, and what shifting a CRC past the part multiplies it by. */
  private readonly crcs: readonly number[];
  private readonly shifts: readonly number[];
  /** Bytes of the text without the values in the holes. */
  readonly fixedLength: number;
  readonly fixedGzipLength: number;

  /** Splits `text` at every occurrence of `marker` (none: one part, no holes). */
  constructor(text: Buffer, marker: string, level = 6) {
    const parts: Buffer[] = [];
    const needle = Buffer.from(marker, 'utf8');
    let from = 0;
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, from)) {
      parts.push(text.subarray(from, at));
      from = at + needle.length;
    }
    parts.push(text.subarray(from));
    const deflated = parts.map((part, i) => {
      const last = i === parts.length - 1;
      if (!part.length) return last ? FINAL_EMPTY_BLOCK : Buffer.alloc(0);
      return deflateRawSync(part, { level, finishFlush: last ? zlib.Z_FINISH : zlib.Z_SYNC_FLUSH });
    });
    // Kept in one piece of memory of their own size (each was a view of a 16 kB chunk of zlib's).
    const held = ownedBytes(Buffer.concat(deflated));
    let offset = 0;
    this.deflated = deflated.map((part) => held.subarray(offset, (offset += part.length)));
    this.crcs = parts.map((part) => crc32(part));
    this.shifts = parts.map((part) => shiftOf(part.length));
    this.fixedLength = parts.reduce((n, p) => n + p.length, 0);
    this.fixedGzipLength = GZIP_HEADER.length + this.deflated.reduce((n, p) => n + p.length, 0) + 8;
  }

  get holes(): number {
    return this.deflated.length - 1;
  }

  /** Memory held: the compressed text. */
  get size(): number {
    return this.fixedGzipLength;
  }

  /**
   * The text with `value` in every hole, uncompressed: for the rare client that takes no gzip, inflated from
   * the compressed form rather than kept beside it (which would take three to four times the memory).
   */
  text(value: string): Buffer {
    return gunzipSync(this.gzip(value));
  }

  /** The text with `value` in every hole, as one gzip stream. */
  gzip(value: string): Buffer {
    const fill = Buffer.from(value, 'utf8');
    if (fill.length > MAX_STORED) throw new RangeError('a spliced value must fit one stored block');
    const stored = fill.length + 5;
    const out = Buffer.allocUnsafe(this.fixedGzipLength + stored * this.holes);
    let at = GZIP_HEADER.copy(out, 0);
    const fillCrc = crc32(fill);
    const fillShift = shiftOf(fill.length);
    let crc = this.crcs[0]!;
    this.deflated.forEach((part, i) => {
      if (i) {
        // A non-final stored block: BFINAL 0, BTYPE 00 on a byte boundary, then LEN and its complement.
        out[at++] = 0x00;
        out.writeUInt16LE(fill.length, at);
        out.writeUInt16LE(~fill.length & 0xffff, at + 2);
        at += 4;
        at += fill.copy(out, at);
        // crc(A·B) = crc(A)·x^(8|B|) + crc(B): past the value, then past the part.
        crc = (multiplyModP(fillShift, crc) ^ fillCrc) >>> 0;
        crc = (multiplyModP(this.shifts[i]!, crc) ^ this.crcs[i]!) >>> 0;
      }
      at += part.copy(out, at);
    });
    out.writeUInt32LE(crc >>> 0, at);
    out.writeUInt32LE((this.fixedLength + fill.length * this.holes) >>> 0, at + 4);
    return out;
  }
}

/**
 * Bytes that compression does not shrink (images): kept as they are and answered without gzip, with the same
 * face as SplicedText (no holes).
 */
export class PlainBytes {
  readonly holes = 0;
  readonly compressible = false;
  constructor(private readonly bytes: Buffer) {}
  get fixedLength(): number {
    return this.bytes.length;
  }
  get size(): number {
    return this.bytes.length;
  }
  text(): Buffer {
    return this.bytes;
  }
  gzip(): Buffer {
    return this.bytes;
  }
}
