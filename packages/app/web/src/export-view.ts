export type ExportFormat = 'csv' | 'json' | 'md';

/** What the page shows as a table: column names and one row of cells each. */
export interface ExportTable {
  readonly name: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number | null)[])[];
}

function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function mdCell(value: string | number | null): string {
  return (value === null ? '' : String(value)).replaceAll('|', '\\|').replace(/\r?\n/g, ' ');
}

/** The table as CSV (RFC 4180 quoting), JSON (one object per row, keyed by column) or a Markdown table. */
export function formatExport(table: ExportTable, format: ExportFormat): string {
  switch (format) {
    case 'csv':
      return [table.columns, ...table.rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
    case 'json':
      return `${JSON.stringify(
        table.rows.map((row) => Object.fromEntries(table.columns.map((column, index) => [column, row[index] ?? null]))),
        null,
        2,
      )}\n`;
    case 'md':
      return (
        [
          `| ${table.columns.map(mdCell).join(' | ')} |`,
          `| ${table.columns.map(() => '---').join(' | ')} |`,
          ...table.rows.map((row) => `| ${row.map(mdCell).join(' | ')} |`),
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
