// Markdown work the loaders do, so that pages ship trees and text rather than the parser.
import { excerpt, markdownToText, markdownTree, type MarkdownTree } from '../../operations/content/markdown.ts';

export { markdownTree, type MarkdownTree };
export { sectionTree } from '../../operations/content/sections.ts';

/** Readable text of Markdown cut to `max` characters at a word boundary (descriptions, previews). */
export function markdownExcerpt(source: string, max: number): string {
  return excerpt(markdownToText(source), max);
}

/**
 * A page's description from its Markdown: its text without headings (the first one names a section, not the page:
 * "Positioning Noa Castellan is…") cut as `markdownExcerpt` cuts.
 */
export function markdownDescription(source: string, max: number): string {
  return markdownExcerpt(source.replace(/^ {0,3}#{1,6}(?:\s.*)?$/gm, ''), max);
}
