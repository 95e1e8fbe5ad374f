import { describe, expect, it } from 'vitest';
import { loadRulebook } from '@holdfast/core/rules';
import { loadTasks } from './tasks.js';

/**
 * Each task repository stands alone (an agent sees it whole), so files every task needs are copied
 * into each. The copies must not drift: a fix to one is a fix to all.
 */
const SHARED = ['scripts/test.mjs', 'src/lib/http.ts'];

describe('files shared by every task repository', () => {
  it.each(SHARED)('%s is byte-identical in every task', async (path) => {
    const tasks = await loadTasks(undefined, { rulebook: await loadRulebook() });
    const copies = new Map(tasks.map((task) => [task.id, task.files[path]]));
    expect([...copies.values()].every((content) => content !== undefined)).toBe(true);
    const first = tasks[0]!.files[path];
    const drifted = [...copies].filter(([, content]) => content !== first).map(([id]) => id);
    expect(drifted).toEqual([]);
  });
});
