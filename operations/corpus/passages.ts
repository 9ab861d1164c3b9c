// A Markdown body split into the passages search indexes: blocks the text separates with a blank line gather into
// a passage of readable size, a heading starts a new one, and each passage keeps its Markdown.
import type { RootContent } from 'mdast';
import { parseMarkdown } from '../content/markdown.ts';
import { memoize } from './memo.ts';

/**
 * Splits Markdown into passages of readable size, keeping paragraphs whole where possible: blocks the
 * text separates with a blank line (a list's items when they are spread out) gather into a passage until
 * it would pass `maxChars`, and a one-line heading always starts a new one. Passages keep their Markdown.
 */
export function splitPassages(markdown: string, maxChars = 600): string[] {
  return maxChars === 600 ? splitCached(markdown) : split(markdown, maxChars);
}

/** Split by text: a rebuild parses only the Markdown that changed. Shared arrays: do not change them. */
const splitCached = memoize((markdown: string) => split(markdown, 600), 50_000);

function split(markdown: string, maxChars: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const block of markdownBlocks(markdown)) {
    const isHeading = /^#{1,6}\s/.test(block) && !block.includes('\n');
    if (current && (isHeading || current.length + block.length + 2 > maxChars)) {
      out.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${block}` : block;
  }
  if (current) out.push(current);
  return out;
}

/** The source of each block the parser finds, blocks not separated by a blank line taken together. */
function markdownBlocks(markdown: string): string[] {
  const leaves: Array<{ start: number; end: number }> = [];
  // Lists are looked into, so that items (and paragraphs within them) set apart by blank lines are blocks
  // of their own; each container's first block starts where the container does (at its marker).
  const visit = (nodes: readonly RootContent[], start?: number) => {
    nodes.forEach((node, i) => {
      const from = i === 0 && start !== undefined ? start : node.position?.start.offset;
      if (node.type === 'list' || node.type === 'listItem') visit(node.children, from);
      else if (from !== undefined && node.position?.end.offset !== undefined) leaves.push({ start: from, end: node.position.end.offset });
    });
  };
  visit(parseMarkdown(markdown).children);
  const blocks: string[] = [];
  let group: { start: number; end: number } | undefined;
  for (const leaf of leaves) {
    if (group && !/\n[ \t\r]*\n/.test(markdown.slice(group.end, leaf.start))) group.end = leaf.end;
    else {
      if (group) blocks.push(markdown.slice(group.start, group.end).trim());
      group = { ...leaf };
    }
  }
  if (group) blocks.push(markdown.slice(group.start, group.end).trim());
  return blocks.filter(Boolean);
}
