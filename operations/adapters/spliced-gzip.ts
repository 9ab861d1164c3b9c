// A page compressed once and sent many times with a different value in a few places (the CSP nonce of each
// answer). The text around the holes is deflated once, each part ending on a byte boundary (a sync flush), so
// an answer is the parts laid end to end with the value between them as a stored (uncompressed) deflate
// block: a valid gzip stream, built by copying bytes. Only the checksum is computed per answer.
import { crc32, constants as zlib, deflateRawSync } from 'node:zlib';

/** The gzip header: deflate, no name or time, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** An empty final stored block: ends a stream whose last part was a hole. */
const FINAL_EMPTY_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
/** A stored block holds at most this many bytes. */
const MAX_STORED = 0xffff;

export class SplicedText {
  /** The text between the holes, as bytes (one more than there are holes). */
  readonly parts: readonly Buffer[];
  /** Each part deflated to a byte boundary; the last one final. */
  private readonly deflated: readonly Buffer[];
  /** Checksum of the text before the first hole, so an answer's checksum starts there. */
  private readonly headCrc: number;
  /** Bytes of the answer without the values in the holes. */
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
    this.parts = parts;
    this.deflated = parts.map((part, i) => {
      const last = i === parts.length - 1;
      if (!part.length) return last ? FINAL_EMPTY_BLOCK : Buffer.alloc(0);
      return deflateRawSync(part, { level, finishFlush: last ? zlib.Z_FINISH : zlib.Z_SYNC_FLUSH });
    });
    this.headCrc = crc32(parts[0]!);
    this.fixedLength = parts.reduce((n, p) => n + p.length, 0);
    this.fixedGzipLength = GZIP_HEADER.length + this.deflated.reduce((n, p) => n + p.length, 0) + 8;
  }

  get holes(): number {
    return this.parts.length - 1;
  }

  /** Memory held: the text and its compressed form. */
  get size(): number {
    return this.fixedLength + this.fixedGzipLength;
  }

  /** The text with `value` in every hole. */
  text(value: string): Buffer {
    if (!this.holes) return this.parts[0]!;
    const fill = Buffer.from(value, 'utf8');
    const out = Buffer.allocUnsafe(this.fixedLength + fill.length * this.holes);
    let at = 0;
    this.parts.forEach((part, i) => {
      if (i) at += fill.copy(out, at);
      at += part.copy(out, at);
    });
    return out;
  }

  /** The text with `value` in every hole, as one gzip stream. */
  gzip(value: string): Buffer {
    const fill = Buffer.from(value, 'utf8');
    if (fill.length > MAX_STORED) throw new RangeError('a spliced value must fit one stored block');
    const stored = fill.length + 5;
    const out = Buffer.allocUnsafe(this.fixedGzipLength + stored * this.holes);
    let at = GZIP_HEADER.copy(out, 0);
    let crc = this.headCrc;
    this.deflated.forEach((part, i) => {
      if (i) {
        // A non-final stored block: BFINAL 0, BTYPE 00 on a byte boundary, then LEN and its complement.
        out[at++] = 0x00;
        out.writeUInt16LE(fill.length, at);
        out.writeUInt16LE(~fill.length & 0xffff, at + 2);
        at += 4;
        at += fill.copy(out, at);
        crc = crc32(this.parts[i]!, crc32(fill, crc));
      }
      at += part.copy(out, at);
    });
    out.writeUInt32LE(crc >>> 0, at);
    out.writeUInt32LE((this.fixedLength + fill.length * this.holes) >>> 0, at + 4);
    return out;
  }
}
