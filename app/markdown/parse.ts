// A small Markdown parser for the profile's text and the chat's answers. It builds a tree that the
// React renderer turns into elements, so raw HTML can never reach the page: `<b>` stays the text "<b>".
// Links survive only when they point to http(s) or to a path on this site (see safeHref).
// Supported: ATX headings, paragraphs, emphasis, strong, strikethrough, code spans and fences,
// block quotes, nested ordered and unordered lists, GFM tables, thematic breaks, links, autolinks.

export type Inline =
  | { type: 'text'; value: string }
  | { type: 'strong' | 'em' | 'del'; children: Inline[] }
  | { type: 'code'; value: string }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'break' };

export type Align = 'left' | 'right' | 'center' | null;

export type Block =
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'blockquote'; children: Block[] }
  | { type: 'list'; ordered: boolean; start: number; tight: boolean; items: Block[][] }
  | { type: 'code'; lang: string; value: string }
  | { type: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] }
  | { type: 'hr' };

/**
 * The link target if it is safe to follow: an absolute http(s) URL, or a path or fragment on this
 * site. Everything else (javascript:, data:, mailto:, protocol-relative "//host", backslash tricks,
 * relative paths) is refused with null, and the link is shown as plain text.
 */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  // eslint-disable-next-line no-control-regex
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

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

