import { randomBytes } from 'node:crypto';
import express from 'express';
import type { Express, RequestHandler } from 'express';
import type { Timers } from '@holdfast/core/contract';
import type { ReplyJudge } from '@holdfast/lab/experiment';
import type { QueueConnection } from '@holdfast/lab/scale';
import { ApiError } from './api-error.js';
import { apiErrorHandler } from './api-error-handler.js';
import { CallLimiter } from './call-limiter.js';
import { requireUtf8Body } from './client-error.js';
import { buildConfigResponse } from './config-response.js';
import { RunRegistry } from './live-run.js';
import { addPressureRoutes } from './pressure-routes.js';
import { RunIndexCache } from './run-index.js';
import { addRunRoutes } from './run-routes.js';
import { readSavedRunHere } from './saved-run-json.js';
import type { SavedRunReader } from './saved-run-json.js';
import { addSavedRunRoutes } from './saved-run-routes.js';
import { allowedHostHeaders, hostGuard, sameOriginGuard } from './security.js';
import type { ServerContext } from './server-context.js';

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

interface ServerLimits {
  readonly runs?: number;
  readonly modelCalls?: number;
}

const DEFAULT_MAX_RUNS = 4;
const DEFAULT_MAX_MODEL_CALLS = 8;

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

function contextOf(options: AppOptions): ServerContext {
  const now = options.now ?? (() => new Date());
  return {
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
}

/**
 * The API as an Express app, without a port, so every route is testable in-process. Security is
 * applied before any route: Host check for everything, same-origin JSON for every state change.
 */
export function createApp(options: AppOptions): HoldfastApp {
  const context = contextOf(options);
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
  addRunRoutes(api, context, runs, heartbeatMs);
  addSavedRunRoutes(api, context.runsDir, runIndexes, readSavedRunJson);
  addPressureRoutes(api, context.runsDir);
  api.use((request, _response, next) => next(new ApiError(404, 'E_NOT_FOUND', `no API route ${request.method} /api${request.path}.`)));

  app.use('/api', api);
  if (options.frontend !== undefined) app.use(options.frontend);
  app.use(apiErrorHandler(context.log, JSON_LIMIT));

  return {
    app,
    runs,
    setPort(port: number) {
      allowed = allowedHostHeaders(options.host, port);
    },
  };
}
