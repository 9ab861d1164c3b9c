// Aligned text tables for list outputs. With a known width (a terminal) the flexible column is cut to fit;
// without one (a pipe) rows are printed whole so nothing is lost.
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

export function renderTable<Row>(rows: readonly Row[], allColumns: Column<Row>[], view: { width?: number; colours: Colours }): string {
  let columns = allColumns;
  let cells = rows.map((row) => columns.map((c) => oneLine(c.value(row))));
  let widths = columns.map((c, i) => Math.max(displayWidth(c.header), ...cells.map((r) => displayWidth(r[i]!))));
  const flex = columns.findIndex((c) => c.flex);
  if (view.width && flex !== -1) {
    const total = widths.reduce((a, b) => a + b, 0) + GAP * (columns.length - 1);
    const room = widths[flex]! - (total - view.width);
    if (room >= MIN_FLEX) widths[flex] = Math.min(widths[flex]!, room);
    else {
      // Too narrow for a useful cut of the flexible column: leave it out rather than let every row wrap.
      columns = columns.filter((_, i) => i !== flex);
      cells = cells.map((r) => r.filter((_, i) => i !== flex));
      widths = widths.filter((_, i) => i !== flex);
    }
  }
  const gap = GAP;
  const line = (values: string[], style: (text: string, i: number) => string) =>
    values
      .map((value, i) => {
        const text = truncate(value, widths[i]!);
        const pad = ' '.repeat(widths[i]! - displayWidth(text));
        const padded = columns[i]!.align === 'right' ? pad + style(text, i) : i === values.length - 1 ? style(text, i) : style(text, i) + pad;
        return padded;
      })
      .join(' '.repeat(gap))
      .trimEnd();
  const header = line(
    columns.map((c) => c.header),
    (text) => view.colours.bold(text),
  );
  const body = cells.map((values, r) => line(values, (text, i) => columns[i]!.style?.(text, rows[r]!) ?? text));
  return [header, ...body].join('\n') + '\n';
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
