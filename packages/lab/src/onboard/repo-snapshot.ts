import { execFile, spawn } from 'node:child_process';
import picomatch from 'picomatch';
import { GLOB_OPTIONS } from '@holdfast/core/rules';
import { GIT_HARDENING, hermeticGitEnv } from '../sandbox/git.js';
import { OnboardError } from './onboard-error.js';

/** What a task may weigh by default: every file goes into the run file, and plan mode's prompt draws on them. */
export const DEFAULT_MAX_REPO_BYTES = 4_000_000;
/** A single file larger than this (a bundle, a data dump) is left out rather than counted. */
export const MAX_FILE_BYTES = 1_000_000;

export interface SnapshotOptions {
  /** A commit, branch or tag; HEAD when absent. */
  readonly commit?: string;
  /** Globs of paths to leave out. */
  readonly exclude?: readonly string[];
  readonly maxBytes?: number;
}

export interface SkippedFile {
  readonly path: string;
  readonly reason: 'binary' | 'too-large' | 'symlink' | 'submodule' | 'excluded' | 'rulebook';
}

/** The repository's files at one commit, as git stores them: tracked files only, so `.gitignore` holds. */
export interface RepoSnapshot {
  readonly commit: string;
  readonly files: Record<string, string>;
  readonly bytes: number;
  readonly skipped: readonly SkippedFile[];
}

interface TreeEntry {
  readonly mode: string;
  readonly type: string;
  readonly object: string;
  readonly size: number | undefined;
  readonly path: string;
}

function gitOutput(repoDir: string, args: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...GIT_HARDENING, '-C', repoDir, ...args],
      { env: hermeticGitEnv(), encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) resolve(stdout);
        else reject(Object.assign(error, { stderr: stderr.toString('utf8').trim() }));
      },
    );
  });
}

async function resolveCommit(repoDir: string, ref: string): Promise<string> {
  try {
    await gitOutput(repoDir, ['rev-parse', '--git-dir']);
  } catch (error) {
    throw new OnboardError(
      'E_TASK_REPO',
      `${repoDir} is not a git repository; pass --repo the folder of a git clone (git init; git commit first if it has no history).`,
      { cause: error },
    );
  }
  try {
    return (await gitOutput(repoDir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).toString('utf8').trim();
  } catch (error) {
    throw new OnboardError(
      'E_TASK_REPO',
      `${repoDir}: "${ref}" is not a commit of this repository; pass --commit a commit, branch or tag (a repository needs at least one commit).`,
      { cause: error },
    );
  }
}

function parseTree(output: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of output.toString('utf8').split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode = '', type = '', object = '', size = '-'] = record.slice(0, tab).split(/ +/);
    entries.push({ mode, type, object, size: size === '-' ? undefined : Number(size), path: record.slice(tab + 1) });
  }
  return entries;
}

function readBlobs(repoDir: string, objects: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_HARDENING, '-C', repoDir, 'cat-file', '--batch'], { env: hermeticGitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new OnboardError('E_TASK_REPO', `${repoDir}: git cat-file failed (${stderr.trim() || `exit ${String(code)}`}).`));
    });
    child.stdin.end(objects.map((object) => `${object}\n`).join(''));
  });
}

