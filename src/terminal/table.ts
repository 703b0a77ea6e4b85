// A table that fits the terminal (cli.md §3): columns two spaces apart, a rule under the
// header, flexible columns shrunk until the table fits and their cells ended in "…"; ids, key
// prefixes and times (fixed columns) are never cut. Only the visible part of a cell is measured,
// so a 10 MB name costs no more than a short one.
import { displayWidth, truncate } from './format.js';

export interface TableColumn {
  header: string;
  /** Never shortened: ids, key prefixes, times. */
  fixed?: boolean;
}

const GAP = 2;

function natural(cell: string, cap: number): number {
  return displayWidth(cell.length > cap * 2 ? cell.slice(0, cap * 2) : cell);
}

/** Column widths for cells on a terminal width columns wide. */
export function fitWidths(columns: TableColumn[], rows: string[][], width: number): number[] {
  // A loop, not Math.max(...rows): spreading 130,000 rows as arguments overflows the stack.
  const widths = columns.map((c) => displayWidth(c.header));
  for (const row of rows) {
    for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i] as number, natural(row[i] ?? '', width));
  }
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
  if (total() <= width) return widths;
  const flex = columns.map((c, i) => (c.fixed ? -1 : i)).filter((i) => i >= 0);
  const fixedSum = columns.reduce((sum, c, i) => sum + (c.fixed ? (widths[i] as number) : 0), 0);
  let room = width - fixedSum - GAP * (columns.length - 1);
  // Water-filling: columns narrower than a fair share keep their width; the rest share what is left.
  let open = [...flex].sort((a, b) => (widths[a] as number) - (widths[b] as number));
  while (open.length > 0) {
    const share = Math.floor(room / open.length);
    const first = open[0] as number;
    if ((widths[first] as number) <= share) {
      room -= widths[first] as number;
      open = open.slice(1);
      continue;
    }
    // The fair share, however narrow: a table never passes the terminal's width (cli.md §3).
    for (const i of open) widths[i] = Math.max(1, share);
    break;
  }
  return widths;
}

/** The lines of the table; header is painted by the caller's bold. */
export function renderTable(columns: TableColumn[], rows: string[][], width: number, bold: (s: string) => string): string[] {
  const widths = fitWidths(columns, rows, width);
  const last = columns.length - 1;
  const line = (cells: string[], paint = (s: string) => s) =>
    cells
      .map((cell, i) => {
        const w = widths[i] as number;
        const text = truncate(cell, w);
        return i === last ? paint(text) : paint(text) + ' '.repeat(Math.max(0, w - displayWidth(text)) + GAP);
      })
      .join('')
      .trimEnd();
  return [
    line(
      columns.map((c) => c.header),
      bold,
    ),
    widths.map((w) => '─'.repeat(w)).join(' '.repeat(GAP)),
    ...rows.map((row) => line(row)),
  ];
}
