import type { RunView, SavedRunResponse } from '@holdfast/core/contract';
import { InputError } from '@holdfast/core/contract';
import { canUseWorkers, createWorkerPool } from '@holdfast/lab/thread-pool';
import { ApiError } from './api-error.js';
import { leanRunEvent } from './lean-run.js';
import { readSavedRun } from './run-files.js';

export interface SavedRunRequest {
  readonly runsDir: string;
  readonly name: string;
  readonly view: RunView;
}

/** The JSON body of a saved run, or the refusal (a bad name, a missing file) to answer instead. */
export type SavedRunJson =
  { readonly ok: true; readonly json: string } | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string };

/** A saved run as `GET /api/runs/:name` answers it in JSON: every line read and validated, then serialised. */
export async function savedRunJson(request: SavedRunRequest): Promise<SavedRunJson> {
  try {
    const { events, problems } = await readSavedRun(request.runsDir, request.name);
    const body: SavedRunResponse = { name: request.name, view: request.view, events: request.view === 'lean' ? events.map(leanRunEvent) : events, problems };
    return { ok: true, json: JSON.stringify(body) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, status: error.status, code: error.code, message: error.message };
    if (error instanceof InputError) return { ok: false, status: 400, code: error.code, message: error.message };
    throw error;
  }
}

export type SavedRunReader = (request: SavedRunRequest) => Promise<string>;

export interface SavedRunReaderHandle {
  readonly read: SavedRunReader;
  close(): Promise<void>;
}

const BUDGET_MS = 120_000;

function answer(result: SavedRunJson): string {
  if (!result.ok) throw new ApiError(result.status, result.code, result.message);
  return result.json;
}

/** The reader on the calling thread (tests, and createApp without a server around it). */
export const readSavedRunHere: SavedRunReader = async (request) => answer(await savedRunJson(request));

/**
 * Reads saved runs for the API in a worker thread when running compiled: validating every line of
 * a 30 MB run takes seconds, which must not stall the other requests and the live streams.
 */
export function createSavedRunReader(): SavedRunReaderHandle {
  if (!canUseWorkers()) return { read: readSavedRunHere, close: async () => {} };
  const pool = createWorkerPool<SavedRunRequest, SavedRunJson>({ entry: new URL('./saved-run-worker.js', import.meta.url), size: 1, budgetMs: BUDGET_MS });
  return {
    read: async (request) => {
      const outcome = await pool.run(request);
      if (outcome.ok) return answer(outcome.value);
      if (outcome.reason === 'over-budget')
        throw new ApiError(
          503,
          'E_RUN_TOO_SLOW',
          `reading the saved run "${request.name}" took longer than ${BUDGET_MS / 1000} s; read it as JSONL instead (no Accept: application/json).`,
        );
      throw new Error(`reading the saved run "${request.name}" failed: ${outcome.message}`);
    },
    close: () => pool.close(),
  };
}
