// The one Markdown reader of the product: the site (server-side, into loader data), the chat (in the
// browser), the terminal and the search passages all read Markdown here. CommonMark + GFM (tables,
// strikethrough, autolinks) through micromark, then made safe in one place: raw HTML becomes text,
// images become their description, and a link survives only when safeHref allows its target.
// No dependency on app/ or cli/, and no Node built-ins: the browser imports it as it is.
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfm } from 'micromark-extension-gfm';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import type { BlockContent, Nodes, Paragraph, Parents, PhrasingContent, Root, RootContent, Table, Text } from 'mdast';

export type { Root as MarkdownTree } from 'mdast';

declare module 'mdast' {
  interface LinkData {
    /** The target as the author wrote it (`url` holds safeHref's normalised form); the terminal shows this one. */
    writtenUrl?: string;
  }
  interface HeadingData {
    /** The section's id on a page whose sections can be linked to (sections.ts), kept in the tree sent to the page. */
    id?: string;
  }
}

/**
 * The link target if it is safe to follow: an absolute http(s) URL, or a path or fragment on this
 * site. Everything else (javascript:, data:, mailto:, protocol-relative "//host", backslash tricks,
 * relative paths) is refused with null, and the link is shown as plain text.
 */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  if (!url || /[\u0000-\u001f\u007f\\\s]/.test(url)) return null;
  if (/^https?:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
    } catch {
      return null;
    }
  }
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  if (url.startsWith('#')) return url;
  return null;
}

/**
 * Bounds that keep hostile input cheap. micromark is linear on most input but slow per character, and
 * superlinear on a few shapes: thousands of nested emphasis or bracket openers in one paragraph, deeply
 * nested block quotes or lists on one line, and many block quotes or list items in one text (each closing
 * one copies the events read so far). Text is cut into chunks at blank lines (not inside fenced code); a
 * chunk beyond these bounds, and everything after the first `parsedChars` characters (or `parsedContainers`
 * block quote and list markers), is kept as plain paragraphs instead of being parsed, and neighbouring chunks are parsed together only while they hold few
 * containers. Real content is far inside them (the largest chunk in content/ is under 4,000 characters with
 * under 50 markers, and no text opens 200 containers).
 */
export const markdownLimits = {
  /** Characters of one chunk. */
  chunkChars: 20_000,
  /** Emphasis, strikethrough, code, bracket and angle-bracket characters in one chunk. */
  chunkMarkers: 1_000,
  /** Block quote and list markers opening the lines of one chunk. */
  chunkContainers: 1_000,
  /** Lines of one chunk (a table's rows, a paragraph's lines). */
  chunkLines: 1_000,
  /** Nested block quote and list markers opening one line. */
  lineContainers: 16,
  /** Block quote and list markers in the chunks parsed together (a chunk with more is parsed alone). */
  segmentContainers: 200,
  /** Characters parsed as Markdown in one text; the rest is plain paragraphs. */
  parsedChars: 50_000,
  /** Block quote and list markers parsed in one text (each costs micromark far more than a character). */
  parsedContainers: 2_000,
  /**
   * Lines parsed as Markdown in one text, the blank ones between parsed chunks included: each costs micromark
   * 10–130 µs (setext headings the most), so 50,000 characters of setext headings or one-letter paragraphs took
   * seconds, and a megabyte of blank lines between two words six.
   */
  parsedLines: 2_000,
  /** Depth of the tree; anything deeper is flattened to its text. */
  treeDepth: 32,
} as const;

/**
 * Parses Markdown into a safe mdast tree with source positions (offsets into `source`). Only these node
 * types remain: paragraph, heading, thematicBreak, blockquote, list, listItem, code, table, tableRow,
 * tableCell, text, emphasis, strong, delete, inlineCode, break and link (with a safe `url`).
 */
export function parseMarkdown(source: string): Root {
  const children: RootContent[] = [];
  for (const segment of segments(source)) {
    if (segment.plain) {
      children.push(plainParagraph(source, segment));
      continue;
    }
    const tree = fromMarkdown(source.slice(segment.start, segment.end), syntax());
    shiftPositions(tree, segment.start, segment.line - 1);
    for (const child of tree.children) children.push(child); // (no spread: a text can have more blocks than a call has arguments)
  }
  const root: Root = { type: 'root', children, position: { start: point(source, 0, 1), end: point(source, source.length, lineCount(source)) } };
  return makeSafe(root);
}

