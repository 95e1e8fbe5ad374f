import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { writeAtomically } from './atomic-file.js';
import { childProcess } from './lazy-builtins.js';
import { spawnToEnd } from './spawn-sync.js';
import { HoldfastError } from '@holdfast/core/contract';
import { readJsonFile } from '@holdfast/core/command';

/** The post-check could not snapshot, diff or restore the work tree; the gate reports it and fails closed. */
export class SnapshotError extends HoldfastError {}

export interface GitOptions {
  readonly cwd: string;
  /** A git directory other than the one git would discover (the private snapshot store). */
  readonly gitDir?: string;
  readonly workTree?: string;
  readonly indexFile?: string;
  readonly input?: string | Buffer;
}

const MAX_BUFFER = 512 * 1024 * 1024;

/**
 * Git's environment without the caller's `GIT_*` variables: the hook may run inside a git hook (with
 * GIT_DIR and GIT_INDEX_FILE set) or under an agent that set GIT_CONFIG_* overrides, and none of that
 * may steer where the gate's own git commands read or write. Pathspecs are literal, messages in C.
 */
function gitEnvironment(options: GitOptions): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('GIT_')) environment[name] = value;
  }
  environment.GIT_TERMINAL_PROMPT = '0';
  environment.GIT_LITERAL_PATHSPECS = '1';
  environment.LC_ALL = 'C';
  // The user's and the system's ignore files (core.excludesFile, ~/.config/git/ignore) never hide a
  // file from the gate's listings: only the project's .gitignore files and the store's own list count.
  environment.GIT_CONFIG_COUNT = '1';
  environment.GIT_CONFIG_KEY_0 = 'core.excludesFile';
  environment.GIT_CONFIG_VALUE_0 = '/dev/null';
  if (options.gitDir !== undefined) environment.GIT_DIR = options.gitDir;
  if (options.workTree !== undefined) environment.GIT_WORK_TREE = options.workTree;
  if (options.indexFile !== undefined) environment.GIT_INDEX_FILE = options.indexFile;
  return environment;
}

export interface GitResult {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export function tryGit(args: readonly string[], options: GitOptions): GitResult {
  const result = spawnToEnd('git', args, { cwd: options.cwd, env: gitEnvironment(options), input: options.input, maxBuffer: MAX_BUFFER });
  if (result.error !== undefined) {
    throw new SnapshotError('E_SNAPSHOT_GIT', `git ${args[0] ?? ''} could not run (${result.error.message})`, { cause: result.error });
  }
  return { status: result.status, stdout: result.stdout, stderr: result.stderr.toString('utf8').trim() };
}

/**
 * Starts git with its output streamed (stdin and stdout piped, stderr kept for the error): for a
 * reader that must not hold a whole answer in memory (verify's one pass over a range). The same
 * environment as runGit, so whatever runGit refuses to let the repository steer, this does too.
 */
export function startGit(args: readonly string[], options: GitOptions): ChildProcessWithoutNullStreams {
  return childProcess().spawn('git', args, { cwd: options.cwd, env: gitEnvironment(options), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Starts git on its own (nothing waits for it, nothing reads its output); for housekeeping. */
export function startGitDetached(args: readonly string[], options: GitOptions): void {
  const child = childProcess().spawn('git', args, { cwd: options.cwd, env: gitEnvironment(options), detached: true, stdio: 'ignore' });
  child.on('error', () => undefined);
  child.unref();
}

/** Runs git and returns its stdout; a non-zero exit is a SnapshotError naming the command and git's message. */
export function runGit(args: readonly string[], options: GitOptions): Buffer {
  const result = tryGit(args, options);
  if (result.status !== 0) {
    throw new SnapshotError(
      'E_SNAPSHOT_GIT',
      `git ${args.slice(0, 2).join(' ')} failed (exit ${String(result.status)}): ${result.stderr.split('\n')[0] ?? ''}`,
    );
  }
  return result.stdout;
}

let available: boolean | undefined;

/** The git a command named `git` runs here (first on PATH), as path, size and time: what its version is remembered by. */
function gitIdentity(): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const file = join(folder, 'git');
    try {
      const stat = statSync(file);
      if (stat.isFile()) return `${file}\0${stat.size}\0${stat.mtimeMs}`;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** `git restore --pathspec-from-file` (2.26) is the newest thing the check relies on. */
const MINIMUM_GIT: readonly [number, number] = [2, 26];

/** Whether a `git version …` line is at least the version the post-check needs. */
export function gitVersionSupported(versionLine: string): boolean {
  const match = /git version (\d+)\.(\d+)/.exec(versionLine);
  if (match === null) return false;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  return major > MINIMUM_GIT[0] || (major === MINIMUM_GIT[0] && minor >= MINIMUM_GIT[1]);
}

/**
 * Whether the after-the-fact check can run here: it needs git 2.26 or later. When it cannot, the
 * PreToolUse side must refuse shell calls whose effects it cannot know before they run.
 */
export function postCheckAvailable(cacheFolder?: string): boolean {
  if (available !== undefined) return available;
  // Every hook is a new process: the answer is kept in holdfast's cache for as long as the same git is first on PATH.
  const identity = cacheFolder === undefined ? undefined : gitIdentity();
  const cacheFile = cacheFolder === undefined ? undefined : join(cacheFolder, 'git-version.json');
  if (identity !== undefined && cacheFile !== undefined) {
    // No answer kept yet, or one that cannot be read: ask git.
    const cached = readJsonFile(cacheFile) as { identity?: unknown; supported?: unknown } | null | undefined;
    if (cached?.identity === identity && typeof cached.supported === 'boolean') return (available = cached.supported);
  }
  const result = spawnToEnd('git', ['--version'], { env: process.env, maxBuffer: MAX_BUFFER });
  available = result.error === undefined && result.status === 0 && gitVersionSupported(result.stdout.toString('utf8'));
  if (identity !== undefined && cacheFile !== undefined && result.error === undefined) {
    try {
      mkdirSync(cacheFolder as string, { recursive: true });
      writeAtomically(cacheFile, `${JSON.stringify({ identity, supported: available })}\n`);
    } catch {
      // the cache is only a saving
    }
  }
  return available;
}
