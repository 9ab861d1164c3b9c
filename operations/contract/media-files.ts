// The content's images as plain data, each named once: where they live, how large they may be, their types and the
// extensions each is stored under. No zod: the content rules, the service and the console's browser code import them.

/** Where images live: files here are bytes, never read as text, checked as images (operations/server/image-check.server.ts). */
export const MEDIA_DIR = 'content/media';
/** Whether a path is under content/media/: a binary file the content checks and builds never read as text. */
export const isMediaPath = (path: string): boolean => path.startsWith(`${MEDIA_DIR}/`);
/** The largest image stored, in bytes (after its metadata is stripped it is smaller still). */
export const MEDIA_MAX_BYTES = 8 * 1024 * 1024;
/** The largest width and height of an image, in pixels. */
export const MEDIA_MAX_SIDE = 8000;
/** The types an image may have, by the media type its bytes show. */
export const mediaTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'] as const;
export type MediaType = (typeof mediaTypes)[number];
/** The extensions, lower case, an image of each type may be named with; the first is the one a new file is given. */
export const mediaExtensionsOf: Readonly<Record<MediaType, readonly [string, ...string[]]>> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/avif': ['avif'],
};
/** Every extension an image under content/media/ may have. */
export const mediaExtensions: readonly string[] = Object.values(mediaExtensionsOf).flat();
