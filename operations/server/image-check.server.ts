// An image checked by its bytes (type sniffed, size, dimensions) and re-encoded by sharp without its metadata (EXIF,
// XMP, IPTC, comments: a photo's GPS location never reaches the repository; its orientation applied and its colour
// profile kept): the one check of every image a change carries, an upload's or a change set's. Below the handlers
// (nothing of the operations' runtime); which types sharp's reading names is media-refs.ts's, which the build's media
// library reads too.
import sharp from 'sharp';
import { AppError } from '../contract/errors.ts';
import { MEDIA_MAX_BYTES, MEDIA_MAX_SIDE, mediaExtensionsOf, type MediaType } from '../contract/media-files.ts';
import { assertWritablePath, isMediaPath, MEDIA_DIR } from '../content/paths.ts';
import { mediaTypeOf } from '../content/media-refs.ts';

export type { MediaType };

/** What bytes are, as far as their first bytes tell: one of the types taken, or the name of another thing. */
export type Sniffed = { type: MediaType } | { other: string };

const ascii = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);

/** The brands of an ISO-BMFF `ftyp` box (AVIF, HEIC, MP4…): the major one and the compatible ones. */
function ftypBrands(bytes: Uint8Array): string[] | undefined {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return undefined;
  const size = Math.min(bytes.length, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0));
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(ascii(bytes, at, at + 4));
  return brands;
}

