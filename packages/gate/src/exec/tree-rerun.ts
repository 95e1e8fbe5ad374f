import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tryGit } from '../io/index.js';
import { childProcess, nodeOs } from '../io/index.js';
import { confinedEnvironment, confinementArgs, credentialPlaces } from './containment.js';
import type { ConfinementPolicy } from './containment.js';

/** How a command the gate ran itself on a tree ended: it passed (exit 0), failed, or could not be run there at all. */
export type TreeRunOutcome =
  | { readonly kind: 'passed' }
  | { readonly kind: 'failed'; readonly ending: string; readonly outputTail: string }
  | { readonly kind: 'not-run'; readonly why: string };

/**
 * Starts the clock on a re-run: calls `expire` when its time is up and returns what stops the clock.
 * The same shape as a sandbox command's deadline (lab's CommandDeadline); a test passes one that
 * expires when the command has shown it runs, so "killed at the timeout" races no clock.
 */
export type TreeRunDeadline = (expire: () => void, command: { readonly cwd: string; readonly timeoutMs: number }) => () => void;

const timerDeadline: TreeRunDeadline = (expire, command) => {
  const timer = setTimeout(expire, command.timeoutMs);
  return () => clearTimeout(timer);
};

const TAIL_BYTES = 4096;

export interface TreeRunOptions {
  /** The project: the copy is mounted at its path, and its ignored files (dependencies) are bound read-only into it. */
  readonly root: string;
  /** The repository holding `tree` (the gate's snapshot store, or the project's own); the project's when absent. */
  readonly gitDir?: string;
  /** A tree object id: exactly what the copy holds. */
  readonly tree: string;
  /** The command line, run by /bin/sh in the copy's root. */
  readonly command: string;
  readonly bwrap: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly deadline?: TreeRunDeadline;
  /** Ends the run early (the hook's own deadline passed): then it did not pass. */
  readonly signal?: AbortSignal;
}

/**
 * The project's ignored files and folders (git collapses a wholly ignored folder), relative to its
 * root, that the copied tree's own ignore rules ignore too: the list is read from the live project,
 * which the agent can change while it is read, so a path is bound only when the tree itself says it
 * is not part of it. `node_modules` always (the tree's identity leaves it out).
 */
function ignoredPaths(root: string, copy: string, gitDir: string | undefined): string[] {
  const listed = tryGit(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], { cwd: root });
  const paths = listed.status === 0 ? listed.stdout.toString('utf8').split('\0') : [];
  const candidates = paths.map((path) => path.replace(/\/$/, '')).filter((path) => path !== '' && path !== '.git' && !path.startsWith('.holdfast'));
  if (candidates.length === 0) return ['node_modules'];
  const checked = tryGit(['check-ignore', '--no-index', '--stdin', '-z'], {
    cwd: copy,
    workTree: copy,
    gitDir: gitDir ?? join(root, '.git'),
    input: Buffer.from(`${candidates.join('\0')}\0`),
    literalPathspecs: false,
  });
  const ignored =
    checked.status === 0
      ? checked.stdout
          .toString('utf8')
          .split('\0')
          .filter((path) => path !== '')
      : [];
  return [...new Set(['node_modules', ...ignored])];
}

function exportTree(options: TreeRunOptions, into: string, index: string): string | undefined {
  mkdirSync(into, { recursive: true });
  const git = { cwd: into, workTree: into, indexFile: index, gitDir: options.gitDir ?? join(options.root, '.git') };
  const read = tryGit(['read-tree', options.tree], git);
  if (read.status !== 0) return `the tree ${options.tree.slice(0, 12)} could not be read (${read.stderr})`;
  const checkout = tryGit(['checkout-index', '-a', '-f'], git);
  return checkout.status === 0 ? undefined : `the tree could not be written out (${checkout.stderr})`;
}

/**
 * The re-run's confinement: every namespace new, the network too but loopback (a tree's result
 * depends on the tree); the system read-only with the host's credentials masked; a private /tmp;
 * the copy writable at the project's path, with the project's ignored files over it read-only;
 * no secret-looking variable; the process group dies with the caller.
 */