let gfmSyntax: Parameters<typeof fromMarkdown>[1] | undefined;
/** The GFM extensions, made once (on first use, so that importing this module costs nothing). */
const syntax = () => (gfmSyntax ??= { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

/** The parsed tree without positions or empty fields: what pages send to the browser to render. */
export function markdownTree(source: string): Root {
  return JSON.parse(JSON.stringify(parseMarkdown(source), (key, value) => (key === 'position' || key === 'data' || value === null || value === undefined ? undefined : value))) as Root;
}

/** The text of nodes without markers: a line break counts as a space. */
export function plainText(nodes: Nodes | readonly Nodes[]): string {
  let out = '';
  const stack: Nodes[] = Array.isArray(nodes) ? [...nodes].reverse() : [nodes as Nodes];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'code' || node.type === 'html') out += node.value;
    else if (node.type === 'break') out += ' ';
    else if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

/** The readable text of some Markdown, for descriptions and previews (no markers, single spaces). */
export function markdownToText(source: string, { tables = 'cells' }: { tables?: 'cells' | 'pairs' } = {}): string {
  const parts: string[] = [];
  const walk = (nodes: readonly RootContent[]) => {
    for (const node of nodes) {
      if (node.type === 'heading' || node.type === 'paragraph' || node.type === 'code') parts.push(plainText(node));
      else if (node.type === 'blockquote' || node.type === 'list' || node.type === 'listItem') walk(node.children);
      else if (node.type === 'table' && tables === 'pairs') parts.push(...tablePairs(node));
      else if (node.type === 'table') for (const row of node.children) parts.push(row.children.map((cell) => plainText(cell)).join(' '));
    }
  };
  walk(parseMarkdown(source).children);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** A table's rows as sentences of "header: cell" pairs ("Language: French, Level: Native."): how a reader takes a row in. */
function tablePairs(table: Table): string[] {
  const [head, ...rows] = table.children.map((row) => row.children.map((cell) => plainText(cell).replace(/\s+/g, ' ').trim()));
  return rows.map((cells) => {
    const row = cells
      .map((cell, i) => (head?.[i] && cell ? `${head[i]}: ${cell}` : cell))
      .filter(Boolean)
      .join(', ');
    return /[.!?。！？]$/u.test(row) ? row : `${row}.`;
  });
}

/** At most `max` characters of text, cut at a word boundary with an ellipsis. */
export function excerpt(text: string, max = 160): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

// ---------------------------------------------------------------------------------------------------
// Chunks and segments: one linear pass over the lines decides what micromark gets to parse.

interface Segment {
  start: number;
  end: number;
  /** 1-based line of `start`. */
  line: number;
  plain: boolean;
  /** Block quote and list markers opening its lines. */
  containers: number;
}

/** What micromark is given of a text: the characters and lines of the segments it parses (for tests of the bounds). */
export function parsedExtent(source: string): { chars: number; lines: number } {
  let chars = 0;
  let lines = 0;
  for (const segment of segments(source)) {
    if (segment.plain) continue;
    chars += segment.end - segment.start;
    lines += lineCount(source.slice(segment.start, segment.end));
  }
  return { chars, lines };
}

const PLAIN_PARAGRAPH_CHARS = 256;
const MARKERS = new Set(['*', '_', '~', '`', '[', ']', '<'].map((c) => c.charCodeAt(0)));
const FENCE = /^[ \t]*(`{3,}|~{3,})/;

function segments(source: string): Segment[] {
  const chunks: Segment[] = [];
  let budget: number = markdownLimits.parsedChars;
  let containerBudget: number = markdownLimits.parsedContainers;
  let lineBudget: number = markdownLimits.parsedLines;
  // A chunk's gap (the blank lines before it, since the last chunk's end) is parsed with it when it joins the
  // segment before, so it counts with it.
  let chunk: (Segment & { markers: number; deep: boolean; lastLine: number; gapChars: number; gapLines: number }) | undefined;
  let fence: string | undefined;
  let line = 0;
  let lastEnd = 0;
  let lastLine = 0;
  const close = () => {
    if (!chunk) return;
    const size = chunk.end - chunk.start;
    const lines = chunk.lastLine - chunk.line + 1;
    const hostile =
      size > markdownLimits.chunkChars ||
      chunk.markers > markdownLimits.chunkMarkers ||
      chunk.containers > markdownLimits.chunkContainers ||
      lines > markdownLimits.chunkLines ||
      chunk.deep;
    const chars = size + chunk.gapChars;
    const parsedLines = lines + chunk.gapLines;
    const overBudget = !hostile && (chars > budget || chunk.containers > containerBudget || parsedLines > lineBudget);
    // Past the budget everything stays plain, so that the formatted part is one piece.
    if (overBudget) budget = containerBudget = lineBudget = -1;
    else if (!hostile) {
      budget -= chars;
      containerBudget -= chunk.containers;
      lineBudget -= parsedLines;
    }
    const plain = hostile || overBudget;
    chunks.push({ start: chunk.start, end: chunk.end, line: chunk.line, plain, containers: chunk.containers });
    lastEnd = chunk.end;
    lastLine = chunk.lastLine;
    chunk = undefined;
  };
  for (let start = 0; start <= source.length; ) {
    line++;
    const newline = source.indexOf('\n', start);
    const end = newline === -1 ? source.length : newline;
    const text = source.slice(start, end);
    const blank = /^[ \t\r]*$/.test(text);
    if (blank && !fence) close();
    else {
      chunk ??= { start, end, line, plain: false, containers: 0, markers: 0, deep: false, lastLine: line, gapChars: start - lastEnd, gapLines: line - lastLine - 1 };
      chunk.end = end;
      chunk.lastLine = line;
      const opener = FENCE.exec(text)?.[1];
      if (fence) {
        if (opener && opener[0] === fence[0] && opener.length >= fence.length && /^[ \t]*(`+|~+)[ \t\r]*$/.test(text)) fence = undefined;
      } else {
        if (opener && !(opener[0] === '`' && text.indexOf('`', text.indexOf(opener) + opener.length) !== -1)) fence = opener;
        else chunk.markers += countMarkers(text);
        const depth = containerDepth(text);
        chunk.containers += depth;
        if (depth > markdownLimits.lineContainers) chunk.deep = true;
      }
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  close();
  // Neighbouring chunks to parse become one segment, so lists and references keep spanning blank lines.
  // Short plain chunks gather into one paragraph, so that plain text costs a node per few hundred characters.
  const merged: Segment[] = [];
  for (const c of chunks) {
    const last = merged[merged.length - 1];
    if (last && !last.plain && !c.plain && last.containers + c.containers <= markdownLimits.segmentContainers) {
      last.end = c.end;
      last.containers += c.containers;
    } else if (last && last.plain && c.plain && last.end - last.start < PLAIN_PARAGRAPH_CHARS) {
      last.end = c.end;
    } else merged.push({ ...c });
  }
  return merged;
}

