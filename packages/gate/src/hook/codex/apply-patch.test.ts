import { describe, expect, it } from 'vitest';
import { applyHunks, readApplyPatch } from './apply-patch.js';

const PATCH = [
  '*** Begin Patch',
  '*** Add File: src/orders.ts',
  '+export const orders = [];',
  '  *** Update File: src/cart.ts',
  '*** Move to: src/basket.ts',
  '@@ export function total',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  '*** Delete File: src/old.ts',
  '*** End Patch',
].join('\n');

describe('readApplyPatch', () => {
  it('reads add, update with move (indented header), and delete sections', () => {
    expect(readApplyPatch(PATCH)).toEqual([
      { kind: 'add', path: 'src/orders.ts', content: 'export const orders = [];\n' },
      {
        kind: 'update',
        path: 'src/cart.ts',
        moveTo: 'src/basket.ts',
        hunks: [{ before: ['const a = 1;', 'const b = 2;'], after: ['const a = 1;', 'const b = 3;'] }],
      },
      { kind: 'delete', path: 'src/old.ts' },
    ]);
  });
});

describe('applyHunks', () => {
  it('applies a hunk to the file on disk', () => {
    expect(applyHunks('x\nconst a = 1;\nconst b = 2;\ny\n', [{ before: ['const a = 1;', 'const b = 2;'], after: ['const a = 1;', 'const b = 3;'] }])).toBe(
      'x\nconst a = 1;\nconst b = 3;\ny\n',
    );
  });

  it('falls back to the added lines when a hunk does not fit, so content rules still see them', () => {
    expect(applyHunks('unrelated\n', [{ before: ['nope'], after: ['console.log(1)'] }])).toBe('console.log(1)\n');
  });
});
