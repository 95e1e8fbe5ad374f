import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { writeAtomically } from './atomic-file.js';
import { childProcess } from './lazy-builtins.js';
import { spawnToEnd } from './spawn-sync.js';
import type { FinishedProcess } from './spawn-sync.js';
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
  /**
   * Variables git itself set for the hook this process answers, passed on by name: where this
   * repository's objects are (a push's quarantine), the index being committed. Only the names in
   * HOOK_LOCATION_VARIABLES are taken; every other `GIT_*` is dropped.
   */
  readonly hookLocation?: NodeJS.ProcessEnv;
  /**
   * The command only reads configuration or paths (`git config --get`, `rev-parse --git-path`):
   * it runs nothing the configuration names, so it gets the configuration as git has it, and with
   * `userConfig` the user's global and system files too (doctor and install report what git will do).
   */
  readonly configOnly?: boolean;
  readonly userConfig?: boolean;
  /**
   * `gitDir` is a repository holdfast made and alone writes (the snapshot store, read-only inside
   * `holdfast exec`): its configuration is holdfast's, so it is not read first; the fixed overrides still apply.
   */
  readonly ownRepository?: boolean;
  /**
   * Paths are taken literally (`GIT_LITERAL_PATHSPECS`, so a file named `:(glob)*` is that file) unless
   * this is false: `check-ignore` takes paths, not pathspecs, and refuses to run under that setting.
   */
  readonly literalPathspecs?: boolean;
}

/** What git sets for a hook that says where the repository being changed is; the only `GIT_*` variables the gate's git keeps. */
const HOOK_LOCATION_VARIABLES = ['GIT_DIR', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_QUARANTINE_PATH'] as const;

/** The variables of the caller's environment git is given: where programs are, HOME and a temporary folder. Nothing else reaches it. */
const PASSED_VARIABLES = ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT'] as const;

const MAX_BUFFER = 512 * 1024 * 1024;

/** git refused to run because the repository's layout or configuration is one the gate does not follow. */
export class RepositoryLayoutError extends SnapshotError {}

/**
 * The environment of every git the gate starts: none of the caller's `GIT_*` variables (the hook may
 * run inside a git hook or under an agent that set GIT_CONFIG_*, GIT_DIR, GIT_EXTERNAL_DIFF, …), no
 * pager, editor or askpass, no system or global configuration, no replace refs or grafts (the gate
 * reads the objects as stored), no prompt. Pathspecs are literal, messages in C.
 */
function gitEnvironment(options: GitOptions): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const name of PASSED_VARIABLES) if (process.env[name] !== undefined) environment[name] = process.env[name];
  for (const name of HOOK_LOCATION_VARIABLES) {
    const value = options.hookLocation?.[name];
    if (value !== undefined && value !== '') environment[name] = value;
  }
  environment.GIT_TERMINAL_PROMPT = '0';
  if (options.literalPathspecs !== false) environment.GIT_LITERAL_PATHSPECS = '1';
  environment.GIT_NO_REPLACE_OBJECTS = '1';
  environment.GIT_GRAFT_FILE = '/dev/null';
  environment.GIT_NO_LAZY_FETCH = '1';
  environment.GIT_PAGER = 'cat';
  environment.GIT_ATTR_NOSYSTEM = '1';
  environment.LC_ALL = 'C';
  if (options.userConfig !== true) {
    environment.GIT_CONFIG_NOSYSTEM = '1';
    environment.GIT_CONFIG_GLOBAL = '/dev/null';
  }
  if (options.gitDir !== undefined) environment.GIT_DIR = options.gitDir;
  if (options.workTree !== undefined) environment.GIT_WORK_TREE = options.workTree;
  if (options.indexFile !== undefined) environment.GIT_INDEX_FILE = options.indexFile;
  return environment;
}

/**
 * Configuration given on every gate git's command line, which wins over every file: nothing that
 * runs a program (fsmonitor, hooks, ssh, pager, editor, askpass, credential helpers, gpg, external
 * diff), no transport at all (a partial clone's lazy fetch), and no user or system ignore and
 * attribute files hiding or re-encoding a file from the gate.
 */
const FIXED_OVERRIDES: readonly string[] = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.sshCommand=false',
  'core.askPass=',
  'core.pager=cat',
  'core.editor=false',
  'sequence.editor=false',
  'core.gitProxy=',
  'core.alternateRefsCommand=',
  'core.excludesFile=/dev/null',
  'core.attributesFile=/dev/null',
  'credential.helper=',
  'diff.external=',
  'gpg.program=false',
  'gpg.ssh.program=false',
  'gpg.x509.program=false',
  'log.showSignature=false',
  'protocol.allow=never',
  'uploadpack.packObjectsHook=',
];

