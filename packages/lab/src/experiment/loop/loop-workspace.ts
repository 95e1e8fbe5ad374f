import type { Pattern } from '@holdfast/core/rules';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CappedText, Rulebook, SandboxResult, TaskCheck, TaskInfo } from '@holdfast/core/contract';
import {
  buildBaseRepo,
  capText,
  commandEnding,
  confinePath,
  createSizeBudget,
  DEFAULT_SANDBOX_MAX_BYTES,
  decideCommand,
  detachSandbox,
  diffAgainstBase,
  materialiseSandbox,
  removeSandbox,
  resolveIsolation,
  runAcceptance,
  runSandboxCommand,
  sandboxAllowlist,
} from '../../sandbox/index.js';
import type { Acceptance, BaseRepo, Isolation, IsolationRequest, SandboxRepo, SizeBudget } from '../../sandbox/index.js';
import { repoGit } from '../session/repo-git.js';
import type { RepoLocation } from '../session/repo-git.js';

/**
 * What a file operation did: done, or why not (a path that escapes the repository, a missing file).
 * `overCap` marks a write refused because the work tree would pass its size cap.
 */
type FileOutcome = { readonly ok: true; readonly detail: string } | { readonly ok: false; readonly reason: string; readonly overCap?: true };

export interface CommandOutcome {
  readonly executed: boolean;
  /** Why it was not executed, or how it ended. */
  readonly detail: string;
  readonly exitCode?: number;
  readonly signal?: string;
  readonly timedOut?: boolean;
  readonly output: CappedText;
  readonly durationMs?: number;
  /** The command left the work tree over its size cap: the reason, naming the cap. */
  readonly overCap?: string;
}

/**
 * The git repository one loop arm works in, made from the task's files. Every file operation is
 * confined to the work tree (symlinks resolved, `.git` refused); commands run through the sandbox's
 * command runner, allowlisted, with the isolation the run found.
 */
export interface LoopWorkspace {
  readonly location: RepoLocation;
  readonly baseCommit: string;
  /** Paths of the task's files: what the agent found in the repository. */
  readonly baseFiles: ReadonlySet<string>;
  readonly isolation: Isolation;
  readFile(path: string): { readonly ok: true; readonly content: string } | { readonly ok: false; readonly reason: string };
  exists(path: string): boolean;
  listFiles(folder: string | undefined): FileOutcome & { readonly files?: readonly string[] };
  writeFile(path: string, content: string): FileOutcome;
  deleteFile(path: string): FileOutcome;
  runCommand(command: string, signal?: AbortSignal): Promise<CommandOutcome>;
  /**
   * The task's hidden acceptance check, added and run as plan and agent mode run it: holdfast's own
   * command, confined like every sandbox command, never subject to the model's allowlist.
   */
  runAcceptance(acceptance: Acceptance, signal?: AbortSignal): Promise<TaskCheck>;
  commit(message: string): Promise<{ readonly ok: true; readonly hash: string } | { readonly ok: false; readonly reason: string }>;
  /** Everything that landed in the tree, committed or not, against the base commit. */
  diff(): Promise<Pick<SandboxResult, 'diff' | 'changedPaths'>>;
}

export interface LoopWorkspacesOptions {
  readonly rulebook: Rulebook;
  readonly isolation: Isolation;
  /** Where the run's repositories are made; default: the system's temp folder. */
  readonly parentDir?: string;
  readonly commandTimeoutMs?: number;
  readonly outputCapBytes?: number;
  readonly diffCapBytes?: number;
  /** What each arm's work tree may hold, in bytes (default DEFAULT_SANDBOX_MAX_BYTES). */
  readonly maxBytes?: number;
  /**
   * A node_modules folder installed for a task's repository (`--node-modules`): snapshotted once per
   * task and linked into every arm, read-only to its commands and its acceptance check, as in plan mode.
   */
  readonly nodeModules?: (taskId: string) => string | undefined;
}

/** The isolation still to settle: a mode to detect or a detected one, and whether none will do. */
export type LoopWorkspacesRequest = Omit<LoopWorkspacesOptions, 'isolation'> & IsolationRequest;

export interface LoopWorkspaces {
  readonly isolation: Isolation;
  /** A fresh repository for one arm; `release` removes it. */
  open(task: TaskInfo, label: string): Promise<{ workspace: LoopWorkspace; release: () => void }>;
  dispose(): Promise<void>;
}

