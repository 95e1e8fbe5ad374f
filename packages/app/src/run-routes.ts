import type { Request, RequestHandler, Router } from 'express';
import { APPROVAL_TOKEN_HEADER, ApprovalAnswerSchema } from '@holdfast/core/contract';
import type { RunStartedResponse } from '@holdfast/core/contract';
import { ApiError } from './api-error.js';
import type { LiveRun, RunRegistry } from './live-run.js';
import { streamLiveRuns } from './live-stream.js';
import { streamRun } from './run-stream.js';
import { tokensMatch } from './security.js';
import type { ServerContext } from './server-context.js';
import { prepareRun, startRun } from './start-run.js';

/** What a 429 tells the client to wait: about one round of a run. */
const RETRY_AFTER_SECONDS = 30;

function liveRunOf(registry: RunRegistry, request: Request): LiveRun {
  const runId = String(request.params['id']);
  const run = registry.get(runId);
  if (run === undefined) throw new ApiError(404, 'E_RUN_NOT_FOUND', `no run "${runId}" is running in this server.`);
  return run;
}

function refuseBeyondMaxRuns(runs: RunRegistry, maxRuns: number): void {
  const inProgress = runs.all().filter((run) => !run.finished).length;
  if (inProgress >= maxRuns) {
    throw new ApiError(
      429,
      'E_TOO_MANY_RUNS',
      `${inProgress} runs are in progress, the most this server runs at once (serve --max-runs); start this one when one ends.`,
      { retryAfterSeconds: RETRY_AFTER_SECONDS },
    );
  }
}

/** POST /run/:id/approvals/:approvalId: only the holder of the run's token may answer its human gate. */
function answerApproval(runs: RunRegistry): RequestHandler {
  return (request, response) => {
    const run = liveRunOf(runs, request);
    const token = request.headers[APPROVAL_TOKEN_HEADER];
    if (typeof token !== 'string' || token === '') {
      throw new ApiError(401, 'E_TOKEN', `answering an approval needs the run's token in the ${APPROVAL_TOKEN_HEADER} header (from the run's stream).`);
    }
    if (!tokensMatch(token, run.token)) throw new ApiError(403, 'E_TOKEN', `the ${APPROVAL_TOKEN_HEADER} header does not match this run's token.`);
    const answer = ApprovalAnswerSchema.safeParse(request.body);
    if (!answer.success) throw new ApiError(400, 'E_APPROVAL_BODY', 'the body must be {"approve": true} or {"approve": false}.');
    if (run.approvals === undefined) throw new ApiError(409, 'E_NO_GATE', `run "${run.runId}" has no human gate: its commits are not waiting for anyone.`);
    const approvalId = String(request.params['approvalId']);
    if (!run.approvals.answer(approvalId, answer.data.approve)) {
      throw new ApiError(
        409,
        'E_APPROVAL_CLOSED',
        `approval "${approvalId}" is not waiting: unknown, already answered, or timed out (a timeout is a refusal).`,
      );
    }
    response.json({ approvalId, decision: answer.data.approve ? 'approved' : 'refused' });
  };
}

/**
 * The routes of runs in progress in this server: start one (refused beyond `context.maxRuns`),
 * watch them (board and per-run SSE), answer a held commit, cancel.
 */
export function addRunRoutes(api: Router, context: ServerContext, runs: RunRegistry, heartbeatMs: number): void {
  api.post('/run', async (request, response) => {
    refuseBeyondMaxRuns(runs, context.maxRuns);
    const prepared = await prepareRun(request.body, context);
    // Again after the awaits: runs started meanwhile count, and nothing awaits between here and startRun.
    refuseBeyondMaxRuns(runs, context.maxRuns);
    const run = startRun(prepared, context, runs);
    const body: RunStartedResponse = { runId: run.runId, name: run.name };
    response.status(201).json(body);
  });

  api.get('/live', (_request, response) => {
    response.json(runs.board.snapshot());
  });

  api.get('/live/stream', (_request, response) => {
    streamLiveRuns(response, runs.board, heartbeatMs);
  });

  api.get('/run/:id/stream', async (request, response) => {
    await streamRun(request, response, runs, context, { heartbeatMs });
  });

  api.post('/run/:id/approvals/:approvalId', answerApproval(runs));

  api.post('/run/:id/cancel', (request, response) => {
    const run = liveRunOf(runs, request);
    if (run.finished) throw new ApiError(409, 'E_RUN_FINISHED', `run "${run.runId}" has already ended.`);
    run.controller.abort();
    response.status(202).json({ runId: run.runId, status: 'cancelling' });
  });
}