/**
 * A key of the repository's configuration that names a program git would run, and what the gate
 * sets it to instead. Drivers have names the repository chooses (filter.NAME.clean), so they are
 * found by reading the configuration, then each is switched off by name.
 */
function namedOverride(key: string): string | undefined {
  const driver = /^(filter|diff|merge|pager|remote|credential|gpg|submodule)\.(.+)\.([^.]+)$/.exec(key);
  if (driver === null) return /^pager\.[^.]+$/.test(key) ? `${key}=false` : undefined;
  const [, section, , leaf] = driver as unknown as [string, string, string, string];
  if (section === 'filter') return leaf === 'required' ? `${key}=false` : leaf === 'clean' || leaf === 'smudge' || leaf === 'process' ? `${key}=` : undefined;
  // A textconv of `cat` gives the blob as stored; a diff or merge command that runs fails (the gate never asks for either).
  if (section === 'diff') return leaf === 'textconv' ? `${key}=cat` : leaf === 'command' ? `${key}=false` : undefined;
  if (section === 'merge') return leaf === 'driver' ? `${key}=false` : undefined;
  if (section === 'remote') return leaf === 'uploadpack' || leaf === 'receivepack' || leaf === 'vcs' || leaf === 'proxy' ? `${key}=` : undefined;
  if (section === 'credential') return leaf === 'helper' ? `${key}=` : undefined;
  if (section === 'gpg') return leaf === 'program' ? `${key}=false` : undefined;
  if (section === 'submodule') return leaf === 'update' ? `${key}=none` : undefined;
  return undefined;
}

interface RepositoryReading {
  /** Files the configuration was read from, with what they were then (inode, size, time): a change means read it again. */
  readonly sources: readonly (readonly [string, string])[];
  readonly overrides: readonly string[];
}

const readings = new Map<string, RepositoryReading>();

function fileStamp(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  } catch {
    return 'absent';
  }
}

