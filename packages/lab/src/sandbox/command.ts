import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import type { CappedText, Rulebook } from '@holdfast/core/contract';
import { compilePattern } from '@holdfast/core/rules';
import type { Pattern } from '@holdfast/core/rules';
import { TailBuffer } from './capped-text.js';
import { wrapCommand } from './isolation.js';
import type { Isolation, SandboxMounts } from './isolation.js';
import { commandNodeVersion, typescriptNodeOptions, typescriptPreloadPaths } from './typescript-support.js';

export type SplitCommand = { readonly ok: true; readonly argv: string[]; readonly normalized: string } | { readonly ok: false; readonly reason: string };

const SHELL_SYNTAX = /[|&;<>()$`\\"'*?[\]{}~!#\n\r]/;

/**
 * Commands run without a shell, so only a plain word list is accepted: anything a shell would
 * interpret (pipes, `&&`, quotes, globs, variables) is refused rather than half-honoured.
 */
export function splitCommand(cmd: string): SplitCommand {
  const match = SHELL_SYNTAX.exec(cmd);
  if (match !== null) return { ok: false, reason: `it uses shell syntax (${JSON.stringify(match[0])}), and commands run without a shell` };
  const argv = cmd
    .trim()
    .split(/[ \t]+/)
    .filter((word) => word.length > 0);
  if (argv.length === 0) return { ok: false, reason: 'the command is empty' };
  return { ok: true, argv, normalized: argv.join(' ') };
}

/** The rulebook's sandbox allowlist; without one, the order rule's test command. */
export function sandboxAllowlist(rulebook: Rulebook): Pattern[] {
  const sources = rulebook.sandbox?.allow ?? rulebook.rules.flatMap((rule) => (rule.check.kind === 'order' ? [rule.check.command] : []));
  return sources.map((source) => {
    const compiled = compilePattern(source, '');
    // The rulebook loader refuses such a pattern; a rulebook that skipped it allows nothing.
    if (!compiled.ok) return { source, test: () => false, find: () => undefined };
    return compiled.pattern;
  });
}

export type CommandDecision = { readonly execute: true; readonly argv: string[] } | { readonly execute: false; readonly reason: string };

export function decideCommand(cmd: string, allowlist: readonly Pick<Pattern, 'test'>[]): CommandDecision {
  const split = splitCommand(cmd);
  if (!split.ok) return { execute: false, reason: `Not executed: ${split.reason}.` };
  if (!allowlist.some((pattern) => pattern.test(split.normalized))) {
    return { execute: false, reason: `Not executed: "${split.normalized}" is not on the rulebook's sandbox allowlist.` };
  }
  return { execute: true, argv: split.argv };
}

/**
 * Starts the clock on a running command: calls `expire` when its time is up and returns a function
 * that stops the clock. The default is a timer of `timeoutMs`; a test passes one that expires when
 * the command has shown it is running, so "killed at the timeout" needs no race against the clock.
 */
export type CommandDeadline = (expire: () => void, command: { readonly cwd: string; readonly timeoutMs: number }) => () => void;

export const timerDeadline: CommandDeadline = (expire, command) => {
  const timer = setTimeout(expire, command.timeoutMs);
  return () => clearTimeout(timer);
};

export interface CommandRunOptions {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly homeDir: string;
  /** Folders the command may read that the trial hides otherwise (a node_modules snapshot under /tmp), bound read-only. */
  readonly readable?: readonly string[];
  /** Installed dependencies bound read-only into the work tree (the repository's node_modules, .venv). */
  readonly dependencies?: SandboxMounts['dependencies'];
  /** Folders emptied besides /tmp (the run's other sandboxes). */
  readonly hidden?: readonly string[];
  readonly isolation: Isolation;
  readonly timeoutMs: number;
  readonly deadline?: CommandDeadline;
  readonly outputCapBytes: number;
  readonly signal?: AbortSignal;
}

export interface CommandRun {
  readonly exitCode?: number;
  readonly signal?: string;
  readonly timedOut: boolean;
  /** stdout and stderr interleaved; the tail is kept, where a test runner prints its verdict. */
  readonly output: CappedText;
  readonly durationMs: number;
  /** The command could not be started at all (not found). */
  readonly spawnError?: string;
}

/** A toolchain's home on the host, pinned for the trial (whose HOME is its own), when it is there. */
function hostToolchainHomes(): Record<string, string> {
  const home = homedir();
  const places: Record<string, string | undefined> = {
    RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(home, '.rustup'),
    CARGO_HOME: process.env.CARGO_HOME ?? join(home, '.cargo'),
    PYENV_ROOT: process.env.PYENV_ROOT ?? join(home, '.pyenv'),
    GOPATH: process.env.GOPATH ?? join(home, 'go'),
    GOMODCACHE: process.env.GOMODCACHE,
    GOROOT: process.env.GOROOT,
    COREPACK_HOME: process.env.COREPACK_HOME ?? join(home, '.cache', 'node', 'corepack'),
  };
  return Object.fromEntries(Object.entries(places).filter((entry): entry is [string, string] => entry[1] !== undefined && existsSync(entry[1])));
}

