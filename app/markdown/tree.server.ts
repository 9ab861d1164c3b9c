// Markdown work the loaders do, so that pages ship trees and text rather than the parser.
import type { Parent, PhrasingContent } from 'mdast';
import { excerpt, markdownToText, markdownTree, type MarkdownTree } from '../../operations/content/markdown.ts';
import { localizePath, type Locale } from '../i18n/locales.ts';

export { markdownTree, type MarkdownTree };
export { sectionTree } from '../../operations/content/sections.ts';

/** Readable text of Markdown cut to `max` characters at a word boundary (descriptions, previews; a table's row as "header: cell" pairs). */
export function markdownExcerpt(source: string, max: number): string {
  return excerpt(markdownToText(source, { tables: 'pairs' }), max);
}

/**
 * A page's description from its Markdown: its text without headings (the first one names a section, not the page:
 * "Positioning Noa Castellan is…") cut as `markdownExcerpt` cuts.
 */
export function markdownDescription(source: string, max: number): string {
  return markdownExcerpt(source.replace(/^ {0,3}#{1,6}(?:\s.*)?$/gm, ''), max);
}

/** A page of the site (linked in the reader's language), or a path every language shares (the API's index, OpenAPI). */
const PAGE_PATH = /^\/(?:(?:entries|lenses|documents)(?:\/[a-z0-9-]+)?|search|match)$/;
const SHARED_PATH = /^\/(?:api\/v1|openapi\.json|llms\.txt)$/;

/**
 * The tree with each path of the site written alone in bold or as code (/entries in bold, /api/v1 as code) made a link to it,
 * in `locale` for a page: the brief names where to explore further that way, in every translation, and a reader
 * expects to follow it. A path a browser cannot show (/mcp) stays text. Changes the tree it is given (a fresh one per call).
 */
export function linkSitePaths(tree: MarkdownTree, locale: Locale): MarkdownTree {
  const visit = (node: Parent) => {
    node.children = node.children.map((child) => {
      if (child.type === 'link') return child;
      const path =
        child.type === 'inlineCode'
          ? child.value
          : child.type === 'strong' && child.children.length === 1 && child.children[0]!.type === 'text'
            ? child.children[0].value
            : undefined;
      const url = path === undefined ? undefined : PAGE_PATH.test(path) ? localizePath(locale, path) : SHARED_PATH.test(path) ? path : undefined;
      if (url) return { type: 'link', url, children: [child as PhrasingContent] };
      if ('children' in child) visit(child);
      return child;
    });
  };
  visit(tree);
  return tree;
}