function countMarkers(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (MARKERS.has(text.charCodeAt(i))) n++;
  return n;
}

/** How many block quote and list markers open a line ("> > - 1. x" → 4); stops counting past the limit. */
function containerDepth(text: string): number {
  let depth = 0;
  let i = 0;
  while (depth <= markdownLimits.lineContainers) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    const ch = text[i];
    if (ch === '>') i++;
    else if ((ch === '-' || ch === '+' || ch === '*') && (i + 1 >= text.length || /[ \t\r]/.test(text[i + 1]!))) i++;
    else {
      let j = i;
      while (j - i < 9 && text[j]! >= '0' && text[j]! <= '9') j++;
      if (j === i || (text[j] !== '.' && text[j] !== ')') || !(j + 1 >= text.length || /[ \t\r]/.test(text[j + 1]!))) break;
      i = j + 1;
    }
    depth++;
  }
  return depth;
}

function plainParagraph(source: string, segment: Segment): Paragraph {
  const value = source.slice(segment.start, segment.end);
  const position = { start: point(source, segment.start, segment.line), end: point(source, segment.end, segment.line + lineCount(value) - 1) };
  return { type: 'paragraph', children: [{ type: 'text', value, position }], position };
}

function point(source: string, offset: number, line: number) {
  return { line, column: offset - (source.lastIndexOf('\n', offset - 1) + 1) + 1, offset };
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function shiftPositions(tree: Root, offset: number, lines: number): void {
  if (!offset && !lines) return;
  const stack: Nodes[] = [tree];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.position) {
      for (const p of [node.position.start, node.position.end]) {
        if (p.offset !== undefined) p.offset += offset;
        p.line += lines;
      }
    }
    if ('children' in node) for (const child of node.children) stack.push(child);
  }
}

