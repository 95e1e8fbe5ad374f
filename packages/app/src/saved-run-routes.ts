import type { Request, RequestHandler, Router } from 'express';
import { RunViewSchema } from '@holdfast/core/contract';
import type { RoundEventsResponse, RunListResponse, RunView, SavedRunResponse } from '@holdfast/core/contract';
import { safeParseRunFileText } from '@holdfast/lab/store';
import { ApiError } from './api-error.js';
import { listSavedRuns, openRunStream, readLeanRunBytes, readSavedRound } from './run-files.js';
import { pipeline } from 'node:stream/promises';
import type { RunIndexCache } from './run-index.js';
import type { SavedRunReader } from './saved-run-json.js';

function wantsJson(request: Request): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('application/x-ndjson');
}

function viewOf(request: Request): RunView {
  const asked = request.query['view'];
  if (asked === undefined) return 'full';
  const parsed = RunViewSchema.safeParse(asked);
  if (!parsed.success) throw new ApiError(400, 'E_VIEW', `view must be "full", "lean" or "summary", got ${JSON.stringify(asked)}.`);
  return parsed.data;
}

/** GET /runs/:name: one saved run as JSON (read off-thread by `readSavedRunJson`) or as NDJSON, in the asked view. */
function savedRun(runsDir: string, runIndexes: RunIndexCache, readSavedRunJson: SavedRunReader): RequestHandler {
  return async (request, response) => {
    const name = String(request.params['name']);
    const view = viewOf(request);
    if (wantsJson(request)) {
      if (view === 'summary') {
        // The summary is computed once per file (run-index) and trimmed already: no worker needed.
        const { events, problems } = safeParseRunFileText((await readLeanRunBytes(runIndexes, runsDir, name, false, 'summary')).toString('utf8'), name);
        const body: SavedRunResponse = { name, view, events, problems };
        response.json(body);
      } else {
        response.type('application/json; charset=utf-8').send(await readSavedRunJson({ runsDir, name, view }));
      }
      return;
    }
    response.set('X-Holdfast-View', view).type('application/x-ndjson; charset=utf-8');
    if (view === 'full') {
      await pipeline(await openRunStream(runsDir, name), response);
      return;
    }
    const gzipped = request.acceptsEncodings('gzip', 'identity') === 'gzip';
    const bytes = await readLeanRunBytes(runIndexes, runsDir, name, gzipped, view);
    response.vary('Accept-Encoding');
    if (gzipped) response.set('Content-Encoding', 'gzip');
    response.send(bytes);
  };
}

/** The routes of the run files saved in `runsDir`: the list, one run, one round of it. */
export function addSavedRunRoutes(api: Router, runsDir: string, runIndexes: RunIndexCache, readSavedRunJson: SavedRunReader): void {
  api.get('/runs', async (_request, response) => {
    const body: RunListResponse = { runs: await listSavedRuns(runsDir) };
    response.json(body);
  });

  api.get('/runs/:name', savedRun(runsDir, runIndexes, readSavedRunJson));

  api.get('/runs/:name/rounds/:roundId', async (request, response) => {
    const name = String(request.params['name']);
    const roundId = String(request.params['roundId']);
    const body: RoundEventsResponse = { events: await readSavedRound(runIndexes, runsDir, name, roundId) };
    response.json(body);
  });
}
