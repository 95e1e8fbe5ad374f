import { downloadExport } from '../export-view.js';
import type { ExportFormat, ExportTable } from '../export-view.js';

const FORMATS: readonly { format: ExportFormat; label: string }[] = [
  { format: 'csv', label: 'CSV' },
  { format: 'json', label: 'JSON' },
  { format: 'md', label: 'Markdown' },
];

/** Downloads what the view shows, as built by `table()` when a button is pressed. */
export function ExportButtons({ table, what }: { table: () => ExportTable; what: string }) {
  return (
    <span className="export-buttons" data-testid="export-buttons">
      Export {what}:
      {FORMATS.map(({ format, label }) => (
        <button key={format} type="button" className="link" data-testid={`export-${format}`} onClick={() => downloadExport(table(), format)}>
          {label}
        </button>
      ))}
    </span>
  );
}
