import type { ReplyJudge } from '@holdfast/lab/experiment';
import type { QueueConnection } from '@holdfast/lab/scale';
import type { Timers } from '@holdfast/core/contract';
import type { CallLimiter } from './call-limiter.js';

/** What the API needs of the outside world; tests pass their own clock, ids and folders. */
export interface ServerContext {
  /** Where holdfast.config.yaml and .env are read. */
  readonly cwd: string;
  /** Where run files are written and listed. */
  readonly runsDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  /** What approval deadlines run on; the real timers when absent. */
  readonly timers?: Timers;
  /** A fresh run id. */
  readonly generateId: () => string;
  /** A fresh approval token: secret, unguessable. */
  readonly generateToken: () => string;
  /** The task fixtures; the shipped tasks/ when absent. */
  readonly tasksDir?: string;
  /** The rulebook of live runs; the shipped default when absent. */
  readonly rulebookPath?: string;
  /** How long GET /api/config waits for each target's reachability probe. */
  readonly probeTimeoutMs: number;
  /** The saved run the app opens first (the shipped example), if any. */
  readonly defaultRun?: string;
  /** Server-side diagnostics (a run that crashed); never sent to the browser. */
  readonly log: (line: string) => void;
  /** Reads and checks live runs' replies off the event loop (worker threads); this thread when absent. */
  readonly judgeReply?: ReplyJudge;
  /** Every model call of every run this server starts goes through it. */
  readonly modelCalls: CallLimiter;
  /** Runs that may be in progress at once; one more is answered 429. */
  readonly maxRuns: number;
  /** `serve --queue`: runs started here queue their rounds for `holdfast worker` processes instead of playing them. */
  readonly queue?: QueueConnection;
}