const OUTPUT_CAP_BYTES = 16 * 1024;
const DIFF_CAP_BYTES = 256 * 1024;
const LIST_LIMIT = 500;

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function walk(root: string, folder: string, into: string[]): void {
  let entries;
  try {
    entries = readdirSync(join(root, folder), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((left, right) => (left.name < right.name ? -1 : 1))) {
    if (into.length >= LIST_LIMIT) return;
    const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      walk(root, relative, into);
    } else {
      into.push(relative);
    }
  }
}

type WorkspaceSettings = LoopWorkspacesOptions & { readonly allowlist: readonly Pick<Pattern, 'test'>[]; readonly commandTimeoutMs: number };

function workspaceOf(repo: SandboxRepo, options: WorkspaceSettings): LoopWorkspace {
  const root = repo.workDir;
  const location: RepoLocation = { workTree: root, gitDir: repo.gitDir };
  const outputCap = options.outputCapBytes ?? OUTPUT_CAP_BYTES;
  const budget = createSizeBudget(root, options.maxBytes ?? DEFAULT_SANDBOX_MAX_BYTES);
  return {
    location,
    baseCommit: repo.base.commit,
    baseFiles: new Set(repo.base.files),
    isolation: options.isolation,
    readFile: (path) => readFileIn(root, path),
    exists: (path) => existsIn(root, path),
    listFiles: (folder) => listFilesIn(root, folder),
    writeFile: (path, content) => writeFileIn(root, path, content, budget),
    deleteFile: (path) => deleteFileIn(root, path, budget),
    async runCommand(command, signal) {
      const decision = decideCommand(command, options.allowlist);
      if (!decision.execute) return { executed: false, detail: decision.reason, output: capText(decision.reason, outputCap) };
      return execute(repo, options, decision.argv, signal, budget);
    },
    runAcceptance(acceptance, signal) {
      return runAcceptance({
        acceptance,
        workDir: root,
        homeDir: repo.homeDir,
        hidden: repo.hidden,
        isolation: options.isolation,
        timeoutMs: options.commandTimeoutMs,
        ...(repo.base.nodeModules !== undefined ? { readable: [repo.base.nodeModules] } : {}),
        ...(signal !== undefined ? { signal } : {}),
      });
    },
    commit: (text) => commitIn(location, text),
    async diff() {
      return diffAgainstBase(repo, options.diffCapBytes ?? DIFF_CAP_BYTES);
    },
  };
}

async function execute(
  repo: SandboxRepo,
  options: WorkspaceSettings,
  argv: readonly string[],
  signal: AbortSignal | undefined,
  budget: SizeBudget,
): Promise<CommandOutcome> {
  const run = await runSandboxCommand({
    argv,
    cwd: repo.workDir,
    homeDir: repo.homeDir,
    hidden: repo.hidden,
    isolation: options.isolation,
    timeoutMs: options.commandTimeoutMs,
    outputCapBytes: options.outputCapBytes ?? OUTPUT_CAP_BYTES,
    ...(repo.base.nodeModules !== undefined ? { readable: [repo.base.nodeModules] } : {}),
    ...(signal !== undefined ? { signal } : {}),
  });
  if (run.spawnError !== undefined) return { executed: false, detail: `Could not start: ${run.spawnError}.`, output: run.output, durationMs: run.durationMs };
  const { detail, overCap } = commandEnding(run, options.commandTimeoutMs, budget);
  return {
    executed: true,
    detail,
    ...(overCap !== undefined ? { overCap } : {}),
    ...(run.exitCode !== undefined ? { exitCode: run.exitCode } : {}),
    ...(run.signal !== undefined ? { signal: run.signal } : {}),
    timedOut: run.timedOut,
    output: run.output,
    durationMs: run.durationMs,
  };
}

function readFileIn(root: string, path: string): ReturnType<LoopWorkspace['readFile']> {
  const confined = confinePath(root, path);
  if (!confined.ok) return { ok: false, reason: confined.reason };
  try {
    if (!lstatSync(confined.absolute).isFile()) return { ok: false, reason: `${confined.relative} is not a file` };
    return { ok: true, content: readFileSync(confined.absolute, 'utf8') };
  } catch {
    return { ok: false, reason: `${confined.relative} does not exist` };
  }
}

function existsIn(root: string, path: string): boolean {
  const confined = confinePath(root, path);
  return confined.ok && lstatSync(confined.absolute, { throwIfNoEntry: false })?.isFile() === true;
}

