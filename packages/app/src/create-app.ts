import { randomBytes } from 'node:crypto';
import express from 'express';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { APPROVAL_TOKEN_HEADER, ApprovalAnswerSchema, InputError, RunViewSchema } from '@holdfast/core/contract';
import type {
  ApiError as ApiErrorBody,
  PressureListResponse,
  RoundEventsResponse,
  RunListResponse,
  RunStartedResponse,
  RunView,
  SavedRunResponse,
  Timers,
} from '@holdfast/core/contract';
import { safeParseRunFileText } from '@holdfast/lab/store';
import { ApiError } from './api-error.js';
import { CallLimiter } from './call-limiter.js';
import { clientErrorOf, requireUtf8Body } from './client-error.js';
import { buildConfigResponse } from './config-response.js';
import { RunRegistry } from './live-run.js';
import type { LiveRun } from './live-run.js';
import { listPressureFiles, readPressureFile } from './pressure-files.js';
import { listSavedRuns, readLeanRunBytes, readRunText, readSavedRound } from './run-files.js';
import { RunIndexCache } from './run-index.js';
import { streamLiveRuns } from './live-stream.js';
import { streamRun } from './run-stream.js';
import { allowedHostHeaders, hostGuard, sameOriginGuard, tokensMatch } from './security.js';
import type { ServerContext } from './server-context.js';
import type { QueueConnection } from '@holdfast/lab/scale';
import type { ReplyJudge } from '@holdfast/lab/experiment';
import { readSavedRunHere } from './saved-run-json.js';
import type { SavedRunReader } from './saved-run-json.js';
import { prepareRun, startRun } from './start-run.js';

export interface AppOptions {
  readonly cwd: string;
  readonly runsDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** The bound host and port: the only Host headers answered (loopback names of that port). */
  readonly host: string;
  readonly port: number;
  readonly now?: () => Date;
  /** What held-arm approval deadlines run on; the real timers when absent. */
  readonly timers?: Timers;
  readonly generateId?: () => string;
  readonly generateToken?: () => string;
  readonly tasksDir?: string;
  readonly rulebookPath?: string;
  readonly probeTimeoutMs?: number;
  readonly defaultRun?: string;
  /** Interval of the SSE `: heartbeat` comment (15 s). */
  readonly heartbeatMs?: number;
  readonly log?: (line: string) => void;
  /** Runs in progress at once (default 4) and model calls in flight across them (default 8). */
  readonly limits?: ServerLimits;
  /** Reads and checks live runs' replies (createServer passes a worker pool); this thread when absent. */
  readonly judgeReply?: ReplyJudge;
  /** Reads a saved run for a JSON answer (createServer passes a worker); this thread when absent. */
  readonly readSavedRunJson?: SavedRunReader;
  /** Serves the web app for every non-API path (built assets, or Vite in development). */
  readonly frontend?: RequestHandler;
  /** `serve --queue`: runs started here are queued for workers (see ServerContext.queue). */
  readonly queue?: QueueConnection;
}

export interface ServerLimits {
  readonly runs?: number;
  readonly modelCalls?: number;
}

export const DEFAULT_MAX_RUNS = 4;
export const DEFAULT_MAX_MODEL_CALLS = 8;
/** What a 429 tells the client to wait: about one round of a run. */
const RETRY_AFTER_SECONDS = 30;

export interface HoldfastApp {
  readonly app: Express;
  readonly runs: RunRegistry;
  /** Once listening on port 0, the real port: Host headers are checked against it. */
  setPort(port: number): void;
}

const JSON_LIMIT = '64kb';

export function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `run-${stamp}-${randomBytes(3).toString('hex')}`;
}

function liveRunOf(registry: RunRegistry, request: Request): LiveRun {
  const runId = String(request.params['id']);
  const run = registry.get(runId);
  if (run === undefined) throw new ApiError(404, 'E_RUN_NOT_FOUND', `no run "${runId}" is running in this server.`);
  return run;
}

function sendError(response: Response, status: number, code: string, message: string, retryAfterSeconds?: number): void {
  const body: ApiErrorBody = { error: { code, message } };
  if (retryAfterSeconds !== undefined) response.set('Retry-After', String(retryAfterSeconds));
  response.status(status).json(body);
}

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

/**
 * The API as an Express app, without a port, so every route is testable in-process. Security is
 * applied before any route: Host check for everything, same-origin JSON for every state change.
 */
