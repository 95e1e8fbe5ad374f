import { describe, expect, it } from 'vitest';
import { formatExport } from './export-view.js';

const TABLE = {
  name: 'rounds',
  columns: ['round', 'told', 'note'],
  rows: [
    ['a/t/0', 'clean', 'said "no", then | left'],
    ['a/t/1', null, 'two\nlines'],
  ],
} as const;

describe('exporting the current view', () => {
  it('writes CSV with quoting where a cell needs it', () => {
    expect(formatExport(TABLE, 'csv')).toBe('round,told,note\r\na/t/0,clean,"said ""no"", then | left"\r\na/t/1,,"two\nlines"\r\n');
  });

  it('writes JSON objects keyed by column', () => {
    expect(JSON.parse(formatExport(TABLE, 'json'))).toEqual([
      { round: 'a/t/0', told: 'clean', note: 'said "no", then | left' },
      { round: 'a/t/1', told: null, note: 'two\nlines' },
    ]);
  });

  it('writes a Markdown table with pipes escaped and lines joined', () => {
    expect(formatExport(TABLE, 'md')).toBe(
      '| round | told | note |\n| --- | --- | --- |\n| a/t/0 | clean | said "no", then \\| left |\n| a/t/1 |  | two lines |\n',
    );
  });
});
