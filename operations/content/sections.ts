// The ids of a Markdown text's headings, so that a section has an address (/documents/profile#career-arc) and search
// can send a reader to the section that answered rather than to the top of a long page. GitHub's rule, through the
// library GitHub's own renderer follows (github-slugger): lower case, punctuation dropped, spaces as hyphens, letters
// of every script kept ("## 現在の仕事" → 現在の仕事), a repeated heading numbered (-1, -2 …). The page and search
// both number the headings of the same parse in the same order, so the ids they give agree.
import GithubSlugger from 'github-slugger';
import type { Heading, Nodes, Root } from 'mdast';
import { markdownTree, plainText } from './markdown.ts';

/** Each heading of the tree (at any depth, in reading order) with its id; a heading with no letters has none. */
export function headingIds(tree: Root): Map<Heading, string> {
  const slugger = new GithubSlugger();
  const ids = new Map<Heading, string>();
  const visit = (node: Nodes) => {
    if (node.type === 'heading') {
      const text = plainText(node).trim();
      const id = text ? slugger.slug(text) : '';
      if (id && !/^-+$/.test(id)) ids.set(node, id);
    } else if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return ids;
}

/** A page's address with a section's id as its fragment (percent-encoded, as a browser sends it). */
export function sectionUrl(pageUrl: string, id: string | undefined): string {
  return id ? `${pageUrl}#${encodeURIComponent(id)}` : pageUrl;
}

/** markdownTree with each heading's id in its data (`data.id`), for a page whose sections can be linked to. */
export function sectionTree(source: string): Root {
  const tree = markdownTree(source);
  for (const [heading, id] of headingIds(tree)) heading.data = { ...heading.data, id };
  return tree;
}
