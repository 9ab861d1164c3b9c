// A Markdown body split into the passages search indexes: blocks the text separates with a blank line gather into
// a passage of readable size, a heading starts a new one, and each passage keeps its Markdown and the id of the
// section it lies in (sections.ts), so that a hit can link to that section of the page.
import type { RootContent } from 'mdast';
import { parseMarkdown } from '../content/markdown.ts';
import { headingIds } from '../content/sections.ts';
import { memoize } from './memo.ts';

export interface Section {
  text: string;
  /** The id of the last heading at or before the passage's start, as the page gives it; none before the first. */
  section?: string;
}

/**
 * Splits Markdown into passages of readable size, keeping paragraphs whole where possible: blocks the
 * text separates with a blank line (a list's items when they are spread out) gather into a passage until
 * it would pass `maxChars`, and a one-line heading always starts a new one. Passages keep their Markdown.
 */
export function splitPassages(markdown: string, maxChars = 600): string[] {
  return splitSections(markdown, maxChars).map((p) => p.text);
}

/** splitPassages, with the section each passage lies in. Shared arrays: do not change them. */
export function splitSections(markdown: string, maxChars = 600): readonly Section[] {
  return maxChars === 600 ? splitCached(markdown) : split(markdown, maxChars);
}

/** Split by text: a rebuild parses only the Markdown that changed. */
const splitCached = memoize((markdown: string) => split(markdown, 600), 50_000);

function split(markdown: string, maxChars: number): Section[] {
  const out: Section[] = [];
  let current: Section | undefined;
  for (const block of markdownBlocks(markdown)) {
    const isHeading = /^#{1,6}\s/.test(block.text) && !block.text.includes('\n');
    if (current && (isHeading || current.text.length + block.text.length + 2 > maxChars)) {
      out.push(current);
      current = undefined;
    }
    if (current) current.text = `${current.text}\n\n${block.text}`;
    else current = block.section ? { text: block.text, section: block.section } : { text: block.text };
  }
  if (current) out.push(current);
  return out;
}

/** The source of each block the parser finds, blocks not separated by a blank line taken together, each with its section. */
function markdownBlocks(markdown: string): Section[] {
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
  const tree = parseMarkdown(markdown);
  visit(tree.children);
  // where each section starts, in reading order
  const starts = [...headingIds(tree)].flatMap(([heading, id]) => (heading.position ? [{ at: heading.position.start.offset!, id }] : []));
  let next = 0;
  let section: string | undefined;
  const blocks: Section[] = [];
  const push = (group: { start: number; end: number }) => {
    while (next < starts.length && starts[next]!.at <= group.start) section = starts[next++]!.id;
    const text = markdown.slice(group.start, group.end).trim();
    if (text) blocks.push(section ? { text, section } : { text });
  };
  let group: { start: number; end: number } | undefined;
  for (const leaf of leaves) {
    if (group && !/\n[ \t\r]*\n/.test(markdown.slice(group.end, leaf.start))) group.end = leaf.end;
    else {
      if (group) push(group);
      group = { ...leaf };
    }
  }
  if (group) push(group);
  return blocks;
}
