import { execFile, spawn } from 'node:child_process';
import { GIT_HARDENING, hermeticGitEnv } from '../sandbox/git.js';
import { OnboardError } from './onboard-error.js';
import { alwaysKept, globMatcher, kindByPath, kindByText, linguistGlobs, sampleToBudget } from './select-files.js';
import type { LeftOutKind } from './select-files.js';

/**
 * What a task's text may weigh by default: every file goes into the run file, and plan mode's prompt draws on them.
 * Past it, folders are sampled (see `sampleToBudget`), never the repository refused.
 */
export const DEFAULT_MAX_REPO_BYTES = 8_000_000;
/** A single file larger than this (a bundle, a data dump) is left out rather than counted. */
export const MAX_FILE_BYTES = 1_000_000;

export interface SnapshotOptions {
  /** A commit, branch or tag; HEAD when absent. */
  readonly commit?: string;
  /** Globs of paths to leave out. */
  readonly exclude?: readonly string[];
  /** Globs of paths to keep even when they are lock files, vendored, generated, docs, or past the budget. */
  readonly include?: readonly string[];
  /** Paths kept whatever the budget (a commit's own changes), as `include` without globs. */
  readonly keep?: readonly string[];
  readonly maxBytes?: number;
}

export interface SkippedFile {
  readonly path: string;
  readonly reason: 'binary' | 'too-large' | 'symlink' | 'submodule' | 'excluded' | 'rulebook' | LeftOutKind | 'sampled';
  /** The file's size, for the reasons that are a choice (lock, vendored, generated, minified, docs, sampled). */
  readonly bytes?: number;
}

