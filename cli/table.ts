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
        // Too narrow for a useful cut: every cell wraps. Room is given up in order: the flexible column down to
        // a readable minimum, then the other columns (widest first) down to their header, then any column down
        // to a few characters; so the columns that identify a row stay readable longest.
        wrap = true;
        if (flex !== -1) widths[flex] = Math.min(widths[flex]!, MIN_FLEX);
        const floors = [
          columns.map((c, i) => (i === flex ? widths[i]! : Math.min(widths[i]!, Math.max(MIN_COLUMN, displayWidth(c.header))))),
          columns.map((_, i) => Math.min(widths[i]!, MIN_COLUMN)),
        ];
        for (const floor of floors) {
          while (total() > available) {
            let widest = -1;
            for (const [i, w] of widths.entries()) if (w > floor[i]! && (widest === -1 || w > widths[widest]!)) widest = i;
            if (widest === -1) break;
            widths[widest]! -= 1;
          }
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
    // A word wider than the column is broken after a hyphen when one fits, else between characters.
    let rest = word;
    while (displayWidth(rest) > width) {
      let cut = '';
      for (const char of rest) {
        if (displayWidth(cut + char) > width) break;
        cut += char;
      }
      const hyphen = cut.lastIndexOf('-');
      if (hyphen > 0 && hyphen < cut.length - 1) cut = cut.slice(0, hyphen + 1);
      lines.push(cut);
      rest = rest.slice(cut.length);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}
