// Images picked in the console, before they are committed: each one's bytes kept in this browser's IndexedDB (an
// image is too large for localStorage, where the change set keeps its texts), by branch and path, until the change
// set commits or discards it. The checks here are the quick ones a person should hear about at once (type, size);
// the service checks every image again by its bytes when the set is validated and committed.

import { MEDIA_DIR, MEDIA_MAX_BYTES, mediaExtensionsOf, mediaTypes, type MediaType } from '../../operations/contract/media-files.ts';

const isMediaType = (type: string): type is MediaType => (mediaTypes as readonly string[]).includes(type);

const DB = 'vitae-console-media';
const STORE = 'images';
const keyOf = (branch: string, path: string) => `${branch}\n${path}`;

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB is not available in this browser'));
  });
}

async function run<T>(mode: IDBTransactionMode, request: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const sent = request(db.transaction(STORE, mode).objectStore(STORE));
      sent.onsuccess = () => resolve(sent.result);
      sent.onerror = () => reject(sent.error ?? new Error('IndexedDB refused the request'));
    });
  } finally {
    db.close();
  }
}

/** Keeps an image's bytes (base64) for a pending change. */
export const keepImage = (branch: string, path: string, base64: string) => run('readwrite', (s) => s.put(base64, keyOf(branch, path))).then(() => undefined);

/** The bytes (base64) of a pending image, or undefined when this browser no longer has them. */
export const keptImage = (branch: string, path: string) =>
  run<string | undefined>('readonly', (s) => s.get(keyOf(branch, path)) as IDBRequest<string | undefined>);

/** Forgets the bytes of pending images (committed or discarded); failures are harmless leftovers. */
export function forgetImages(branch: string, paths: readonly string[]): void {
  if (typeof indexedDB === 'undefined') return;
  for (const path of paths) void run('readwrite', (s) => s.delete(keyOf(branch, path))).catch(() => undefined);
}

/** A file name as the service names images: lowercase letters, digits, "-" and "_", and the extension of its type. */
export function mediaPathFor(name: string, type: string): string {
  const stem =
    name
      .replace(/\.[^.]*$/, '')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/^[-_]+|[-_]+$/g, '')
      .slice(0, 80) || 'image';
  return `${MEDIA_DIR}/${stem}.${isMediaType(type) ? mediaExtensionsOf[type][0] : 'jpg'}`;
}

/** Why a picked file is not taken, in words; undefined when it may go to the service. */
export function imageRefusal(file: { name: string; type: string; size: number }): string | undefined {
  if (!isMediaType(file.type))
    return `"${file.name}" is ${file.type ? `${file.type}` : 'not an image this browser recognises'}: add a JPEG, PNG, WebP or AVIF image (SVG and GIF are not taken).`;
  if (file.size > MEDIA_MAX_BYTES)
    return `"${file.name}" is ${(file.size / 1024 / 1024).toFixed(1)} MB: an image is at most ${MEDIA_MAX_BYTES / 1024 / 1024} MB.`;
  return undefined;
}

/** The bytes of a file as base64. */
export async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** A small JPEG of the image (at most 160 px a side) as a data URL, for the change set's list; '' when it cannot be drawn. */
export async function thumbnailOf(blob: Blob): Promise<string> {
  try {
    const bitmap = await createImageBitmap(blob);
    const scale = Math.min(1, 160 / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return canvas.toDataURL('image/jpeg', 0.8);
  } catch {
    return ''; // a format this browser cannot draw (AVIF in an older one): the list says so in words
  }
}

/** A size in words: "340 kB", "2.4 MB". */
export const sizeInWords = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
