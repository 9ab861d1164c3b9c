// Aligned text tables for list outputs. With a known width (a terminal) the flexible column is cut to fit;
// when the terminal is too narrow even for a useful cut, cells wrap onto several lines (no column is ever
// left out). Without a width (a pipe) rows are printed whole so nothing is lost.
import { displayWidth, type Colours } from './colour.ts';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** The column that gives up room when the table is wider than the terminal. */
  flex?: boolean;
  align?: 'right';
  style?: (text: string, row: Row) => string;
}

const GAP = 2;
const MIN_FLEX = 12;
/** No column is squeezed below this when wrapping (a wide character needs two). */
const MIN_COLUMN = 4;

export function renderTable<Row>(rows: readonly Row[], columns: Column<Row>[], view: { width?: number; colours: Colours }): string {
  const cells = rows.map((row) => columns.map((c) => oneLine(c.value(row))));
  const natural = columns.map((c, i) => Math.max(displayWidth(c.header), ...cells.map((r) => displayWidth(r[i]!))));
  const widths = [...natural];
  const flex = columns.findIndex((c) => c.flex);
  let wrap = false;
  if (view.width) {
    const available = view.width - GAP * (columns.length - 1);
    const total = () => widths.reduce((a, b) => a + b, 0);
    if (total() > available) {
      const room = flex === -1 ? 0 : widths[flex]! - (total() - available);
      if (flex !== -1 && room >= MIN_FLEX) widths[flex] = room;
      else {
        // Too narrow for a useful cut: every cell wraps. The flexible column keeps a readable minimum, then
        // the widest columns give up room one column at a time until the table fits (or cannot shrink more).
        wrap = true;
        if (flex !== -1) widths[flex] = Math.min(widths[flex]!, MIN_FLEX);
        while (total() > available) {
          let widest = -1;
          for (const [i, w] of widths.entries()) if (w > MIN_COLUMN && (widest === -1 || w > widths[widest]!)) widest = i;
          if (widest === -1) break;
          widths[widest]! -= 1;
        }
      }
    }
  }
  const renderRow = (values: string[], style: (text: string, i: number) => string): string[] => {
    const pieces = values.map((value, i) => (wrap ? wrapCell(value, widths[i]!) : [truncate(value, widths[i]!)]));
    const height = Math.max(...pieces.map((p) => p.length));
    const lines: string[] = [];
    for (let l = 0; l < height; l++) {
      lines.push(
        pieces
          .map((piece, i) => {
            const text = piece[l] ?? '';
            const pad = ' '.repeat(Math.max(0, widths[i]! - displayWidth(text)));
            const styled = text ? style(text, i) : text;
            return columns[i]!.align === 'right' ? pad + styled : i === values.length - 1 ? styled : styled + pad;
          })
          .join(' '.repeat(GAP))
          .trimEnd(),
      );
    }
    return lines;
  };
  const header = renderRow(
    columns.map((c) => c.header),
    (text) => view.colours.bold(text),
  );
  const body = cells.flatMap((values, r) => renderRow(values, (text, i) => columns[i]!.style?.(text, rows[r]!) ?? text));
  return [...header, ...body].join('\n') + '\n';
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  for (const char of text) {
    if (displayWidth(out + char) > width - 1) break;
    out += char;
  }
  return out + '…';
}

/** Lines of at most `width` columns: breaks at spaces, and inside a word only when the word alone is wider. */
export function wrapCell(text: string, width: number): string[] {
  if (displayWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (displayWidth(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    // A word wider than the column is broken between characters.
    for (const char of word) {
      if (displayWidth(line + char) > width) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}
