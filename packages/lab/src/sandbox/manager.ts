import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LandRequest, Rulebook, SandboxResult, TaskCheck, TaskInfo } from '@holdfast/core/contract';
import { runAcceptance } from './acceptance.js';
import { buildBaseRepo } from './base-repo.js';
import type { BaseRepo } from './base-repo.js';
import { sandboxAllowlist } from './command.js';
import type { CommandDeadline } from './command.js';
import { SandboxError } from './errors.js';
import { detectIsolation, INSTALL_HINT } from './isolation.js';
import type { Isolation, IsolationMode } from './isolation.js';
import { DEFAULT_DIFF_CAP_BYTES, DEFAULT_OUTPUT_CAP_BYTES, landArm } from './land.js';
import type { SandboxLanding } from './land.js';
import { dependencyMounts, detachSandbox, materialiseSandbox, removeSandbox } from './materialise.js';
import { markOwner, removeLeftovers } from './leftovers.js';
import { removeTree } from './remove-tree.js';
import type { SandboxRepo } from './materialise.js';
import { keepSandbox } from './keep-sandbox.js';
import { safeName } from './safe-name.js';

/** The isolation a caller asks for: a mode to detect, or what it already detected, and whether none will do. */
export interface IsolationRequest {
  /** A mode to detect, or what the caller already detected (the CLI probes once to report it before the run). */
  readonly isolation?: IsolationMode | Isolation;
  /**
   * Without isolation, nothing that runs model-written commands agrees to exist: they would run as
   * the person, with their files, keys and network. Only `--unsafe-no-isolation` sets this.
   */
  readonly allowUnisolated?: boolean;
}

export interface SandboxManagerOptions extends IsolationRequest {
  readonly rulebook: Rulebook;
  /** Where the run's repositories live; default: the temp folder, on disk (see defaultSandboxParent). */
  readonly parentDir?: string;
  /** Keep each arm's repository under this folder instead of removing it when the round ends. */
  readonly keepDir?: string;
  /** A node_modules folder installed for a task's repository, by task id: snapshotted once per task. */
  readonly nodeModules?: (taskId: string) => string | undefined;
  /** The repository a task was made from, by task id: its installed node_modules/.venv folders are bound read-only into every arm. */
  readonly installedIn?: (taskId: string) => string | undefined;
  readonly commandTimeoutMs?: number;
  /** When a command's time is up (default: a timer of commandTimeoutMs). */
  readonly commandDeadline?: CommandDeadline;
  readonly outputCapBytes?: number;
  readonly diffCapBytes?: number;
  /** What each arm's work tree may hold, in bytes (default DEFAULT_SANDBOX_MAX_BYTES). */
  readonly maxBytes?: number;
}