function treeRunPolicy(root: string, copy: string, ignored: readonly string[], env: NodeJS.ProcessEnv): ConfinementPolicy {
  const home = env.HOME ?? '';
  return {
    network: 'loopback',
    secretVariables: 'dropped',
    hidden: ['/tmp'],
    readable: [],
    writable: [],
    readOnlyOver: [],
    mounted: [
      { from: copy, to: root, access: 'write' },
      ...ignored.map((path) => ({ from: join(root, path), to: join(root, path), access: 'read' as const, optional: true })),
    ],
    masked: credentialPlaces(home !== '' ? [home] : [], [root]),
    env: { TMPDIR: '/tmp' },
    cwd: root,
    newSession: true,
  };
}

function ending(code: number | null, signal: NodeJS.Signals | null, timedOut: boolean, timeoutMs: number, aborted: boolean): string | undefined {
  if (aborted) return 'the gate’s own run of it did not finish within the hook’s deadline';
  if (timedOut) return `the gate’s own run of it was killed after the ${Math.round(timeoutMs / 1000)} s timeout`;
  if (code === 0) return undefined;
  return code !== null ? `the gate’s own run of it ended with exit code ${code}` : `the gate’s own run of it was killed by ${signal ?? 'a signal'}`;
}

/**
 * Runs `command` on a private copy of `tree`, confined like a sandbox command, and says how it
 * ended. The copy is written from git's objects, so nothing the agent changes while it runs reaches
 * it; what the tree leaves out (installed dependencies, ignored files) is the project's own, bound
 * read-only. The copy is removed afterwards. Why: a claim that a command passed on a tree, made by a
 * process the gate does not trust, counts only when the gate's own run passes.
 */
export async function runOnTree(options: TreeRunOptions): Promise<TreeRunOutcome> {
  const scratch = mkdtempSync(join(nodeOs().tmpdir(), 'holdfast-rerun-'));
  try {
    const copy = join(scratch, 'tree');
    const failedExport = exportTree(options, copy, join(scratch, 'index'));
    if (failedExport !== undefined) return { kind: 'not-run', why: failedExport };
    const root = realpathSync(options.root);
    const policy = treeRunPolicy(root, copy, ignoredPaths(root, copy, options.gitDir), options.env);
    const args = [...confinementArgs(policy), '/bin/sh', '-c', options.command];
    return await new Promise<TreeRunOutcome>((resolve) => {
      let tail = '';
      let timedOut = false;
      let aborted = options.signal?.aborted === true;
      const child = childProcess().spawn(options.bwrap, args, {
        env: confinedEnvironment(policy, options.env),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let killed = false;
      const kill = () => {
        killed = true;
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      const keep = (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES));
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const stopClock = (options.deadline ?? timerDeadline)(
        () => {
          timedOut = true;
          kill();
        },
        { cwd: root, timeoutMs: options.timeoutMs },
      );
      const onAbort = () => {
        aborted = true;
        kill();
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (aborted) kill();
      child.once('error', (error) => {
        stopClock();
        options.signal?.removeEventListener('abort', onAbort);
        resolve({ kind: 'not-run', why: `bubblewrap could not start (${error.message})` });
      });
      let settled = false;
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (settled) return;
        settled = true;
        stopClock();
        options.signal?.removeEventListener('abort', onAbort);
        const why = ending(code, signal, timedOut, options.timeoutMs, aborted);
        resolve(why === undefined ? { kind: 'passed' } : { kind: 'failed', ending: why, outputTail: tail });
      };
      // A killed run ends with bubblewrap: a command it had just started, before tying the command's life to its
      // own (--die-with-parent is set in the new process, a moment after it starts), can outlive it and hold the
      // pipes open, and waiting for them would hold the hook past its deadline. The run did not pass either way.
      child.once('exit', (code, signal) => {
        if (!killed) return;
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      });
      child.once('close', finish);
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
