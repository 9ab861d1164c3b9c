// Which images the content refers to (the subject's portrait, each entry's cover and gallery), and the problems of
// references to images the tree does not hold. Images are bytes, never part of the text check (tree.ts): this check
// runs where a commit's whole file list is at hand (a change's validation, a build).
import type { Problem } from '../contract/errors.ts';
import type { mediaTypes } from '../contract/media.ts';
import { lineOfKey, parseJsonFile, parseMarkdownFile } from './front-matter.ts';
import { locate } from './locate.ts';
import type { ContentFiles } from './model.ts';
import { isMediaPath, MEDIA_DIR } from './paths.ts';
import { EntryFields, SiteFile } from './schema.ts';

/** What a page needs of an image to lay it out before it loads, and where its bytes are (its blob sha): read by a build. */
export interface ImageFacts {
  sha: string;
  type: (typeof mediaTypes)[number];
  width: number;
  height: number;
}

/** The media type of what sharp read, when it is one the site shows: AVIF is read through libheif, with AV1 compression (an SVG it can read too is none). */
export function mediaTypeOf({ format, compression }: { format?: string; compression?: string }): ImageFacts['type'] | undefined {
  if (format === 'jpeg' || format === 'png' || format === 'webp') return `image/${format}`;
  if (format === 'heif' && compression === 'av1') return 'image/avif';
  return undefined;
}

/** The widths variants are made at (never wider than the image itself; its own width when narrower than the widest). */
const VARIANT_WIDTHS = [320, 640, 960, 1280, 1600] as const;
/** The formats of the variants, best first: a browser takes the first it knows (every current one knows WebP). */
export const variantFormats = ['avif', 'webp'] as const;
export type VariantFormat = (typeof variantFormats)[number];
/** Hex characters of the content hash a variant's name holds. */
export const HASH_LENGTH = 16;

/** The widths an image of `width` pixels is offered at. */
export function variantWidths(width: number): number[] {
  const widest = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!;
  return [...VARIANT_WIDTHS.filter((w) => w < Math.min(width, widest)), Math.min(width, widest)];
}

/** A variant's name under /media/: `<content hash>-<width>.<format>`. */
export const variantName = (sha: string, width: number, format: VariantFormat): string => `${sha.slice(0, HASH_LENGTH)}-${width}.${format}`;
/** An image a file refers to: where in the file (a JSON pointer, and the key its line is found by), and the image's path. */
export interface ImageUse {
  pointer: string;
  key: string;
  image: string;
}

/** The images a content file's text refers to (none when it does not parse: its own problems are told elsewhere). */
export function imagesUsedBy(path: string, text: string): ImageUse[] {
  if (!text.includes(`${MEDIA_DIR}/`)) return [];
  const where = locate(path);
  if (where.kind === 'site') {
    const portrait = parseJsonFile(path, text, SiteFile).data?.subject.portrait;
    return portrait ? [{ pointer: '/subject/portrait/path', key: 'portrait', image: portrait.path }] : [];
  }
  if (where.kind !== 'entry') return [];
  const fields = parseMarkdownFile(path, text, EntryFields).data;
  if (!fields) return [];
  return [
    ...(fields.cover ? [{ pointer: '/cover/path', key: 'cover', image: fields.cover.path }] : []),
    ...(fields.gallery ?? []).map((image, i) => ({ pointer: `/gallery/${i}/path`, key: 'gallery', image: image.path })),
  ];
}

/** The paths of a tree's images (what `missingImageProblems` checks references against). */
export function mediaPathsOf(tree: ReadonlyArray<{ path: string }>): Set<string> {
  return new Set(tree.filter((e) => isMediaPath(e.path)).map((e) => e.path));
}

/** References to images `media` (the paths of the tree's images, `mediaPathsOf`) does not hold. */
export function missingImageProblems(texts: ContentFiles, media: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  for (const [path, text] of texts) {
    for (const use of imagesUsedBy(path, text)) {
      if (media.has(use.image)) continue;
      problems.push({
        path,
        pointer: use.pointer,
        line: lineOfKey(text, use.key),
        message: `image "${use.image}" does not exist: upload it (admin_upload_media, or the console's media picker) or fix the path`,
      });
    }
  }
  return problems;
}

/** An image as records and pages give it (public.ts `Image`): its variants' URLs under `siteUrl`, and its size. */
export interface ImageRecord {
  path: string;
  alt: string;
  url: string;
  width: number;
  height: number;
  sources: Array<{ type: 'image/avif' | 'image/webp'; srcset: string }>;
}

/** The media type of each variant format. */
export const variantTypes = { avif: 'image/avif', webp: 'image/webp' } as const satisfies Record<VariantFormat, string>;

/** The record of an image `media` (a build's facts, by path) knows; undefined when it knows none (a preview of text alone). */
export function imageRecord(path: string, alt: string, media: ReadonlyMap<string, ImageFacts> | undefined, siteUrl: string): ImageRecord | undefined {
  const facts = media?.get(path);
  if (!facts) return undefined;
  const widths = variantWidths(facts.width);
  const widest = widths[widths.length - 1]!;
  const url = (width: number, format: VariantFormat) => `${siteUrl}/media/${variantName(facts.sha, width, format)}`;
  return {
    path,
    alt,
    url: url(widest, 'webp'),
    width: widest,
    height: Math.max(1, Math.round((facts.height * widest) / facts.width)),
    sources: variantFormats.map((format) => ({ type: variantTypes[format], srcset: widths.map((w) => `${url(w, format)} ${w}w`).join(', ') })),
  };
}