function listFilesIn(root: string, folder: string | undefined): ReturnType<LoopWorkspace['listFiles']> {
  if (folder !== undefined && folder !== '.' && folder !== '') {
    const confined = confinePath(root, folder.replace(/\/+$/, ''));
    if (!confined.ok) return { ok: false, reason: confined.reason };
    const files: string[] = [];
    walk(root, confined.relative, files);
    return { ok: true, detail: `${files.length} files`, files };
  }
  const files: string[] = [];
  walk(root, '', files);
  return { ok: true, detail: `${files.length} files`, files };
}

function writeFileIn(root: string, path: string, content: string, budget: SizeBudget): FileOutcome {
  const confined = confinePath(root, path);
  if (!confined.ok) return { ok: false, reason: confined.reason };
  try {
    if (lstatSync(confined.absolute, { throwIfNoEntry: false })?.isDirectory() === true) return { ok: false, reason: `${confined.relative} is a folder` };
    const admitted = budget.admitWrite(confined.relative, Buffer.byteLength(content));
    if (!admitted.ok) return { ok: false, reason: admitted.reason, overCap: true };
    mkdirSync(dirname(confined.absolute), { recursive: true });
    // Write beside and rename, so a file that is a hard link is replaced, never written through.
    const temporary = `${confined.absolute}.holdfast-write`;
    rmSync(temporary, { force: true });
    writeFileSync(temporary, content, { mode: 0o644, flag: 'wx' });
    renameSync(temporary, confined.absolute);
    return { ok: true, detail: `Wrote ${confined.relative} (${Buffer.byteLength(content)} bytes).` };
  } catch (error) {
    return { ok: false, reason: message(error) };
  }
}

function deleteFileIn(root: string, path: string, budget: SizeBudget): FileOutcome {
  const confined = confinePath(root, path);
  if (!confined.ok) return { ok: false, reason: confined.reason };
  const stats = lstatSync(confined.absolute, { throwIfNoEntry: false });
  if (stats === undefined) return { ok: false, reason: `${confined.relative} does not exist` };
  if (stats.isDirectory()) return { ok: false, reason: `${confined.relative} is a folder` };
  budget.forget(confined.relative);
  rmSync(confined.absolute, { force: true });
  return { ok: true, detail: `Deleted ${confined.relative}.` };
}

async function commitIn(location: RepoLocation, text: string): ReturnType<LoopWorkspace['commit']> {
  try {
    await repoGit(location, ['add', '--all']);
    const staged = await repoGit(location, ['diff', '--cached', '--name-only']);
    if (staged.trim() === '') return { ok: false, reason: 'nothing to commit: the work tree has no change since the last commit' };
    await repoGit(location, ['commit', '--quiet', '--no-verify', '--cleanup=verbatim', '-m', text]);
    return { ok: true, hash: (await repoGit(location, ['rev-parse', 'HEAD'])).trim() };
  } catch (error) {
    return { ok: false, reason: message(error) };
  }
}

/**
 * One base repository per task, built once per run; each arm gets its own repository made from it,
 * with its own copy of every file (a model's commands may write anywhere in the tree).
 */
export function createLoopWorkspaces(options: LoopWorkspacesOptions): LoopWorkspaces {
  const root = realpathSync(mkdtempSync(join(options.parentDir ?? tmpdir(), 'holdfast-loop-')));
  const allowlist = sandboxAllowlist(options.rulebook);
  const commandTimeoutMs = options.commandTimeoutMs ?? (options.rulebook.sandbox?.timeoutSeconds ?? 60) * 1000;
  const bases = new Map<string, Promise<BaseRepo>>();
  let counter = 0;
  return {
    isolation: options.isolation,
    async open(task, label) {
      let base = bases.get(task.id);
      if (base === undefined) {
        const nodeModules = options.nodeModules?.(task.id);
        base = buildBaseRepo(join(root, 'bases', safeName(task.id)), task, nodeModules !== undefined ? { nodeModules } : {});
        bases.set(task.id, base);
      }
      counter += 1;
      const dir = join(root, 'arms', `${counter}-${safeName(label)}`);
      const built = await base;
      const repo = materialiseSandbox(built, dir);
      detachSandbox(repo);
      return { workspace: workspaceOf(repo, { ...options, allowlist, commandTimeoutMs }), release: () => removeSandbox(built, dir) };
    },
    async dispose() {
      await Promise.allSettled([...bases.values()]);
      await rm(root, { recursive: true, force: true, maxRetries: 2 });
    },
  };
}

/** A loop-mode run's workspaces, opened only once its isolation is settled: none, unless the person said so, is a refusal. */
export async function openLoopWorkspaces(options: LoopWorkspacesRequest): Promise<LoopWorkspaces> {
  return createLoopWorkspaces({ ...options, isolation: await resolveIsolation(options) });
}