/**
 * The trial's PATH: the repository's virtual environment first, then the host's own PATH (so its
 * pyenv, rustup, corepack or Go run), without the `node_modules/.bin` folders of whatever project
 * started holdfast.
 */
function trialPath(cwd: string): string {
  const venvs = ['.venv', 'venv'].map((folder) => join(cwd, folder, 'bin')).filter((folder) => existsSync(folder));
  const host = (process.env.PATH ?? '').split(delimiter).filter((folder) => folder.startsWith('/') && !folder.includes(`${sep}node_modules${sep}.bin`));
  return [...new Set([...venvs, ...host, '/usr/local/bin', '/usr/bin', '/bin'])].join(delimiter);
}

/**
 * Everything a command sees of the environment: nothing inherited (no keys, no tokens), only what
 * a repository's toolchain needs: the host's PATH and toolchain homes (read-only in the trial), a
 * HOME of the sandbox's own, writable build caches in the private /tmp, and every package manager
 * told to stay offline (the trial has no network but loopback; a cache miss fails at once, saying so).
 */
export function scrubbedEnvironment(homeDir: string, isolated = true, cwd = homeDir): NodeJS.ProcessEnv {
  const path = trialPath(cwd);
  const nodeOptions = typescriptNodeOptions(commandNodeVersion(path, cwd));
  const temporary = isolated ? '/tmp' : homeDir;
  const venv = ['.venv', 'venv'].map((folder) => join(cwd, folder)).find((folder) => existsSync(join(folder, 'bin')));
  return {
    ...(nodeOptions !== undefined ? { NODE_OPTIONS: nodeOptions } : {}),
    ...hostToolchainHomes(),
    ...(venv !== undefined ? { VIRTUAL_ENV: venv } : {}),
    PATH: path,
    HOME: homeDir,
    TMPDIR: temporary,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    CI: 'true',
    NO_COLOR: '1',
    npm_config_cache: `${homeDir}/.npm`,
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
    COREPACK_ENABLE_NETWORK: '0',
    GOCACHE: join(temporary, 'go-build'),
    GOPROXY: 'off',
    GOTOOLCHAIN: 'local',
    GOTELEMETRY: 'off',
    CARGO_NET_OFFLINE: 'true',
    PIP_NO_INDEX: '1',
    PYTHONDONTWRITEBYTECODE: '1',
  };
}

/** How long stdio may stay open after the process is gone (a grandchild holding the pipe). */
const DRAIN_MS = 1_000;

/**
 * Runs one allowlisted command in its own process group, so a timeout (or Ctrl-C) kills the
 * whole tree, not just the first process.
 */
export function runSandboxCommand(options: CommandRunOptions): Promise<CommandRun> {
  const started = performance.now();
  const output = new TailBuffer(options.outputCapBytes);
  const env = scrubbedEnvironment(options.homeDir, options.isolation.kind === 'bubblewrap', options.cwd);
  const mounts: SandboxMounts = {
    writable: [options.cwd, options.homeDir],
    readable: [...typescriptPreloadPaths(commandNodeVersion(env.PATH ?? '', options.cwd)), ...(options.readable ?? [])],
    ...(options.dependencies !== undefined ? { dependencies: options.dependencies } : {}),
    ...(options.hidden !== undefined ? { hidden: options.hidden } : {}),
    cwd: options.cwd,
  };
  const { file, args } = wrapCommand(options.isolation, options.argv, mounts);
  return new Promise((resolve) => {
    let timedOut = false;
    let settled = false;
    const child = spawn(file, args, {
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const stopClock = (options.deadline ?? timerDeadline)(
      () => {
        timedOut = true;
        killGroup();
      },
      { cwd: options.cwd, timeoutMs: options.timeoutMs },
    );
    const onAbort = () => killGroup();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    const finish = (result: Omit<CommandRun, 'output' | 'durationMs' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      stopClock();
      options.signal?.removeEventListener('abort', onAbort);
      killGroup();
      resolve({ ...result, timedOut, output: output.result(), durationMs: Math.round(performance.now() - started) });
    };
    child.on('error', (error) => finish({ spawnError: error.message }));
    child.on('exit', (code, signal) => {
      const result = { ...(code !== null ? { exitCode: code } : {}), ...(signal !== null ? { signal } : {}) };
      const drain = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(result);
      }, DRAIN_MS);
      child.on('close', () => {
        clearTimeout(drain);
        finish(result);
      });
    });
    if (options.signal?.aborted === true) killGroup();
  });
}