function spawnGit(args: readonly string[], options: GitOptions): FinishedProcess {
  return spawnToEnd('git', args, { cwd: options.cwd, env: gitEnvironment(options), input: options.input, maxBuffer: MAX_BUFFER });
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function readSmall(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Judges the repository's layout before the gate's git follows it: a `commondir` moves the config,
 * hooks, refs and objects of every git in the repository, and a `.git` file (`gitdir:`) moves all of
 * it too. Both are git's own only where git makes them: a linked worktree's folder under
 * `<common>/worktrees/NAME`, whose `gitdir` names this work tree back, and a submodule's folder under
 * `.git/modules/`, whose core.worktree is this work tree. Anything else was written by someone else.
 */
export function judgeRepositoryLayout(gitDir: string, top: string | undefined): string | undefined {
  const absolute = realOrSelf(gitDir);
  const commondir = readSmall(join(absolute, 'commondir'))?.trim();
  if (commondir !== undefined) {
    const common = realOrSelf(resolve(absolute, commondir));
    const worktree = basename(dirname(absolute)) === 'worktrees' && realOrSelf(dirname(dirname(absolute))) === common;
    if (!worktree)
      return `${join(absolute, 'commondir')} points git at ${common}, another repository's config, hooks and refs; only a linked worktree's folder (<repository>/.git/worktrees/NAME) has one: remove the file`;
    if (top !== undefined) {
      const back = readSmall(join(absolute, 'gitdir'))?.trim();
      if (back === undefined || realOrSelf(dirname(resolve(absolute, back))) !== realOrSelf(top))
        return `${absolute} is a worktree folder that does not name ${top} back in its gitdir file, so ${join(top, '.git')} was written by hand: run \`git worktree repair\` or remove it`;
    }
    return undefined;
  }
  if (top === undefined) return undefined;
  const dotGit = join(top, '.git');
  // Only a `.git` file is a pointer to follow; a folder is the repository itself, and git told where it is (GIT_DIR of a hook) is git's word.
  if (statSync(dotGit, { throwIfNoEntry: false })?.isFile() !== true || realOrSelf(dotGit) === absolute) return undefined;
  // A `.git` file pointing elsewhere without a commondir: a submodule's absorbed folder (or `git init --separate-git-dir`).
  const worktree = /^\s*worktree\s*=\s*(.+?)\s*$/m.exec(readSmall(join(absolute, 'config')) ?? '')?.[1];
  if (worktree !== undefined && realOrSelf(resolve(absolute, worktree)) === realOrSelf(top)) return undefined;
  return `${dotGit} points git at ${absolute}, a git folder that does not name ${top} as its work tree: remove the file or restore the repository's .git folder`;
}

/**
 * What the gate's git must be told on its command line in this repository: the fixed overrides,
 * and every program-running key the repository's own configuration (and what it includes) names.
 * Read with git itself, once per process while the files it read are unchanged.
 */
function repositoryOverrides(options: GitOptions): readonly string[] {
  const key = `${options.cwd}\0${options.gitDir ?? ''}\0${options.hookLocation?.GIT_DIR ?? ''}\0${options.userConfig === true ? 'user' : ''}`;
  const known = readings.get(key);
  if (known !== undefined && known.sources.every(([file, stamp]) => fileStamp(file) === stamp)) return known.overrides;
  const located = spawnGit(['rev-parse', '--absolute-git-dir', '--show-toplevel'], { ...options, input: undefined });
  if (located.error === undefined) {
    // A bare repository prints its folder and then refuses --show-toplevel: the folder is still judged.
    const [gitDir, top] = located.stdout.toString('utf8').split('\n');
    const workTree = options.gitDir === undefined && located.status === 0 && top !== undefined && top !== '' ? top : undefined;
    const wrong = gitDir === undefined || !isAbsolute(gitDir) ? undefined : judgeRepositoryLayout(gitDir, workTree);
    if (wrong !== undefined) throw new RepositoryLayoutError('E_GIT_LAYOUT', `holdfast does not run git in this repository: ${wrong}`);
  }
  const listed = spawnGit(['config', '--list', '--show-origin', '-z'], { ...options, input: undefined });
  const overrides = [...FIXED_OVERRIDES];
  const sources = new Map<string, string>();
  if (listed.error === undefined && listed.status === 0) {
    const fields = listed.stdout.toString('utf8').split('\0');
    for (let at = 0; at + 1 < fields.length; at += 2) {
      const origin = (fields[at] as string).replace(/^file:/, '');
      const entry = fields[at + 1] as string;
      const name = entry.split('\n', 1)[0] as string;
      if (origin !== '' && !origin.startsWith('command line:')) {
        const file = resolve(options.cwd, origin);
        if (!sources.has(file)) sources.set(file, fileStamp(file));
      }
      if (/^include\.path$|^includeif\..*\.path$/i.test(name) && options.configOnly !== true)
        throw new RepositoryLayoutError(
          'E_GIT_LAYOUT',
          `holdfast does not run git in this repository: ${origin} includes another configuration file (${name}), which can change between the gate's reading and git's; put the settings in the file itself and remove ${name}`,
        );
      const override = namedOverride(name);
      if (override !== undefined) overrides.push(override);
    }
  }
  const reading = { sources: [...sources], overrides: [...new Set(overrides)] };
  readings.set(key, reading);
  return reading.overrides;
}

/**
 * The one way the gate starts git. Whatever the repository or the environment says, this git runs
 * no program they name (see FIXED_OVERRIDES and namedOverride), reads no user or system
 * configuration, and does not run at all in a repository whose layout another writer redirected
 * (judgeRepositoryLayout).
 */
export function gitProcess(args: readonly string[], options: GitOptions): FinishedProcess {
  const overrides =
    options.configOnly === true ? [] : options.ownRepository === true && options.gitDir !== undefined ? FIXED_OVERRIDES : repositoryOverrides(options);
  return spawnGit([...overrides.flatMap((setting) => ['-c', setting]), ...args], options);
}

export interface GitResult {
  readonly status: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export function tryGit(args: readonly string[], options: GitOptions): GitResult {
  const result = gitProcess(args, options);
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
  const overrides = (options.ownRepository === true && options.gitDir !== undefined ? FIXED_OVERRIDES : repositoryOverrides(options)).flatMap((setting) => [
    '-c',
    setting,
  ]);
  return childProcess().spawn('git', [...overrides, ...args], { cwd: options.cwd, env: gitEnvironment(options), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Starts git on its own (nothing waits for it, nothing reads its output); for housekeeping. */
export function startGitDetached(args: readonly string[], options: GitOptions): void {
  const overrides = (options.ownRepository === true && options.gitDir !== undefined ? FIXED_OVERRIDES : repositoryOverrides(options)).flatMap((setting) => [
    '-c',
    setting,
  ]);
  const child = childProcess().spawn('git', [...overrides, ...args], { cwd: options.cwd, env: gitEnvironment(options), detached: true, stdio: 'ignore' });
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
  const result = spawnToEnd('git', ['--version'], { env: gitEnvironment({ cwd: '.' }), maxBuffer: MAX_BUFFER });
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

/**
 * A git that only reads configuration or paths (`git config KEY`, `rev-parse --git-path`,
 * `check-ignore`), as the user's own git sees them, system and global files included: what doctor
 * and install report. Its stdout, or undefined when git says no or cannot run.
 */
export function userGitOutput(args: readonly string[], cwd: string): string | undefined {
  const result = gitProcess(args, { cwd, configOnly: true, userConfig: true, literalPathspecs: args[0] !== 'check-ignore' });
  return result.error === undefined && result.status === 0 ? result.stdout.toString('utf8') : undefined;
}
