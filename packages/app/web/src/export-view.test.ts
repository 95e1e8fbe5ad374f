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

  it('carries a figure as numbers in JSON and CSV (its text beside them in JSON) and as its text in Markdown', () => {
    const table = {
      name: 'totals',
      columns: ['target', 'landed', 'p', 'differs'],
      rows: [
        ['demo-careful', { text: '1/16 6% [1–28]', values: { count: 1, n: 16, rate: 0.0625, low: 0.011, high: 0.283 } }, 0.176, false],
        ['demo-empty', { text: '0/0 –', values: { count: 0, n: 0, rate: null, low: null, high: null } }, 1, false],
      ],
    };
    expect(JSON.parse(formatExport(table, 'json'))).toEqual([
      { target: 'demo-careful', landed: { count: 1, n: 16, rate: 0.0625, low: 0.011, high: 0.283, text: '1/16 6% [1–28]' }, p: 0.176, differs: false },
      { target: 'demo-empty', landed: { count: 0, n: 0, rate: null, low: null, high: null, text: '0/0 –' }, p: 1, differs: false },
    ]);
    expect(formatExport(table, 'csv')).toBe(
      'target,landed count,landed n,landed rate,landed low,landed high,p,differs\r\n' +
        'demo-careful,1,16,0.0625,0.011,0.283,0.176,false\r\n' +
        'demo-empty,0,0,,,,1,false\r\n',
    );
    expect(formatExport(table, 'md')).toBe(
      '| target | landed | p | differs |\n| --- | --- | --- | --- |\n| demo-careful | 1/16 6% [1–28] | 0.176 | false |\n| demo-empty | 0/0 – | 1 | false |\n',
    );
  });
});