/** Each answer of `cat-file --batch` is `<oid> blob <size>\n<bytes>\n`, in the order asked. */
function splitBlobs(output: Buffer, count: number): Buffer[] {
  const blobs: Buffer[] = [];
  let offset = 0;
  for (let index = 0; index < count; index++) {
    const newline = output.indexOf(0x0a, offset);
    const header = output.subarray(offset, newline).toString('utf8').split(' ');
    const size = Number(header[2]);
    blobs.push(output.subarray(newline + 1, newline + 1 + size));
    offset = newline + 1 + size + 1;
  }
  return blobs;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Text as git's own test has it (no NUL byte), and valid UTF-8 so that it survives a round trip as a string. */
function asText(blob: Buffer): string | undefined {
  if (blob.includes(0)) return undefined;
  try {
    return UTF8.decode(blob);
  } catch {
    return undefined;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.ceil(bytes / 1000)} kB`;
}

/**
 * Every folder worth excluding, heaviest first, until what is left fits the cap: top-level
 * folders, or deeper when one folder holds most of the weight (everything under src/ says nothing).
 * One error names them all, so one more run of `init` gets through.
 */
function foldersToExclude(entries: readonly { readonly path: string; readonly size: number }[], maxBytes: number): [string, number][] {
  const total = entries.reduce((sum, entry) => sum + entry.size, 0);
  let ranked: [string, number][] = [];
  for (let depth = 1; depth <= 4; depth++) {
    const weights = new Map<string, number>();
    for (const entry of entries) {
      const parts = entry.path.split('/');
      const folder =
        parts.length > depth ? `${parts.slice(0, depth).join('/')}/` : parts.length === 1 ? '(top level files)' : `${parts.slice(0, -1).join('/')}/`;
      weights.set(folder, (weights.get(folder) ?? 0) + entry.size);
    }
    ranked = [...weights.entries()].sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1));
    if ((ranked[0]?.[1] ?? 0) <= total * 0.7) break;
  }
  const chosen: [string, number][] = [];
  let left = total;
  for (const [folder, bytes] of ranked) {
    if (left <= maxBytes) break;
    if (folder === '(top level files)') continue;
    chosen.push([folder, bytes]);
    left -= bytes;
  }
  return chosen;
}

/**
 * Reads a repository's tracked files at a commit. Binary files, symlinks, submodules and files over
 * MAX_FILE_BYTES are left out (and listed); the repository's own root AGENTS.md too, because the
 * rulebook under test is rendered there. Refused when the text it would copy weighs more than the cap, naming every folder worth leaving out.
 */
export async function snapshotRepo(repoDir: string, options: SnapshotOptions = {}): Promise<RepoSnapshot> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_REPO_BYTES;
  const commit = await resolveCommit(repoDir, options.commit ?? 'HEAD');
  const tree = parseTree(await gitOutput(repoDir, ['ls-tree', '-r', '-z', '--long', '--full-tree', commit]));
  const excluded = (options.exclude ?? []).map((glob) => picomatch.makeRe(glob, GLOB_OPTIONS));
  const skipped: SkippedFile[] = [];
  const wanted: TreeEntry[] = [];
  for (const entry of tree) {
    const skip = (reason: SkippedFile['reason']) => skipped.push({ path: entry.path, reason });
    if (excluded.some((glob) => glob.test(entry.path))) skip('excluded');
    else if (entry.type === 'commit') skip('submodule');
    else if (entry.mode === '120000') skip('symlink');
    else if (entry.path.toLowerCase() === 'agents.md') skip('rulebook');
    else if ((entry.size ?? 0) > MAX_FILE_BYTES) skip('too-large');
    else wanted.push(entry);
  }
  // A partial clone lists blobs it does not hold with no size: their bytes are unknown, so refuse rather than count them as nothing.
  const missing = wanted.filter((entry) => entry.size === undefined || !Number.isFinite(entry.size));
  if (missing.length > 0) {
    throw new OnboardError(
      'E_TASK_REPO_INCOMPLETE',
      `${repoDir} at ${commit.slice(0, 12)} lacks the contents of ${missing.length} file${missing.length === 1 ? '' : 's'} (a partial or shallow clone): ${missing
        .slice(0, 20)
        .map((entry) => entry.path)
        .join(
          ', ',
        )}${missing.length > 20 ? ', …' : ''}; fetch them (git fetch --unshallow, or git -c fetch.negotiationAlgorithm=noop fetch origin), or leave them out with --exclude GLOB.`,
    );
  }
  if (wanted.length === 0)
    throw new OnboardError('E_TASK_REPO', `${repoDir} at ${commit.slice(0, 12)} has no files to give the agent; commit some, or loosen --exclude.`);
  const blobs = splitBlobs(
    await readBlobs(
      repoDir,
      wanted.map((entry) => entry.object),
    ),
    wanted.length,
  );
  const files: Record<string, string> = {};
  let bytes = 0;
  wanted.forEach((entry, index) => {
    const text = asText(blobs[index] ?? Buffer.alloc(0));
    if (text === undefined) {
      skipped.push({ path: entry.path, reason: 'binary' });
      return;
    }
    files[entry.path] = text;
    bytes += blobs[index]?.length ?? 0;
  });
  // The cap counts what is copied: the text files, not the binaries left out.
  if (bytes > maxBytes) {
    const copied = Object.entries(files).map(([path, text]) => ({ path, size: Buffer.byteLength(text, 'utf8') }));
    const exclude = foldersToExclude(copied, maxBytes);
    throw new OnboardError(
      'E_TASK_REPO_TOO_LARGE',
      `${repoDir} at ${commit.slice(0, 12)} holds ${formatBytes(bytes)} of text in ${copied.length} files, over the cap of ${formatBytes(maxBytes)} (--max-bytes ${maxBytes}); ` +
        `the whole repository goes into every run file. Leave out ${exclude.map(([folder, size]) => `${folder} ${formatBytes(size)}`).join(', ')} ` +
        `(${exclude.map(([folder]) => `--exclude '${folder}**'`).join(' ')}), or raise the cap with --max-bytes N.`,
    );
  }
  skipped.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  return { commit, files, bytes, skipped };
}