export function createApp(options: AppOptions): HoldfastApp {
  const now = options.now ?? (() => new Date());
  const context: ServerContext = {
    cwd: options.cwd,
    runsDir: options.runsDir,
    env: options.env,
    now,
    generateId: options.generateId ?? (() => newRunId(now())),
    generateToken: options.generateToken ?? (() => randomBytes(32).toString('base64url')),
    probeTimeoutMs: options.probeTimeoutMs ?? 1_500,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
    ...(options.tasksDir !== undefined ? { tasksDir: options.tasksDir } : {}),
    ...(options.rulebookPath !== undefined ? { rulebookPath: options.rulebookPath } : {}),
    ...(options.defaultRun !== undefined ? { defaultRun: options.defaultRun } : {}),
    ...(options.judgeReply !== undefined ? { judgeReply: options.judgeReply } : {}),
    ...(options.queue !== undefined ? { queue: options.queue } : {}),
    ...(options.timers !== undefined ? { timers: options.timers } : {}),
    modelCalls: new CallLimiter(options.limits?.modelCalls ?? DEFAULT_MAX_MODEL_CALLS),
    maxRuns: options.limits?.runs ?? DEFAULT_MAX_RUNS,
  };
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  let allowed = allowedHostHeaders(options.host, options.port);
  const runs = new RunRegistry();
  const runIndexes = new RunIndexCache();
  const readSavedRunJson: SavedRunReader = options.readSavedRunJson ?? readSavedRunHere;
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(hostGuard(() => allowed));
  app.use((_request, response, next) => {
    response.set({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' });
    next();
  });

  const api = express.Router();
  api.use(sameOriginGuard);
  api.use(requireUtf8Body);
  api.use(express.json({ limit: JSON_LIMIT, strict: false }));

  api.get('/config', async (_request, response) => {
    response.json(await buildConfigResponse(context));
  });

  const refuseBeyondMaxRuns = (): void => {
    const inProgress = runs.all().filter((run) => !run.finished).length;
    if (inProgress >= context.maxRuns) {
      throw new ApiError(
        429,
        'E_TOO_MANY_RUNS',
        `${inProgress} runs are in progress, the most this server runs at once (serve --max-runs); start this one when one ends.`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
  };

  api.post('/run', async (request, response) => {
    refuseBeyondMaxRuns();
    const prepared = await prepareRun(request.body, context);
    // Again after the awaits: runs started meanwhile count, and nothing awaits between here and startRun.
    refuseBeyondMaxRuns();
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

  api.post('/run/:id/approvals/:approvalId', (request, response) => {
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
  });

  api.post('/run/:id/cancel', (request, response) => {
    const run = liveRunOf(runs, request);
    if (run.finished) throw new ApiError(409, 'E_RUN_FINISHED', `run "${run.runId}" has already ended.`);
    run.controller.abort();
    response.status(202).json({ runId: run.runId, status: 'cancelling' });
  });

  api.get('/runs', async (_request, response) => {
    const body: RunListResponse = { runs: await listSavedRuns(context.runsDir) };
    response.json(body);
  });

  api.get('/runs/:name', async (request, response) => {
    const name = String(request.params['name']);
    const view = viewOf(request);
    if (wantsJson(request)) {
      if (view === 'summary') {
        // The summary is computed once per file (run-index) and trimmed already: no worker needed.
        const { events, problems } = safeParseRunFileText((await readLeanRunBytes(runIndexes, context.runsDir, name, false, 'summary')).toString('utf8'), name);
        const body: SavedRunResponse = { name, view, events, problems };
        response.json(body);
      } else {
        response.type('application/json; charset=utf-8').send(await readSavedRunJson({ runsDir: context.runsDir, name, view }));
      }
      return;
    }
    response.set('X-Holdfast-View', view).type('application/x-ndjson; charset=utf-8');
    if (view === 'full') {
      response.send(await readRunText(context.runsDir, name));
      return;
    }
    const gzipped = request.acceptsEncodings('gzip', 'identity') === 'gzip';
    const bytes = await readLeanRunBytes(runIndexes, context.runsDir, name, gzipped, view);
    response.vary('Accept-Encoding');
    if (gzipped) response.set('Content-Encoding', 'gzip');
    response.send(bytes);
  });

  api.get('/runs/:name/rounds/:roundId', async (request, response) => {
    const name = String(request.params['name']);
    const roundId = String(request.params['roundId']);
    const body: RoundEventsResponse = { events: await readSavedRound(runIndexes, context.runsDir, name, roundId) };
    response.json(body);
  });

  api.get('/pressure', async (_request, response) => {
    const body: PressureListResponse = { files: await listPressureFiles(context.runsDir) };
    response.json(body);
  });

  api.get('/pressure/:name', async (request, response) => {
    response.json(await readPressureFile(context.runsDir, String(request.params['name'])));
  });

  api.use((request, _response, next) => next(new ApiError(404, 'E_NOT_FOUND', `no API route ${request.method} /api${request.path}.`)));

  app.use('/api', api);
  if (options.frontend !== undefined) app.use(options.frontend);

  app.use((error: unknown, _request: Request, response: Response, next: NextFunction) => {
    if (response.headersSent) {
      next(error);
      return;
    }
    if (error instanceof ApiError) return sendError(response, error.status, error.code, error.message, error.retryAfterSeconds);
    if (error instanceof InputError) return sendError(response, 400, error.code, error.message);
    const refusal = clientErrorOf(error, JSON_LIMIT);
    if (refusal !== undefined) return sendError(response, refusal.status, refusal.code, refusal.message);
    context.log(`holdfast serve: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    sendError(response, 500, 'E_INTERNAL', 'holdfast hit an internal error; the server log has the details.');
  });

  return {
    app,
    runs,
    setPort(port: number) {
      allowed = allowedHostHeaders(options.host, port);
    },
  };
}