/** The repository's files at one commit, as git stores them: tracked files only, so `.gitignore` holds. */
export interface RepoSnapshot {
  readonly commit: string;
  readonly files: Record<string, string>;
  readonly bytes: number;
  readonly skipped: readonly SkippedFile[];
  /** The budget the text was chosen under (`--max-bytes`). */
  readonly maxBytes: number;
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

export async function resolveCommit(repoDir: string, ref: string): Promise<string> {
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

async function recentActivity(repoDir: string, commit: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const log = await gitOutput(repoDir, ['log', '-n', '300', '--no-renames', '--format=', '--name-only', '-z', commit, '--']);
  for (const path of log.toString('utf8').split(/[\0\n]/)) if (path !== '') counts.set(path, (counts.get(path) ?? 0) + 1);
  return counts;
}

/**
 * Reads a repository's tracked files at a commit, choosing what a task is about. Binary files, symlinks, submodules and
 * files over MAX_FILE_BYTES are left out (and listed); the repository's own root AGENTS.md too, because the rulebook
 * under test is rendered there. Lock files, vendored, generated and minified files and documentation trees are left
 * out unless `include` names them; when the rest weighs more than `maxBytes`, whole folders are sampled (source first,
 * then tests, the most recently changed first) and the rest listed as `sampled`. Refused only when the files that are
 * always kept (the root's own, manifests, rule files, `include`, `keep`) alone weigh more.
 */
export async function snapshotRepo(repoDir: string, options: SnapshotOptions = {}): Promise<RepoSnapshot> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_REPO_BYTES;
  const commit = await resolveCommit(repoDir, options.commit ?? 'HEAD');
  const tree = parseTree(await gitOutput(repoDir, ['ls-tree', '-r', '-z', '--long', '--full-tree', commit]));
  const excluded = globMatcher(options.exclude ?? []);
  const focus = new Set(options.keep ?? []);
  const included = globMatcher(options.include ?? []);
  const chosen = (path: string) => focus.has(path) || included(path);
  const attributes = tree.find((entry) => entry.path === '.gitattributes' && entry.type === 'blob');
  const linguist = linguistGlobs(attributes === undefined ? undefined : splitBlobs(await readBlobs(repoDir, [attributes.object]), 1)[0]?.toString('utf8')).map(
    ({ glob, kind }) => ({ test: globMatcher([glob]), kind }),
  );
  const skipped: SkippedFile[] = [];
  const wanted: TreeEntry[] = [];
  const generated = new Set<string>();
  for (const entry of tree) {
    const skip = (reason: SkippedFile['reason']) => skipped.push({ path: entry.path, reason });
    const kind = chosen(entry.path) ? undefined : kindByPath(entry.path, linguist);
    if (excluded(entry.path)) skip('excluded');
    else if (entry.type === 'commit') skip('submodule');
    else if (entry.mode === '120000') skip('symlink');
    else if (entry.path.toLowerCase() === 'agents.md') skip('rulebook');
    else if ((entry.size ?? 0) > MAX_FILE_BYTES) skip('too-large');
    else if (kind !== undefined && kind !== 'generated' && entry.size !== undefined) skipped.push({ path: entry.path, reason: kind, bytes: entry.size });
    else wanted.push(entry);
    if (kind === 'generated') generated.add(entry.path);
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
  const texts = new Map<string, string>();
  const sizes = new Map<string, number>();
  wanted.forEach((entry, index) => {
    const blob = blobs[index] ?? Buffer.alloc(0);
    const text = asText(blob);
    if (text === undefined) {
      skipped.push({ path: entry.path, reason: 'binary' });
      return;
    }
    const kind = chosen(entry.path) ? undefined : kindByText(entry.path, text);
    if (kind === 'generated') generated.add(entry.path);
    else if (kind !== undefined) {
      skipped.push({ path: entry.path, reason: kind, bytes: blob.length });
      return;
    }
    texts.set(entry.path, text);
    sizes.set(entry.path, blob.length);
  });
  const candidates = [...sizes.entries()].map(([path, size]) => ({ path, bytes: size, generated: generated.has(path) }));
  const total = candidates.reduce((sum, candidate) => sum + candidate.bytes, 0);
  const keep = (path: string) => chosen(path) || alwaysKept(path);
  const sample =
    total <= maxBytes
      ? { kept: candidates.map((candidate) => candidate.path), sampled: [] }
      : sampleToBudget(candidates, maxBytes, { keep, activity: await recentActivity(repoDir, commit) });
  for (const path of sample.sampled) skipped.push({ path, reason: generated.has(path) ? 'generated' : 'sampled', bytes: sizes.get(path) ?? 0 });
  const files: Record<string, string> = {};
  let bytes = 0;
  for (const path of [...sample.kept].sort()) {
    files[path] = texts.get(path) ?? '';
    bytes += sizes.get(path) ?? 0;
  }
  // Only what is always kept can overrun the budget: sampling never takes a folder that does not fit.
  if (bytes > maxBytes) {
    const heaviest = candidates
      .filter((candidate) => keep(candidate.path))
      .sort((left, right) => right.bytes - left.bytes)
      .slice(0, 5);
    throw new OnboardError(
      'E_TASK_REPO_TOO_LARGE',
      `${repoDir} at ${commit.slice(0, 12)}: the files a task always keeps (the root's own files, manifests, rule files, --include) weigh ${formatBytes(bytes)}, over the budget of ${formatBytes(maxBytes)} (--max-bytes ${maxBytes}); ` +
        `the heaviest are ${heaviest.map((candidate) => `${candidate.path} ${formatBytes(candidate.bytes)}`).join(', ')}. Leave some out with --exclude GLOB, or raise the budget with --max-bytes N.`,
    );
  }
  skipped.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  return { commit, files, bytes, skipped, maxBytes };
}

const CHOSEN_GROUPS: readonly { readonly reasons: readonly SkippedFile['reason'][]; readonly label: string }[] = [
  { reasons: ['lock'], label: 'lock files' },
  { reasons: ['vendored'], label: 'vendored' },
  { reasons: ['minified'], label: 'minified or source maps' },
  { reasons: ['docs'], label: 'docs' },
  { reasons: ['sampled', 'generated'], label: 'sampled out' },
];

/** The heaviest folders (two levels deep at most) a group of left-out files lies in, so a person can name one. */
function heaviestFolders(files: readonly SkippedFile[]): string[] {
  const weights = new Map<string, number>();
  for (const file of files) {
    const parts = file.path.split('/');
    const folder = parts.length === 1 ? file.path : `${parts.slice(0, Math.min(2, parts.length - 1)).join('/')}/`;
    weights.set(folder, (weights.get(folder) ?? 0) + (file.bytes ?? 0));
  }
  return [...weights.entries()]
    .sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
    .slice(0, 3)
    .map(([folder]) => folder);
}

/** What a snapshot read and what it left out by choice, with the flags that change it: one line for `init` and `tasks new`. */
export function describeSelection(snapshot: RepoSnapshot): string {
  const read = `Read ${Object.keys(snapshot.files).length} files (${formatBytes(snapshot.bytes)}) of code, tests and config at ${snapshot.commit.slice(0, 12)}`;
  const groups = CHOSEN_GROUPS.map(({ reasons, label }) => {
    const files = snapshot.skipped.filter((file) => reasons.includes(file.reason));
    if (files.length === 0) return undefined;
    const bytes = files.reduce((sum, file) => sum + (file.bytes ?? 0), 0);
    const budget = reasons.includes('sampled') ? `, to stay within ${formatBytes(snapshot.maxBytes)}, generated files first` : '';
    return `${files.length} ${label} (${formatBytes(bytes)}${budget}: ${heaviestFolders(files).join(', ')})`;
  }).filter((group) => group !== undefined);
  const other = ['binary', 'too-large', 'symlink', 'submodule', 'excluded', 'rulebook']
    .map((reason) => [reason, snapshot.skipped.filter((file) => file.reason === reason).length] as const)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${count} ${reason === 'rulebook' ? 'root AGENTS.md (the rulebook replaces it)' : reason}`);
  if (groups.length === 0 && other.length === 0) return `${read}: every tracked file.`;
  const folder =
    heaviestFolders(snapshot.skipped.filter((file) => file.reason === 'docs'))[0] ??
    heaviestFolders(snapshot.skipped.filter((file) => file.reason === 'sampled'))[0];
  const top = folder?.includes('/') === true ? `${folder.slice(0, folder.indexOf('/'))}/**` : folder;
  const bringBack = top === undefined ? '--include GLOB' : `--include '${top}'`;
  return `${read}. Left out: ${[...groups, ...other].join('; ')}. Bring a part back with ${bringBack}, leave more out with --exclude GLOB, read more with --max-bytes N.`;
}
