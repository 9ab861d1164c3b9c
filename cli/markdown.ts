// Markdown for a terminal, from the same parser as the site (operations/content/markdown.ts): paragraphs
// and list items wrapped to the width with hanging indents, headings and inline marks styled when colour
// is on. Without colour, text is printed as written (marks included); code blocks and tables are always
// left as written (wrapping breaks them).
import type { Heading, List, Nodes, Paragraph, PhrasingContent, RootContent } from 'mdast';
import { parseMarkdown, plainText } from '../operations/content/markdown.ts';
import { displayWidth, type Colours } from './colour.ts';

interface View {
  width: number;
  colours: Colours;
}

export function renderMarkdown(markdown: string, view: { width: number; colours: Colours }): string {
  const source = markdown.replace(/\r\n/g, '\n');
  const context = { source, view: { width: Math.max(20, view.width), colours: view.colours }, base: 0 };
  const out = blocks(parseMarkdown(source).children, context, context.view.width, true);
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n') + '\n';
}

interface Context {
  source: string;
  view: View;
  /** Column (0-based) where the enclosing container's content starts: a nested list indents from there. */
  base: number;
}

const contentColumn = (nodes: readonly Nodes[], fallback: number) => (nodes[0]?.position ? nodes[0].position.start.column - 1 : fallback);

/** Lines of a run of blocks, a blank line between them when `spaced`. */
function blocks(nodes: readonly RootContent[], context: Context, width: number, spaced: boolean): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    const lines = block(node, context, width);
    if (!lines.length) continue;
    if (spaced && out.length) out.push('');
    for (const line of lines) out.push(line);
  }
  return out;
}

function block(node: RootContent, context: Context, width: number): string[] {
  const { source, view } = context;
  const c = view.colours;
  switch (node.type) {
    case 'paragraph':
      return wrap(inline(node, context), width);
    case 'heading': {
      const text = c.enabled ? plainText(node) : headingSource(node, source);
      return [node.depth <= 2 ? c.bold(c.cyan(text)) : c.bold(text)];
    }
    case 'thematicBreak':
      return [c.dim('─'.repeat(Math.min(width, 40)))];
    case 'code': {
      const lines = sourceLines(node, source);
      if (!/^\s*(```|~~~)/.test(lines[0] ?? '')) return lines; // indented code, as written
      const closed = lines.length > 1 && /^\s*(```|~~~)/.test(lines[lines.length - 1]!);
      return lines.map((line, i) => (i === 0 || (closed && i === lines.length - 1) ? c.dim(line) : c.cyan(line)));
    }
    case 'table':
      return sourceLines(node, source);
    case 'blockquote':
      return blocks(node.children, { ...context, base: contentColumn(node.children, context.base) }, width - 2, true).map((line) => c.dim('│ ') + line);
    case 'list':
      return list(node, context, width);
    default:
      return [];
  }
}

function list(node: List, context: Context, width: number): string[] {
  const { source } = context;
  const loose = Boolean(node.spread) || node.children.some((item) => item.spread);
  const out: string[] = [];
  for (const item of node.children) {
    const start = item.position?.start.offset ?? 0;
    const first = item.children[0]?.position?.start.offset;
    const written = source.slice(start, first ?? start).trim();
    const marker = node.ordered ? written || `${node.start ?? 1}.` : '•';
    const indent = ' '.repeat(Math.min(Math.max((item.position?.start.column ?? 1) - 1 - context.base, 0), 8));
    const lead = indent + marker + ' ';
    const rest = ' '.repeat(displayWidth(lead));
    const lines = blocks(item.children, { ...context, base: contentColumn(item.children, context.base) }, width - displayWidth(lead), loose);
    if (loose && out.length) out.push('');
    if (!lines.length) out.push(lead.trimEnd());
    lines.forEach((line, i) => out.push(line ? (i ? rest : lead) + line : line));
  }
  return out;
}

/** A paragraph's text on one line: as written without colour, styled from the tree with it. */
function inline(node: Paragraph, { source, view }: Context): string {
  const c = view.colours;
  if (!c.enabled) return writtenText(node, source);
  const render = (nodes: readonly PhrasingContent[]): string =>
    nodes
      .map((n) => {
        switch (n.type) {
          case 'text':
            return n.value.replace(/[ \t]*\n[ \t]*/g, ' ');
          case 'inlineCode':
            return c.cyan(n.value);
          case 'strong':
            return c.bold(render(n.children));
          case 'emphasis':
            return `\x1b[3m${render(n.children)}\x1b[23m`;
          case 'delete':
            return `\x1b[9m${render(n.children)}\x1b[29m`;
          case 'break':
            return ' ';
          case 'link':
            return `${render(n.children)} ${c.dim(`(${n.data?.writtenUrl ?? n.url})`)}`;
          default:
            return 'children' in n ? render(n.children) : '';
        }
      })
      .join('');
  return render(node.children);
}

/** The paragraph as written, its lines joined: continuation lines lose their indentation and quote markers. */
function writtenText(node: Paragraph, source: string): string {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return plainText(node);
  return source
    .slice(start, end)
    .split('\n')
    .map((line, i) => (i ? line.replace(/^[ \t]*(?:>[ \t]?)*/, '') : line).trim())
    .join(' ');
}

function headingSource(node: Heading, source: string): string {
  const first = node.children[0]?.position?.start.offset;
  const last = node.children[node.children.length - 1]?.position?.end.offset;
  return first === undefined || last === undefined
    ? plainText(node)
    : source
        .slice(first, last)
        .split('\n')
        .map((l) => l.trim())
        .join(' ');
}

/** The whole lines a block spans, as written. */
function sourceLines(node: Nodes, source: string): string[] {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return [plainText(node)];
  return source.slice(source.lastIndexOf('\n', start - 1) + 1, end).split('\n');
}

// Wide characters (CJK) may break anywhere; other text breaks at spaces. A word longer than the line is
// left whole rather than split inside a URL.
const TOKEN =
  /\s+|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]|[^\s\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]+/g;

export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const token of text.match(TOKEN) ?? []) {
    if (/^\s+$/.test(token)) {
      if (line) line += ' ';
      continue;
    }
    if (line && displayWidth(line + token) > width) {
      lines.push(line.trimEnd());
      line = '';
    }
    line += token;
  }
  if (line.trim() || !lines.length) lines.push(line.trimEnd());
  return lines;
}