const isBlank = (line: string) => /^\s*$/.test(line);

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  return parseBlocks(lines);
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }

    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length && !new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`).test(lines[i]!)) body.push(lines[i++]!);
      i++; // the closing fence (or the end of the text)
      blocks.push({ type: 'code', lang: fence[2] ?? '', value: body.join('\n') });
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1]!.length, children: parseInline(heading[2] ?? '') });
      i++;
      continue;
    }

    if (HR.test(line)) {
      blocks.push({ type: 'hr' });
      i++;
      continue;
    }

    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (i < lines.length && !isBlank(lines[i]!)) {
        const current = lines[i]!;
        if (QUOTE.test(current)) body.push(current.replace(QUOTE, ''));
        else if (startsBlock(current)) break;
        else body.push(current); // a lazy continuation line of the quoted paragraph
        i++;
      }
      blocks.push({ type: 'blockquote', children: parseBlocks(body) });
      continue;
    }

    const item = LIST_ITEM.exec(line);
    if (item) {
      const [list, next] = parseList(lines, i);
      blocks.push(list);
      i = next;
      continue;
    }

    if (line.includes('|') && i + 1 < lines.length && TABLE_DELIMITER.test(lines[i + 1]!) && lines[i + 1]!.includes('-')) {
      const head = splitRow(line);
      const align = splitRow(lines[i + 1]!).map((cell): Align => {
        const left = cell.startsWith(':');
        const right = cell.endsWith(':');
        return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
      });
      if (align.length === head.length) {
        const rows: Inline[][][] = [];
        i += 2;
        while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.includes('|') && !startsBlock(lines[i]!)) {
          const cells = splitRow(lines[i++]!);
          rows.push(head.map((_, c) => parseInline(cells[c] ?? '')));
        }
        blocks.push({ type: 'table', align, head: head.map((cell) => parseInline(cell)), rows });
        continue;
      }
    }

    const paragraph: string[] = [];
    while (i < lines.length && !isBlank(lines[i]!) && (paragraph.length === 0 || !startsBlock(lines[i]!))) paragraph.push(lines[i++]!);
    blocks.push({ type: 'paragraph', children: parseInline(paragraph.map((l) => l.replace(/^ +/, '')).join('\n')) });
  }
  return blocks;
}

/** Collects one list starting at line `start`; returns it and the index of the first line after it. */
function parseList(lines: string[], start: number): [Block, number] {
  const first = LIST_ITEM.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const bullet = first[2]!.slice(-1);
  const items: Block[][] = [];
  let tight = true;
  let i = start;
  while (i < lines.length) {
    const match = LIST_ITEM.exec(lines[i]!);
    if (!match || /\d/.test(match[2]!) !== ordered || match[2]!.slice(-1) !== bullet) break;
    const indent = match[1]!.length + match[2]!.length + Math.max(1, Math.min(4, match[3]!.length || 1));
    const body = [match[4]!];
    i++;
    let sawBlank = false;
    while (i < lines.length) {
      const current = lines[i]!;
      if (isBlank(current)) {
        sawBlank = true;
        body.push('');
        i++;
        continue;
      }
      const leading = current.length - current.trimStart().length;
      if (leading >= indent) {
        if (sawBlank) tight = false;
        body.push(current.slice(indent));
        sawBlank = false;
        i++;
        continue;
      }
      if (sawBlank || startsBlock(current)) break;
      body.push(current.trimStart()); // a lazy continuation line
      i++;
    }
    while (body.length && isBlank(body[body.length - 1]!)) body.pop();
    items.push(parseBlocks(body));
    // A blank line between two items makes the list loose.
    if (sawBlank && i < lines.length && LIST_ITEM.test(lines[i]!)) tight = false;
  }
  return [{ type: 'list', ordered, start: ordered ? parseInt(first[2]!, 10) : 1, tight, items }, i];
}

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  let inCode = false;
  for (let i = 0; i < row.length; i++) {
    const ch = row[i]!;
    if (ch === '\\' && row[i + 1] === '|') {
      current += '|';
      i++;
    } else if (ch === '`') {
      inCode = !inCode;
      current += ch;
    } else if (ch === '|' && !inCode) {
      cells.push(current.trim());
      current = '';
    } else current += ch;
  }
  cells.push(current.trim());
  return cells;
}

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;
const BARE_URL = /^https?:\/\/[^\s<>"]+/i;

/** Parses inline Markdown into a list of nodes. Unmatched markers stay as text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push({ type: 'text', value: buffer });
    buffer = '';
  };
  const push = (node: Inline) => {
    flush();
    out.push(node);
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const rest = text.slice(i);

    if (ch === '\\' && i + 1 < text.length) {
      const next = text[i + 1]!;
      if (next === '\n') {
        push({ type: 'break' });
        i += 2;
        continue;
      }
      if (PUNCTUATION.test(next)) {
        buffer += next;
        i += 2;
        continue;
      }
    }

    if (ch === '\n') {
      if (/ {2,}$/.test(buffer)) {
        buffer = buffer.replace(/ +$/, '');
        push({ type: 'break' });
      } else buffer += '\n';
      i++;
      continue;
    }

    if (ch === '`') {
      const run = /^`+/.exec(rest)![0];
      const close = text.indexOf(run, i + run.length);
      if (close !== -1 && text[close + run.length] !== '`') {
        let value = text.slice(i + run.length, close).replace(/\n/g, ' ');
        if (/^ .* $/.test(value) && value.trim()) value = value.slice(1, -1);
        push({ type: 'code', value });
        i = close + run.length;
        continue;
      }
      buffer += run;
      i += run.length;
      continue;
    }

    if (ch === '!' && text[i + 1] === '[') {
      const link = parseLink(text, i + 1);
      if (link) {
        // Images are not shown (no tracking pixels from answers); their description is.
        buffer += link.label;
        i = link.end;
        continue;
      }
    }

    if (ch === '[') {
      const link = parseLink(text, i);
      if (link) {
        const href = safeHref(link.url);
        const children = parseInline(link.label);
        if (href) push({ type: 'link', href, children });
        else {
          flush();
          out.push(...children);
        }
        i = link.end;
        continue;
      }
    }

    if (ch === '<') {
      const auto = /^<(https?:\/\/[^\s<>]+)>/i.exec(rest);
      if (auto) {
        const href = safeHref(auto[1]!);
        if (href) push({ type: 'link', href, children: [{ type: 'text', value: auto[1]! }] });
        else buffer += auto[1];
        i += auto[0].length;
        continue;
      }
    }

    if ((ch === 'h' || ch === 'H') && !/[\p{L}\p{N}]/u.test(text[i - 1] ?? '')) {
      const bare = BARE_URL.exec(rest);
      if (bare) {
        let url = bare[0];
        // Trailing punctuation belongs to the sentence, and a closing parenthesis only if unbalanced.
        while (/[.,;:!?'"*_~]$/.test(url) || (url.endsWith(')') && count(url, '(') < count(url, ')'))) url = url.slice(0, -1);
        const href = safeHref(url);
        if (href) {
          push({ type: 'link', href, children: [{ type: 'text', value: url }] });
          i += url.length;
          continue;
        }
      }
    }

    if (ch === '*' || ch === '_' || ch === '~') {
      const emphasis = parseEmphasis(text, i);
      if (emphasis) {
        push(emphasis.node);
        i = emphasis.end;
        continue;
      }
      const run = new RegExp(`^\\${ch}+`).exec(rest)![0];
      buffer += run;
      i += run.length;
      continue;
    }

    buffer += ch;
    i++;
  }
  flush();
  return out;
}

const count = (text: string, ch: string) => text.split(ch).length - 1;

/** `[label](url "title")` starting at `start` (the "["), with nested brackets in the label. */
function parseLink(text: string, start: number): { label: string; url: string; end: number } | null {
  let depth = 0;
  let i = start;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[') depth++;
    else if (ch === ']' && --depth === 0) break;
  }
  if (i >= text.length || text[i + 1] !== '(') return null;
  const label = text.slice(start + 1, i);
  let j = i + 2;
  while (text[j] === ' ') j++;
  let url = '';
  if (text[j] === '<') {
    const close = text.indexOf('>', j);
    if (close === -1) return null;
    url = text.slice(j + 1, close);
    j = close + 1;
  } else {
    let parens = 0;
    for (; j < text.length; j++) {
      const ch = text[j]!;
      if (ch === '\\' && j + 1 < text.length) {
        url += text[++j];
        continue;
      }
      if (/\s/.test(ch)) break;
      if (ch === '(') parens++;
      if (ch === ')') {
        if (parens === 0) break;
        parens--;
      }
      url += ch;
    }
  }
  while (text[j] === ' ') j++;
  const title = /^("[^"]*"|'[^']*'|\([^)]*\))\s*/.exec(text.slice(j));
  if (title) j += title[0].length;
  if (text[j] !== ')') return null;
  return { label, url, end: j + 1 };
}

/** `**strong**`, `__strong__`, `*em*`, `_em_`, `~~del~~` starting at `start`. */
function parseEmphasis(text: string, start: number): { node: Inline; end: number } | null {
  const ch = text[start]!;
  const run = /^([*_~])\1*/.exec(text.slice(start))![0];
  if (ch === '~' && run.length !== 2) return null;
  const size = ch === '~' ? 2 : Math.min(run.length, 3);
  const before = text[start - 1] ?? ' ';
  const after = text[start + size] ?? ' ';
  if (/\s/.test(after)) return null; // a left-flanking run must be followed by non-space
  if (ch === '_' && /[\p{L}\p{N}]/u.test(before)) return null; // snake_case stays literal

  const marker = ch.repeat(size);
  let search = start + size;
  while (search < text.length) {
    const close = text.indexOf(marker, search);
    if (close === -1) return null;
    const prev = text[close - 1]!;
    const next = text[close + size] ?? ' ';
    const exact = text[close + size] !== ch || size === 3;
    if (close > start + size && !/\s/.test(prev) && exact && !(ch === '_' && /[\p{L}\p{N}]/u.test(next))) {
      const inner = text.slice(start + size, close);
      const children = parseInline(inner);
      const node: Inline =
        ch === '~' ? { type: 'del', children }
        : size === 3 ? { type: 'strong', children: [{ type: 'em', children }] }
        : { type: size === 2 ? 'strong' : 'em', children };
      return { node, end: close + size };
    }
    search = close + 1;
  }
  return null;
}

/** The text of inline nodes, without markers. */
export function inlineText(nodes: Inline[]): string {
  return nodes.map((n) => (n.type === 'text' || n.type === 'code' ? n.value : n.type === 'break' ? ' ' : inlineText(n.children))).join('');
}

/** The readable text of some Markdown, for descriptions and previews (no markers, single spaces). */
export function markdownToText(source: string): string {
  const parts: string[] = [];
  const inline = inlineText;
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.type === 'heading' || b.type === 'paragraph') parts.push(inline(b.children));
      else if (b.type === 'blockquote') walk(b.children);
      else if (b.type === 'list') b.items.forEach(walk);
      else if (b.type === 'code') parts.push(b.value);
      else if (b.type === 'table') for (const row of [b.head, ...b.rows]) parts.push(row.map(inline).join(' '));
    }
  };
  walk(parseMarkdown(source));
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** At most `max` characters of text, cut at a word boundary with an ellipsis. */
export function excerpt(text: string, max = 160): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}
