import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Arm, ArmResult, Rulebook, TaskInfo } from '../contract/index.js';
import { buildBaseRepo } from './base-repo.js';
import type { BaseRepo } from './base-repo.js';
import { sandboxAllowlist } from './command.js';
import { SandboxError } from './errors.js';
import { git } from './git.js';
import { detectIsolation } from './isolation.js';
import type { Isolation, IsolationMode } from './isolation.js';
import { DEFAULT_DIFF_CAP_BYTES, DEFAULT_OUTPUT_CAP_BYTES, landArm } from './land.js';
import { detachSandbox, materialiseSandbox, removeSandbox } from './materialise.js';
import type { SandboxRepo } from './materialise.js';

export interface SandboxManagerOptions {
  readonly rulebook: Rulebook;
  /** Where the run's repositories live; default: memory-backed /dev/shm when writable, else the temp folder. */
  readonly parentDir?: string;
  /** Keep each arm's repository under this folder instead of removing it when the round ends. */
  readonly keepDir?: string;
  readonly isolation?: IsolationMode;
  readonly commandTimeoutMs?: number;
  readonly outputCapBytes?: number;
  readonly diffCapBytes?: number;
}

export interface LandRequest {
  readonly task: TaskInfo;
  readonly roundId: string;
  readonly arm: Arm;
  readonly result: ArmResult;
  readonly signal?: AbortSignal;
}

export interface SandboxManager {
  readonly root: string;
  readonly isolation: Isolation;
  /** Builds the arm's repository, lands the result's applied actions, and removes (or keeps) it. */
  land(request: LandRequest): Promise<ArmResult>;
  /** Sandboxes that exist right now (0 between rounds unless kept). */
  liveCount(): number;
  /** Removes everything the run made; safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Disposable repositories are small and many, so memory is the natural home: on tmpfs the hard
 * links and the few git files cost microseconds, on a busy disk each costs a journal write.
 */
export function defaultSandboxParent(): string {
  const shm = '/dev/shm';
  try {
    if (statSync(shm).isDirectory()) {
      accessSync(shm, constants.W_OK);
      return shm;
    }
  } catch {
    // no /dev/shm here
  }
  return tmpdir();
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
}

const liveRoots = new Set<string>();
let exitHookInstalled = false;

/** A second Ctrl-C or an uncaught error ends the process without our finally blocks: remove what is left then. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const root of liveRoots) rmSync(root, { recursive: true, force: true });
  });
}

export async function createSandboxManager(options: SandboxManagerOptions): Promise<SandboxManager> {
  const isolation = await detectIsolation(options.isolation ?? 'auto');
  const parent = options.parentDir ?? defaultSandboxParent();
  mkdirSync(parent, { recursive: true });
  const root = realpathSync(mkdtempSync(join(parent, 'holdfast-sandboxes-')));
  liveRoots.add(root);
  installExitHook();
  const allowlist = sandboxAllowlist(options.rulebook);
  const commandTimeoutMs = options.commandTimeoutMs ?? (options.rulebook.sandbox?.timeoutSeconds ?? 60) * 1000;
  const bases = new Map<string, Promise<BaseRepo>>();
  const live = new Set<string>();
  let counter = 0;
  let disposed = false;

  function baseFor(task: TaskInfo): Promise<BaseRepo> {
    let base = bases.get(task.id);
    if (base === undefined) {
      base = buildBaseRepo(join(root, 'bases', safeName(task.id)), task);
      bases.set(task.id, base);
    }
    return base;
  }

  async function keep(repo: SandboxRepo, roundId: string, arm: Arm): Promise<string> {
    const destination = resolve(options.keepDir!, safeName(roundId), arm);
    if (existsSync(destination)) throw new SandboxError('E_SANDBOX_KEEP', `cannot keep the sandbox: ${destination} already exists.`);
    detachSandbox(repo);
    const location = { gitDir: repo.gitDir, workTree: repo.workDir };
    // Copy the borrowed objects in, so the kept repository outlives this run's base.
    await git(location, ['repack', '-a', '-d', '-q']);
    rmSync(join(repo.gitDir, 'objects', 'info', 'alternates'), { force: true });
    mkdirSync(resolve(destination, '..'), { recursive: true });
    await cp(repo.workDir, destination, { recursive: true, verbatimSymlinks: true });
    await cp(repo.gitDir, join(destination, '.git'), { recursive: true });
    writeFileSync(join(destination, '.git', 'description'), `holdfast sandbox ${roundId} (${arm} arm)\n`);
    return destination;
  }

  return {
    root,
    isolation,
    liveCount: () => live.size,
    async land(request) {
      if (disposed) throw new SandboxError('E_SANDBOX_SETUP', 'the sandboxes of this run were already removed.');
      if (request.result.actions.length === 0) return request.result;
      const base = await baseFor(request.task);
      counter += 1;
      const dir = join(root, 'rounds', `${counter}-${safeName(request.roundId)}-${request.arm}`);
      live.add(dir);
      try {
        const repo = materialiseSandbox(base, dir);
        const landed = await landArm(repo, request.result, {
          isolation,
          allowlist,
          commandTimeoutMs,
          outputCapBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
          diffCapBytes: options.diffCapBytes ?? DEFAULT_DIFF_CAP_BYTES,
          ...(request.signal !== undefined ? { signal: request.signal } : {}),
        });
        if (options.keepDir === undefined || landed.sandbox === undefined) return landed;
        return { ...landed, sandbox: { ...landed.sandbox, keptAt: await keep(repo, request.roundId, request.arm) } };
      } finally {
        removeSandbox(dir);
        live.delete(dir);
      }
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await Promise.allSettled([...bases.values()]);
      await rm(root, { recursive: true, force: true, maxRetries: 2 });
      liveRoots.delete(root);
    },
  };
}