export interface SandboxManager {
  readonly root: string;
  readonly isolation: Isolation;
  /**
   * Builds the arm's worktree, lands the result's applied actions, and removes (or keeps) it.
   * Never throws for what the model did: a file-system error comes back as `failure`.
   */
  land(request: LandRequest): Promise<SandboxLanding>;
  /** Sandboxes that exist right now (0 between rounds unless kept). */
  liveCount(): number;
  /** Removes everything the run made; safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * On disk, in the temp folder: a model that writes gigabytes must fill a disk, not the machine's
 * memory (/dev/shm has no cap of its own and counts against RAM). Point TMPDIR (or `parentDir`)
 * at a tmpfs to ask for memory-backed sandboxes.
 */
export function defaultSandboxParent(): string {
  return tmpdir();
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('E_') ? code : 'E_SANDBOX_FS';
}

const liveRoots = new Set<string>();
let exitHookInstalled = false;

/** A second Ctrl-C or an uncaught error ends the process without our finally blocks: remove what is left then. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const root of liveRoots) removeTree(root);
  });
}

/** The refusal when nothing can confine model-written commands here, naming what to install. */
export function isolationRefusal(isolation: Isolation): SandboxError {
  return new SandboxError(
    'E_SANDBOX_ISOLATION',
    `refusing to run model-written commands without isolation: ${isolation.detail}. To isolate them, ${INSTALL_HINT}. To run them unisolated anyway, as you, with your files, keys and network, pass --unsafe-no-isolation.`,
  );
}

/**
 * The isolation model-written commands will run under: what the caller detected, or detected here
 * (`none` when only `--unsafe-no-isolation` was given). Without isolation, and without the person's
 * say-so, this refuses: every mode that runs commands asks here before anything is written.
 */
export async function resolveIsolation(request: IsolationRequest): Promise<Isolation> {
  const isolation =
    typeof request.isolation === 'object'
      ? request.isolation
      : await detectIsolation(request.isolation ?? (request.allowUnisolated === true ? 'none' : 'auto'));
  if (isolation.kind === 'none' && request.allowUnisolated !== true) throw isolationRefusal(isolation);
  return isolation;
}

/** One run's sandboxes: what every landing shares (the bases per task, the untouched checks, the live repositories). */
interface RunSandboxes {
  readonly root: string;
  readonly isolation: Isolation;
  readonly options: SandboxManagerOptions;
  readonly allowlist: ReturnType<typeof sandboxAllowlist>;
  readonly commandTimeoutMs: number;
  readonly bases: Map<string, Promise<BaseRepo>>;
  readonly untouchedChecks: Map<string, Promise<TaskCheck>>;
  readonly live: Set<string>;
  counter: number;
}

/**
 * Opens a run's sandboxes under a fresh root (removing what a crashed run left), refusing without
 * isolation. Each arm lands in a repository of its own made from the task's base, removed or kept
 * when the arm ends.
 */
export async function createSandboxManager(options: SandboxManagerOptions): Promise<SandboxManager> {
  const isolation = await resolveIsolation(options);
  const parent = options.parentDir ?? defaultSandboxParent();
  mkdirSync(parent, { recursive: true });
  removeLeftovers(parent, 'holdfast-sandboxes-');
  const root = realpathSync(mkdtempSync(join(parent, 'holdfast-sandboxes-')));
  markOwner(root);
  liveRoots.add(root);
  installExitHook();
  const sandboxes: RunSandboxes = {
    root,
    isolation,
    options,
    allowlist: sandboxAllowlist(options.rulebook),
    commandTimeoutMs: options.commandTimeoutMs ?? (options.rulebook.sandbox?.timeoutSeconds ?? 60) * 1000,
    bases: new Map(),
    untouchedChecks: new Map(),
    live: new Set(),
    counter: 0,
  };
  let disposed = false;
  return {
    root,
    isolation,
    liveCount: () => sandboxes.live.size,
    async land(request) {
      if (disposed) throw new SandboxError('E_SANDBOX_SETUP', 'the sandboxes of this run were already removed.');
      if (request.result.actions.length === 0) return landNothing(sandboxes, request);
      return landActions(sandboxes, request);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await Promise.allSettled([...sandboxes.bases.values()]);
      removeTree(root);
      liveRoots.delete(root);
    },
  };
}

function baseFor(sandboxes: RunSandboxes, task: TaskInfo): Promise<BaseRepo> {
  let base = sandboxes.bases.get(task.id);
  if (base === undefined) {
    const nodeModules = sandboxes.options.nodeModules?.(task.id);
    const installedIn = sandboxes.options.installedIn?.(task.id);
    base = buildBaseRepo(join(sandboxes.root, 'bases', safeName(task.id)), task, {
      ...(nodeModules !== undefined ? { nodeModules } : {}),
      ...(installedIn !== undefined ? { installedIn } : {}),
    });
    sandboxes.bases.set(task.id, base);
  }
  return base;
}

/** A new round folder under the run's root; numbered, so two landings never share one. */
function nextRoundDir(sandboxes: RunSandboxes, name: string): string {
  sandboxes.counter += 1;
  return join(sandboxes.root, 'rounds', `${sandboxes.counter}-${name}`);
}

/** The task's acceptance check in the arm's repository as it was left; holdfast's command, so no allowlist. */
function acceptanceIn(sandboxes: RunSandboxes, repo: SandboxRepo, acceptance: NonNullable<TaskInfo['acceptance']>, signal?: AbortSignal): Promise<TaskCheck> {
  // The hidden tests are written and a command runs: nothing may still be shared with the base.
  detachSandbox(repo);
  return runAcceptance({
    acceptance,
    workDir: repo.workDir,
    homeDir: repo.homeDir,
    hidden: repo.hidden,
    isolation: sandboxes.isolation,
    timeoutMs: sandboxes.commandTimeoutMs,
    ...(repo.base.nodeModules !== undefined ? { readable: [repo.base.nodeModules] } : {}),
    ...dependencyMounts(repo),
    ...(sandboxes.options.commandDeadline !== undefined ? { deadline: sandboxes.options.commandDeadline } : {}),
    ...(signal !== undefined ? { signal } : {}),
  });
}

/**
 * An arm that landed nothing left the base as it is: its acceptance check is the untouched
 * repository's, run once per task in a repository of its own, so such an arm is judged (not
 * done), never left out of the done rate.
 */
function untouchedCheck(sandboxes: RunSandboxes, task: TaskInfo, base: BaseRepo, acceptance: NonNullable<TaskInfo['acceptance']>): Promise<TaskCheck> {
  let check = sandboxes.untouchedChecks.get(task.id);
  if (check === undefined) {
    const dir = nextRoundDir(sandboxes, `${safeName(task.id)}-untouched`);
    sandboxes.live.add(dir);
    check = (async () => {
      try {
        return await acceptanceIn(sandboxes, materialiseSandbox(base, dir), acceptance);
      } finally {
        removeSandbox(base, dir);
        sandboxes.live.delete(dir);
      }
    })();
    sandboxes.untouchedChecks.set(task.id, check);
  }
  return check;
}

async function landNothing(sandboxes: RunSandboxes, request: LandRequest): Promise<SandboxLanding> {
  const acceptance = request.task.acceptance;
  if (acceptance === undefined || request.result.verdict === 'error' || request.signal?.aborted === true) return { result: request.result };
  let base: BaseRepo;
  let taskDone: TaskCheck;
  try {
    base = await baseFor(sandboxes, request.task);
    taskDone = await untouchedCheck(sandboxes, request.task, base, acceptance);
  } catch {
    // Not judged: the untouched repository could not be built or checked.
    return { result: request.result };
  }
  const sandbox: SandboxResult = {
    isolation: sandboxes.isolation.kind,
    isolationDetail: sandboxes.isolation.detail,
    baseCommit: base.commit,
    commits: [],
    diff: { text: '', truncated: false, bytes: 0 },
    changedPaths: [],
    commands: [],
    refusedWrites: [],
    taskDone: {
      ...taskDone,
      detail: `nothing landed, so this is the untouched repository's result${taskDone.detail !== undefined ? `: ${taskDone.detail}` : ''}`,
    },
  };
  return { result: { ...request.result, sandbox } };
}

/** Lands an arm's actions in a repository of its own, keeps it when asked, then judges done on what landed. */
async function landActions(sandboxes: RunSandboxes, request: LandRequest): Promise<SandboxLanding> {
  const { options } = sandboxes;
  const dir = nextRoundDir(sandboxes, `${safeName(request.roundId)}-${request.arm}`);
  let base: BaseRepo;
  try {
    base = await baseFor(sandboxes, request.task);
  } catch (error) {
    return { result: request.result, failure: { code: codeOf(error), message: error instanceof Error ? error.message : String(error) } };
  }
  sandboxes.live.add(dir);
  try {
    let repo: SandboxRepo;
    try {
      repo = materialiseSandbox(base, dir);
    } catch (error) {
      return { result: request.result, failure: { code: codeOf(error), message: error instanceof Error ? error.message : String(error) } };
    }
    const landing = await landArm(repo, request.result, {
      isolation: sandboxes.isolation,
      allowlist: sandboxes.allowlist,
      commandTimeoutMs: sandboxes.commandTimeoutMs,
      ...(options.commandDeadline !== undefined ? { commandDeadline: options.commandDeadline } : {}),
      outputCapBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
      diffCapBytes: options.diffCapBytes ?? DEFAULT_DIFF_CAP_BYTES,
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      ...(request.signal !== undefined ? { signal: request.signal } : {}),
      ...(request.recheck !== undefined ? { recheck: request.recheck } : {}),
    });
    const sandbox = landing.result.sandbox;
    if (sandbox === undefined) return landing;
    // An arm whose landing failed is kept too: it is the one a reviewer most needs to open.
    let keptAt: string | undefined;
    if (options.keepDir !== undefined) {
      try {
        keptAt = await keepSandbox(options.keepDir, repo, request.roundId, request.arm);
      } catch (error) {
        if (landing.failure === undefined) throw error;
      }
    }
    // Done is judged on what landed, after the arm; a landing that failed (or a cancelled run) is not judged.
    const acceptance = request.task.acceptance;
    const judged = acceptance !== undefined && landing.failure === undefined && request.signal?.aborted !== true;
    const taskDone = judged ? await acceptanceIn(sandboxes, repo, acceptance, request.signal) : undefined;
    if (keptAt === undefined && taskDone === undefined) return landing;
    return {
      ...landing,
      result: { ...landing.result, sandbox: { ...sandbox, ...(keptAt !== undefined ? { keptAt } : {}), ...(taskDone !== undefined ? { taskDone } : {}) } },
    };
  } finally {
    removeSandbox(base, dir);
    sandboxes.live.delete(dir);
  }
}

/**
 * What a composition root (the CLI, the server, a queue worker) hands the runner as its lander
 * opener: a sandbox manager per run, made from that run's rulebook.
 */
export function sandboxLander(options: Omit<SandboxManagerOptions, 'rulebook'>): (rulebook: Rulebook) => Promise<SandboxManager> {
  return (rulebook) => createSandboxManager({ ...options, rulebook });
}
