import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTree } from './remove-tree.js';

describe('removeTree', () => {
  it('removes a tree whose folders a command locked (read-only, unsearchable), and never throws', () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-remove-tree-'));
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'a', 'b', 'file'), 'x');
    chmodSync(join(root, 'a', 'b'), 0o000);
    chmodSync(join(root, 'a'), 0o500);
    expect(removeTree(root)).toBeUndefined();
    expect(existsSync(root)).toBe(false);
    expect(removeTree(join(root, 'never-existed'))).toBeUndefined();
  });
});