// ---------------------------------------------------------------------------------------------------
// Safety: one walk that leaves only the node types the renderers know, with safe links.

type AnyNode = Nodes;

function makeSafe(root: Root): Root {
  const definitions = new Map<string, string>();
  const scan: Nodes[] = [root];
  while (scan.length) {
    const node = scan.pop()!;
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
    else if ('children' in node) for (const child of node.children) scan.push(child);
  }

  // Each parent's children are rewritten before its own children are visited; depth is tracked so that
  // nothing deeper than treeDepth reaches a (recursive) renderer.
  const stack: Array<{ node: Parents; depth: number }> = [{ node: root, depth: 0 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (depth >= markdownLimits.treeDepth) {
      flatten(node);
      continue;
    }
    // A replacement (a link's text, a footnote's blocks) is checked again in its turn.
    const children: AnyNode[] = [];
    const pending = [...(node.children as AnyNode[])].reverse();
    while (pending.length) {
      const child = pending.pop()!;
      const result = safeNode(child, definitions, BLOCK_PARENTS.has(node.type));
      if (result.length === 1 && result[0] === child) children.push(child);
      else for (let i = result.length - 1; i >= 0; i--) pending.push(result[i]!);
    }
    (node as { children: AnyNode[] }).children = mergeText(children);
    for (const child of node.children as AnyNode[]) if ('children' in child) stack.push({ node: child, depth: depth + 1 });
  }
  return root;
}

const BLOCK_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/** What one node becomes: itself (possibly corrected in place), its children, text, or nothing. */
function safeNode(node: AnyNode, definitions: Map<string, string>, block: boolean): AnyNode[] {
  switch (node.type) {
    case 'html':
      return block ? [{ type: 'paragraph', children: [text(node.value, node)], position: node.position }] : [text(node.value, node)];
    case 'image':
      return node.alt ? [text(node.alt, node)] : [];
    case 'imageReference':
      return node.alt ? [text(node.alt, node)] : [];
    case 'definition':
      return [];
    case 'footnoteReference':
      return [text(`[^${node.label ?? node.identifier}]`, node)];
    case 'footnoteDefinition':
      return node.children;
    case 'link': {
      const href = safeHref(node.url);
      if (!href) return node.children;
      node.data = { writtenUrl: node.data?.writtenUrl ?? node.url };
      node.url = href;
      node.title = null;
      return [node];
    }
    case 'linkReference': {
      const written = definitions.get(node.identifier);
      if (written === undefined) return node.children;
      return [{ type: 'link', url: written, children: node.children, position: node.position }];
    }
    case 'listItem': {
      if (typeof node.checked === 'boolean') {
        const box = text(node.checked ? '[x] ' : '[ ] ', node);
        const first = node.children[0];
        if (first?.type === 'paragraph') first.children.unshift(box);
        else node.children.unshift({ type: 'paragraph', children: [box] });
        node.checked = null;
      }
      return [node];
    }
    case 'yaml':
      return [];
    default:
      return [node];
  }
}

function text(value: string, from: AnyNode): Text {
  return { type: 'text', value, position: from.position };
}

function mergeText(nodes: AnyNode[]): AnyNode[] {
  const out: AnyNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.type === 'text' && last?.type === 'text') {
      out[out.length - 1] = { type: 'text', value: last.value + node.value, position: last.position && node.position ? { start: last.position.start, end: node.position.end } : undefined };
    } else out.push(node);
  }
  return out;
}

/** Replaces a too-deep parent's children with their text, keeping the tree valid for its kind. */
function flatten(node: Parents): void {
  const value = plainText(node.children);
  const phrasing: PhrasingContent[] = value ? [{ type: 'text', value }] : [];
  switch (node.type) {
    case 'root':
    case 'blockquote':
    case 'listItem':
    case 'footnoteDefinition':
      (node as { children: BlockContent[] }).children = [{ type: 'paragraph', children: phrasing }];
      break;
    case 'list':
      node.children = [{ type: 'listItem', spread: false, children: [{ type: 'paragraph', children: phrasing }] }];
      break;
    case 'table':
    case 'tableRow':
      (node as { children: unknown[] }).children = [];
      break;
    default:
      (node as { children: PhrasingContent[] }).children = phrasing;
  }
}
