export type ExportFormat = 'csv' | 'json' | 'md';

/**
 * A figure the page prints as text (`15/16 94% [72–99]`, `+80 pp [45–95]`): JSON carries its numbers with the
 * text beside them, CSV a column per number, Markdown (for pasting) the text.
 */
export interface ExportFigure {
  readonly text: string;
  readonly values: Readonly<Record<string, number | null>>;
}

type ExportCell = string | number | boolean | null | ExportFigure;

/** What the page shows as a table: column names and one row of cells each. */
export interface ExportTable {
  readonly name: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly ExportCell[])[];
}

function isFigure(cell: ExportCell | undefined): cell is ExportFigure {
  return typeof cell === 'object' && cell !== null;
}

function textOf(cell: ExportCell | undefined): string {
  if (cell === undefined || cell === null) return '';
  return isFigure(cell) ? cell.text : String(cell);
}

function csvCell(cell: ExportCell | undefined): string {
  const text = textOf(cell);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function mdCell(cell: ExportCell | undefined): string {
  return textOf(cell).replaceAll('|', '\\|').replace(/\r?\n/g, ' ');
}

/** The numbers of each figure column (`rounds where a violation landed`: count, n, rate, low, high), by column index. */
function figureKeys(table: ExportTable): Map<number, readonly string[]> {
  const keys = new Map<number, readonly string[]>();
  table.columns.forEach((_column, index) => {
    const figure = table.rows.map((row) => row[index]).find(isFigure);
    if (figure !== undefined) keys.set(index, Object.keys(figure.values));
  });
  return keys;
}

function csv(table: ExportTable): string {
  const keys = figureKeys(table);
  const header = table.columns.flatMap((column, index) => keys.get(index)?.map((key) => `${column} ${key}`) ?? [column]);
  const rows = table.rows.map((row) =>
    table.columns.flatMap((_column, index) => {
      const cell = row[index];
      const figureColumns = keys.get(index);
      if (figureColumns === undefined) return [csvCell(cell)];
      return figureColumns.map((key) => (isFigure(cell) ? csvCell(cell.values[key] ?? null) : ''));
    }),
  );
  return [header, ...rows].map((row) => row.join(',')).join('\r\n') + '\r\n';
}

function jsonCell(cell: ExportCell | undefined): unknown {
  if (cell === undefined) return null;
  return isFigure(cell) ? { ...cell.values, text: cell.text } : cell;
}

/**
 * The table as CSV (RFC 4180 quoting; a figure's numbers in a column each), JSON (one object per row, keyed by
 * column; a figure as an object of its numbers and its text) or a Markdown table (figures as the page prints them).
 */
export function formatExport(table: ExportTable, format: ExportFormat): string {
  switch (format) {
    case 'csv':
      return csv(table);
    case 'json':
      return `${JSON.stringify(
        table.rows.map((row) => Object.fromEntries(table.columns.map((column, index) => [column, jsonCell(row[index])]))),
        null,
        2,
      )}\n`;
    case 'md':
      return (
        [
          `| ${table.columns.map(mdCell).join(' | ')} |`,
          `| ${table.columns.map(() => '---').join(' | ')} |`,
          ...table.rows.map((row) => `| ${table.columns.map((_column, index) => mdCell(row[index])).join(' | ')} |`),
        ].join('\n') + '\n'
      );
  }
}

const MIME: Record<ExportFormat, string> = { csv: 'text/csv', json: 'application/json', md: 'text/markdown' };

/** Hands the table to the browser as a download named `<name>.<format>`. */
export function downloadExport(table: ExportTable, format: ExportFormat): void {
  const url = URL.createObjectURL(new Blob([formatExport(table, format)], { type: `${MIME[format]};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${table.name}.${format}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
