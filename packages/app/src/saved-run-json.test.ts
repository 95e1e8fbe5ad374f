import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkerPool } from '@holdfast/lab/thread-pool';
import type { SavedRunJson, SavedRunRequest } from './saved-run-json.js';
import { readSavedRunHere, savedRunJson } from './saved-run-json.js';
import { EXAMPLE, makeWorkspace } from './test-support/fixture.js';

// The worker runs compiled code: `npm run build` first (npm test does).
const COMPILED = new URL('../dist/saved-run-worker.js', import.meta.url);

let workspace: ReturnType<typeof makeWorkspace>;
beforeEach(() => {
  workspace = makeWorkspace();
});
afterEach(() => {
  workspace.cleanup();
});

describe('saved runs read for a JSON answer', () => {
  it.runIf(existsSync(COMPILED))('come out of the worker exactly as read on this thread, refusals included', async () => {
    const pool = createWorkerPool<SavedRunRequest, SavedRunJson>({ entry: COMPILED, size: 1, budgetMs: 60_000 });
    try {
      for (const request of [
        { runsDir: workspace.runsDir, name: EXAMPLE, view: 'lean' as const },
        { runsDir: workspace.runsDir, name: 'missing.jsonl', view: 'full' as const },
        { runsDir: workspace.runsDir, name: '../escape.jsonl', view: 'full' as const },
      ]) {
        const outcome = await pool.run(request);
        expect(outcome).toEqual({ ok: true, value: await savedRunJson(request) });
      }
    } finally {
      await pool.close();
    }
  });

  it('answer a missing run with a 404 refusal', async () => {
    await expect(readSavedRunHere({ runsDir: workspace.runsDir, name: 'missing.jsonl', view: 'full' })).rejects.toMatchObject({
      status: 404,
      code: 'E_RUN_NOT_FOUND',
    });
  });
});
