import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeFile } from './atomic-file.js';

describe('removeFile', () => {
  it('removes a file, takes a missing one as removed, and refuses a folder', () => {
    const folder = mkdtempSync(join(tmpdir(), 'holdfast-remove-'));
    const file = join(folder, 'index');
    writeFileSync(file, 'x');
    removeFile(file);
    expect(existsSync(file)).toBe(false);
    expect(() => removeFile(file)).not.toThrow();
    mkdirSync(join(folder, 'sub'));
    expect(() => removeFile(join(folder, 'sub'))).toThrow();
    expect(existsSync(join(folder, 'sub'))).toBe(true);
  });
});
