// Markdown for a terminal: paragraphs and list items wrapped to the width with hanging indents, headings and
// inline marks styled when colour is on. Code blocks and tables are left as written (wrapping breaks them).
import { displayWidth, type Colours } from './colour.ts';

export function renderMarkdown(markdown: string, view: { width: number; colours: Colours }): string {
  const { colours: c } = view;
  const width = Math.max(20, view.width);
  const out: string[] = [];
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  let paragraph: string[] = [];
  let item: { marker: string; indent: number; text: string[] } | undefined;

  const flush = () => {
    if (paragraph.length) out.push(...wrap(inline(paragraph.join(' '), c), width));
    if (item) {
      const lead = ' '.repeat(item.indent) + item.marker + ' ';
      const rest = ' '.repeat(displayWidth(lead));
      wrap(inline(item.text.join(' '), c), width - displayWidth(lead)).forEach((l, i) => out.push((i ? rest : lead) + l));
    }
    paragraph = [];
    item = undefined;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      const fence = line.trim().slice(0, 3);
      out.push(c.dim(line));
      while (++i < lines.length && !lines[i]!.trim().startsWith(fence)) out.push(c.cyan(lines[i]!));
      if (i < lines.length) out.push(c.dim(lines[i]!));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (!line.trim()) {
      flush();
      if (out.length && out[out.length - 1] !== '') out.push('');
    } else if (heading) {
      flush();
      const text = heading[2]!.replace(/\s+#+\s*$/, '');
      out.push(heading[1]!.length <= 2 ? c.bold(c.cyan(text)) : c.bold(text));
    } else if (/^\s*\|/.test(line) || /^ {4}/.test(line) && !item) {
      flush();
      out.push(line);
    } else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      out.push(c.dim('─'.repeat(Math.min(width, 40))));
    } else if (/^\s*>/.test(line)) {
      flush();
      const quote = [line.replace(/^\s*>\s?/, '')];
      while (i + 1 < lines.length && /^\s*>/.test(lines[i + 1]!)) quote.push(lines[++i]!.replace(/^\s*>\s?/, ''));
      for (const l of wrap(inline(quote.join(' '), c), width - 2)) out.push(c.dim('│ ') + l);
    } else if (bullet) {
      flush();
      const marker = /\d/.test(bullet[2]!) ? bullet[2]! : '•';
      item = { marker, indent: Math.min(bullet[1]!.length, 8), text: [bullet[3]!] };
    } else if (item) {
      item.text.push(line.trim());
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n') + '\n';
}

/** Inline marks: code, bold, emphasis and links, in one pass so inserted escape codes are never re-read; without colour they stay as written. */
const INLINE = /`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|\[([^\]]+)\]\(([^)\s]+)\)|(^|[\s(])[*_]([^*_\s][^*_]*?)[*_](?=[\s).,;:!?]|$)/g;

function inline(text: string, c: Colours): string {
  if (!c.enabled) return text;
  return text.replace(INLINE, (_, code?: string, bold?: string, bold2?: string, label?: string, url?: string, pre?: string, em?: string) => {
    if (code !== undefined) return c.cyan(code);
    if (bold !== undefined || bold2 !== undefined) return c.bold(bold ?? bold2 ?? '');
    if (label !== undefined) return `${label} ${c.dim(`(${url})`)}`;
    return `${pre ?? ''}\x1b[3m${em}\x1b[23m`;
  });
}

// Wide characters (CJK) may break anywhere; other text breaks at spaces. A word longer than the line is
// left whole rather than split inside a URL.
const TOKEN = /\s+|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]|[^\s\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]+/g;

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
