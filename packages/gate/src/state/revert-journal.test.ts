import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalReverts, recentReverts, revertKey } from './revert-journal.js';
import { snapshotStorePath } from './snapshot-store.js';

const DAY = 24 * 60 * 60 * 1000;

describe("the journal of the gate's own reverts", () => {
  it('remembers a revert for a day, and drops older lines once it grows', () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-journal-'));
    mkdirSync(snapshotStorePath(root), { recursive: true });
    const start = new Date('2026-11-30T00:00:00Z');
    journalReverts(root, [{ path: 'docs/a.md', from: 'a'.repeat(40), to: null }], start);
    expect(recentReverts(root, new Date(start.getTime() + DAY - 1)).has(revertKey({ path: 'docs/a.md', from: 'a'.repeat(40), to: null }))).toBe(true);
    expect(recentReverts(root, new Date(start.getTime() + DAY + 1)).size).toBe(0);

    const later = new Date(start.getTime() + 2 * DAY);
    const many = Array.from({ length: 3000 }, (_, index) => ({ path: `docs/${index}.md`, from: 'b'.repeat(40), to: null }));
    journalReverts(root, many, later);
    const lines = readFileSync(join(snapshotStorePath(root), 'reverts.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(3000);
    expect(lines.some((line) => line.includes('docs/a.md'))).toBe(false);
    expect(recentReverts(root, later).size).toBe(3000);
  });
});