/** What the bytes are, by their content alone (never by a name). */
export function sniffImage(bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { type: 'image/jpeg' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { type: 'image/png' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return { type: 'image/webp' };
  const brands = ftypBrands(bytes);
  if (brands?.some((b) => b === 'avif' || b === 'avis')) return { type: 'image/avif' };
  if (brands?.some((b) => /^(heic|heix|hevc|heim|heis|mif1|msf1)$/.test(b))) return { other: 'a HEIC/HEIF image' };
  if (brands) return { other: `an ISO media file (brand "${brands[0]!.replace(/[^\x20-\x7e]/g, '?')}")` };
  const head = ascii(bytes, 0, 8);
  if (head.startsWith('GIF8')) return { other: 'a GIF image' };
  if (head.startsWith('%PDF')) return { other: 'a PDF document' };
  if (head.startsWith('BM')) return { other: 'a BMP image' };
  if (head.startsWith('II*\0') || head.startsWith('MM\0*')) return { other: 'a TIFF image' };
  const text = Buffer.from(bytes.subarray(0, 4096)).toString('utf8');
  if (/^\uFEFF?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(text)) return { other: 'an SVG image' };
  if (!text.includes('\uFFFD') && !/[\u0000-\u0008\u000e-\u001f]/.test(text)) return { other: 'text' };
  return { other: 'not an image format this service knows' };
}

const typeNames: Record<MediaType, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP', 'image/avif': 'AVIF' };

export interface CheckedImage {
  bytes: Buffer;
  type: MediaType;
  width: number;
  height: number;
}

const MB = 1024 * 1024;

/**
 * The image at `path` from its bytes, as it will be stored: refused by content (type, an extension that does not match
 * it, size, dimensions, a file that does not decode), else re-encoded in its own type without metadata, its
 * orientation applied.
 */
export async function checkedImage(path: string, bytes: Buffer): Promise<CheckedImage> {
  if (bytes.length > MEDIA_MAX_BYTES)
    throw new AppError(
      'payload_too_large',
      `The image is ${(bytes.length / MB).toFixed(1)} MB; at most ${MEDIA_MAX_BYTES / MB} MB is taken. Nothing was written.`,
    );
  if (!bytes.length) throw new AppError('bad_request', 'The image is empty.', { errors: [{ pointer: '/contentBase64', message: 'empty' }] });
  const sniffed = sniffImage(bytes);
  if ('other' in sniffed) {
    const why = sniffed.other === 'an SVG image' ? ' (SVG can carry scripts, so it is never taken)' : '';
    throw new AppError(
      'unsupported_media_type',
      `"${path}" is ${sniffed.other}${why}, not an image this site takes: upload a JPEG, PNG, WebP or AVIF image. Nothing was written.`,
    );
  }
  const { type } = sniffed;
  const extension = path.slice(path.lastIndexOf('.') + 1);
  if (!mediaExtensionsOf[type].includes(extension)) {
    const message = `the file is a ${typeNames[type]} image, so its name ends in .${mediaExtensionsOf[type].join(' or .')}, not .${extension}`;
    throw new AppError('bad_request', `"${path}": ${message}. Nothing was written.`, { errors: [{ pointer: '/path', message }] });
  }
  return reencoded(path, bytes, type);
}

async function reencoded(path: string, bytes: Buffer, type: MediaType): Promise<CheckedImage> {
  const unreadable = (error: unknown) =>
    new AppError(
      'bad_request',
      `"${path}" looks like a ${typeNames[type]} image but cannot be read as one (${(error as Error).message}). Nothing was written.`,
      {
        errors: [{ pointer: '/contentBase64', message: 'not a readable image' }],
      },
    );
  const open = () => sharp(bytes, { limitInputPixels: MEDIA_MAX_SIDE * MEDIA_MAX_SIDE, failOn: 'error' });
  const meta = await open()
    .metadata()
    .catch((error: unknown) => {
      throw unreadable(error);
    });
  if (mediaTypeOf(meta) !== type || !meta.width || !meta.height) throw unreadable(new Error(`it decodes as ${meta.format ?? 'nothing'}`));
  if (meta.width > MEDIA_MAX_SIDE || meta.height > MEDIA_MAX_SIDE) {
    const message = `the image is ${meta.width}×${meta.height} pixels; at most ${MEDIA_MAX_SIDE}×${MEDIA_MAX_SIDE} is taken`;
    throw new AppError('bad_request', `"${path}": ${message}. Nothing was written.`, { errors: [{ pointer: '/contentBase64', message }] });
  }
  if ((meta.pages ?? 1) > 1) {
    const message = 'animated images are not taken; upload a still image';
    throw new AppError('bad_request', `"${path}": ${message}. Nothing was written.`, { errors: [{ pointer: '/contentBase64', message }] });
  }
  // Without withMetadata/keepExif sharp writes no EXIF, XMP, IPTC or comments; the colour profile is kept so colours stay.
  const pipeline = open().rotate().keepIccProfile();
  const encoder =
    type === 'image/jpeg'
      ? pipeline.jpeg({ quality: 90 })
      : type === 'image/png'
        ? pipeline.png({ compressionLevel: 9 })
        : type === 'image/webp'
          ? pipeline.webp({ quality: 90 })
          : pipeline.avif({ quality: 70, effort: 3 });
  const { data, info } = await encoder.toBuffer({ resolveWithObject: true }).catch((error: unknown) => {
    throw unreadable(error);
  });
  if (data.length > MEDIA_MAX_BYTES)
    throw new AppError('payload_too_large', `The image is ${(data.length / MB).toFixed(1)} MB once stored; at most ${MEDIA_MAX_BYTES / MB} MB is taken.`);
  return { bytes: data, type, width: info.width, height: info.height };
}

/**
 * An image a change carries (an upload, or one change of a change set) as it will be stored: its path checked as an
 * image's (under content/media/, named as images are) before its bytes are decoded, then `checkedImage`.
 */
export async function storedImage(path: string, contentBase64: string): Promise<CheckedImage> {
  assertWritablePath(path);
  if (!isMediaPath(path)) throw new AppError('forbidden_path', `"${path}" is not under ${MEDIA_DIR}/: images are uploaded to ${MEDIA_DIR}/<name>.<ext>.`);
  return checkedImage(path, Buffer.from(contentBase64, 'base64'));
}
