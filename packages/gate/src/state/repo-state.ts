import { blobText } from '../io/index.js';
import type { BlobText } from '../io/index.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { toSlashes } from '../io/index.js';
import { RepositoryLayoutError, judgeRepositoryLayout, readCheckoutEntries, reencodedEntries, runGit, tryGit } from '../io/index.js';
import type { CheckoutRead } from '../io/index.js';

/** Where the user's own repository is, found without running git. */
export interface RepoLocation {
  /** The work tree's top directory. */
  readonly top: string;
  /** This work tree's git directory (holds HEAD). */
  readonly gitDir: string;
  /** The shared git directory (holds refs, config and hooks); the same as gitDir outside `git worktree`. */
  readonly commonDir: string;
}

/**
 * The branch and tag tips of the user's repository at one moment, and where HEAD pointed. Recorded
 * before a shell call so that commits a script made (even with `--no-verify`) are found afterwards.
 */
export interface RepoState extends RepoLocation {
  /** The branch HEAD is on (`refs/heads/main`), or null when HEAD is detached. */
  readonly headRef: string | null;
  /** The commit HEAD resolves to; null on an unborn branch. */
  readonly headCommit: string | null;
  /** Every ref under `refs/` but the unwatched ones (UNWATCHED_REFS), name → object id. */
  readonly refs: Readonly<Record<string, string>>;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Finds `.git` (a folder, or a file pointing to one as in `git worktree`) in root or above it. */
export function locateRepo(root: string): RepoLocation | undefined {
  let folder = resolve(root);
  for (;;) {
    const dotGit = join(folder, '.git');
    let gitDir: string | undefined;
    try {
      if (statSync(dotGit).isDirectory()) gitDir = dotGit;
      else {
        const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '')?.[1];
        if (pointer !== undefined) gitDir = resolve(folder, pointer);
      }
    } catch {
      gitDir = undefined;
    }
    if (gitDir !== undefined && readText(join(gitDir, 'HEAD')) !== undefined) {
      // A layout someone rewrote (a commondir or a .git file naming another repository) is not followed.
      const wrong = judgeRepositoryLayout(gitDir, folder);
      if (wrong !== undefined) throw new RepositoryLayoutError('E_GIT_LAYOUT', `holdfast does not run git in this repository: ${wrong}`);
      const common = readText(join(gitDir, 'commondir'))?.trim();
      const commonDir = common === undefined || common === '' ? gitDir : resolve(gitDir, common);
      return { top: folder, gitDir, commonDir };
    }
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/**
 * Refs a call may move without the after-call check judging it: copies of other repositories'
 * branches (a fetch brings a colleague's work in; what a branch of ours takes from them is judged
 * there), notes (no checkout reads them), and replace refs (the reference-transaction hook refuses
 * them; the gate's git never honours one). Every other ref, in any namespace (`refs/keep/`,
 * `refs/wip/`, `refs/stash`), is one a checkout, merge or push can later use.
 */
const UNWATCHED_REFS = ['refs/remotes/', 'refs/notes/', 'refs/replace/'];

export function isWatchedRef(name: string): boolean {
  return name.startsWith('refs/') && !UNWATCHED_REFS.some((prefix) => name.startsWith(prefix));
}

/**
 * A file or folder name git reads as part of a ref name: not a lock (`main.lock`, which git writes
 * with the new value while a transaction is prepared) and not hidden (git's check_refname_format).
 */
function refNameComponent(name: string): boolean {
  return !name.startsWith('.') && !name.endsWith('.lock');
}

function collectLooseRefs(commonDir: string, folder: string, refs: Record<string, string>): void {
  let entries;
  try {
    entries = readdirSync(join(commonDir, folder), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!refNameComponent(entry.name)) continue;
    const name = `${folder}${entry.name}`;
    if (entry.isDirectory()) {
      if (isWatchedRef(`${name}/`)) collectLooseRefs(commonDir, `${name}/`, refs);
    } else if (isWatchedRef(name)) {
      const id = readText(join(commonDir, name))?.trim();
      if (id !== undefined && OBJECT_ID.test(id)) refs[name] = id;
    }
  }
}

/**
 * Ref tips read from the files git keeps them in (packed-refs, then loose refs over them),
 * which costs no process; a reftable repository is asked through git.
 */
function readRefs(location: RepoLocation): Record<string, string> {
  const refs: Record<string, string> = {};
  if (existsSync(join(location.commonDir, 'reftable'))) {
    const output = runGit(['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/'], { cwd: location.top, gitDir: location.gitDir });
    for (const line of output.toString('utf8').split('\n')) {
      const [name, id] = line.split('\0');
      if (name !== undefined && id !== undefined && isWatchedRef(name)) refs[name] = id;
    }
    return refs;
  }
  for (const line of (readText(join(location.commonDir, 'packed-refs')) ?? '').split('\n')) {
    const match = /^([0-9a-f]{40,64}) (refs\/\S+)$/.exec(line);
    if (match !== null && isWatchedRef(match[2] as string)) refs[match[2] as string] = match[1] as string;
  }
  collectLooseRefs(location.commonDir, 'refs/', refs);
  return refs;
}

/**
 * Replace refs (`refs/replace/*`), name → object id, read from the files like readRefs. They are not
 * among RepoState's refs (a call's replace ref brings no commit to judge); the between-calls check
 * (refs-between-calls.ts) removes one that appeared outside git, where the reference-transaction hook
 * that refuses `git replace` never ran.
 */
export function readReplaceRefs(location: RepoLocation): Record<string, string> {
  const refs: Record<string, string> = {};
  if (existsSync(join(location.commonDir, 'reftable'))) {
    const output = runGit(['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/replace/'], { cwd: location.top, gitDir: location.gitDir });
    for (const line of output.toString('utf8').split('\n')) {
      const [name, id] = line.split('\0');
      if (name !== undefined && id !== undefined && name.startsWith('refs/replace/')) refs[name] = id;
    }
    return refs;
  }
  for (const line of (readText(join(location.commonDir, 'packed-refs')) ?? '').split('\n')) {
    const match = /^([0-9a-f]{40,64}) (refs\/replace\/\S+)$/.exec(line);
    if (match !== null) refs[match[2] as string] = match[1] as string;
  }
  const collect = (folder: string): void => {
    let entries;
    try {
      entries = readdirSync(join(location.commonDir, folder), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!refNameComponent(entry.name)) continue;
      const name = `${folder}${entry.name}`;
      if (entry.isDirectory()) collect(`${name}/`);
      else {
        const id = readText(join(location.commonDir, name))?.trim();
        if (id !== undefined && OBJECT_ID.test(id)) refs[name] = id;
      }
    }
  };
  collect('refs/replace/');
  return refs;
}

/** The state of the repository that holds root, or null when root is not in one. */
export function readRepoState(root: string): RepoState | null {
  const location = locateRepo(root);
  if (location === undefined) return null;
  const refs = readRefs(location);
  const head = (readText(join(location.gitDir, 'HEAD')) ?? '').trim();
  const symbolic = /^ref:\s*(\S+)$/.exec(head)?.[1];
  if (symbolic !== undefined) return { ...location, headRef: symbolic, headCommit: refs[symbolic] ?? null, refs };
  return { ...location, headRef: null, headCommit: OBJECT_ID.test(head) ? head : null, refs };
}

/** A ref the call moved or created, and the commits it gained that no ref had before. */
export interface MovedRef {
  /** `refs/heads/main`, `refs/tags/v1`, or `HEAD` for a detached HEAD. */
  readonly ref: string;
  readonly before: string | null;
  readonly after: string;
  /** Oldest first. */
  readonly commits: readonly NewCommit[];
}

export interface NewCommit {
  readonly id: string;
  readonly parents: readonly string[];
  readonly subject: string;
}

function newCommits(repo: RepoState, tip: string, known: readonly string[]): NewCommit[] {
  const output = runGit(['rev-list', '--reverse', '--topo-order', '--parents', '--format=%s', tip, '--not', ...known, '--'], {
    cwd: repo.top,
    gitDir: repo.gitDir,
  }).toString('utf8');
  const commits: NewCommit[] = [];
  const lines = output.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const header = /^commit ([0-9a-f]+)((?: [0-9a-f]+)*)$/.exec(lines[index] ?? '');
    if (header === null) continue;
    const parents = (header[2] ?? '')
      .trim()
      .split(' ')
      .filter((parent) => parent !== '');
    commits.push({ id: header[1] as string, parents, subject: lines[index + 1] ?? '' });
    index += 1;
  }
  return commits;
}

/** Of `ids`, those that name a commit or a tag of one, as the commit (a ref in a namespace of its own may hold a blob or a tree). */
function commitsOf(repo: RepoState, ids: readonly string[]): Map<string, string> {
  const commits = new Map<string, string>();
  if (ids.length === 0) return commits;
  const output = runGit(['cat-file', '--batch-check'], { cwd: repo.top, gitDir: repo.gitDir, input: `${ids.map((id) => `${id}^{commit}`).join('\n')}\n` });
  output
    .toString('utf8')
    .split('\n')
    .slice(0, ids.length)
    .forEach((line, index) => {
      const [id, type] = line.split(' ');
      if (type === 'commit' && id !== undefined) commits.set(ids[index] as string, id);
    });
  return commits;
}

/** Refs in every watched namespace and a detached HEAD the call moved, each with the commits it brought in. */
export function movedRefs(before: RepoState, after: RepoState): MovedRef[] {
  const changed = Object.entries(after.refs).filter(([ref, id]) => (before.refs[ref] ?? null) !== id);
  const headMoved = after.headRef === null && after.headCommit !== null && after.headCommit !== before.headCommit;
  if (changed.length === 0 && !headMoved) return [];
  const values = [...new Set([...Object.values(before.refs), ...changed.map(([, id]) => id), ...(before.headCommit === null ? [] : [before.headCommit])])];
  const commits = commitsOf(after, values);
  const known = [
    ...new Set([...Object.values(before.refs), ...(before.headCommit === null ? [] : [before.headCommit])].flatMap((id) => commits.get(id) ?? [])),
  ];
  const moved: MovedRef[] = [];
  for (const [ref, id] of changed) {
    const tip = commits.get(id);
    if (tip !== undefined) moved.push({ ref, before: before.refs[ref] ?? null, after: id, commits: newCommits(after, tip, known) });
  }
  if (headMoved && after.headCommit !== null) {
    moved.push({ ref: 'HEAD', before: before.headCommit, after: after.headCommit, commits: newCommits(after, after.headCommit, known) });
  }
  return moved.filter((entry) => entry.commits.length > 0);
}

/** A path of the repository (relative to its top) as the gate names it: relative to the project root. */
export function rootRelative(repo: RepoLocation, root: string, repoPath: string): string {
  return toSlashes(relative(resolve(root), join(repo.top, repoPath)));
}

export interface CommitChange {
  /** Relative to the repository top. */
  readonly repoPath: string;
  readonly status: 'write' | 'delete';
  /** What a checkout of the commit gives back for the path (its `.gitattributes` applied, a link's target); undefined for a delete. */
  readonly read: CheckoutRead | undefined;
}

/** What one commit changed against its first parent (everything, for a root commit), each file as a checkout of it writes it. */
export function commitChanges(repo: RepoState, commit: NewCommit): CommitChange[] {
  const range = commit.parents.length === 0 ? ['--root', commit.id] : [commit.parents[0] as string, commit.id];
  const fields = runGit(['diff-tree', '-r', '--no-renames', '--no-commit-id', '-z', ...range], { cwd: repo.top, gitDir: repo.gitDir })
    .toString('utf8')
    .split('\0');
  const changes: { repoPath: string; status: 'write' | 'delete'; mode: string; blob: string }[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const meta = (fields[index] as string).split(' ');
    const status = meta[4] ?? '';
    const mode = status === 'D' ? (meta[0] ?? '').replace(/^:/, '') : (meta[1] ?? '');
    changes.push({ repoPath: fields[index + 1] as string, status: status === 'D' ? 'delete' : 'write', mode, blob: meta[3] ?? '' });
  }
  // A commit that writes or deletes a `.gitattributes` re-encodes files it left alone: each is judged as a checkout of
  // the commit writes it, as the git hooks and verify judge it (a key stored as noise, decoded only by the new line).
  const options = { cwd: repo.top, gitDir: repo.gitDir };
  const reencoded = reencodedEntries(
    options,
    commit.parents[0],
    commit.id,
    changes.map((change) => ({ path: change.repoPath })),
  ).map((entry) => ({ repoPath: entry.path, status: 'write' as const, mode: entry.mode, blob: entry.blob }));
  const judged = [...changes, ...reencoded].filter((change) => change.mode !== '160000');
  const reads = readCheckoutEntries(
    options,
    commit.id,
    judged.flatMap((change) => (change.status === 'write' ? [{ path: change.repoPath, mode: change.mode, blob: change.blob }] : [])),
  );
  return judged.map((change) => ({
    repoPath: change.repoPath,
    status: change.status,
    read: change.status === 'write' ? reads.get(change.repoPath) : undefined,
  }));
}

/** Contents of many objects in one `git cat-file --batch`; a missing one is left out. */
export function readBlobs(location: { top: string; gitDir: string }, names: readonly string[], cwd = location.top): Map<string, string> {
  const contents = new Map<string, string>();
  for (const [name, read] of readDecodedBlobs(location, names, cwd)) contents.set(name, read.text);
  return contents;
}

/** Like readBlobs, each content with whether it decoded as text. */
function readDecodedBlobs(location: { top: string; gitDir: string }, names: readonly string[], cwd = location.top): Map<string, BlobText> {
  const contents = new Map<string, BlobText>();
  if (names.length === 0) return contents;
  const usable = names.filter((name) => !name.includes('\n'));
  const output = runGit(['cat-file', '--batch'], { cwd, gitDir: location.gitDir, input: `${usable.join('\n')}\n` });
  let offset = 0;
  for (const name of usable) {
    const end = output.indexOf(0x0a, offset);
    if (end < 0) break;
    const header = output.subarray(offset, end).toString('utf8');
    offset = end + 1;
    const size = /^\S+ \S+ (\d+)$/.exec(header)?.[1];
    if (size === undefined) continue;
    const length = Number(size);
    contents.set(name, blobText(output.subarray(offset, offset + length)));
    offset += length + 1;
  }
  return contents;
}

/** Every file path in a commit's tree, relative to the repository top. */
export function commitPaths(repo: RepoState, commit: string): string[] {
  return runGit(['ls-tree', '-r', '-z', '--name-only', commit], { cwd: repo.top, gitDir: repo.gitDir })
    .toString('utf8')
    .split('\0')
    .filter((path) => path !== '');
}

/** Sets index entries back to a commit's (removes them when there is none); false when git refused. */
function resetIndex(repo: RepoState, target: string | null, paths: readonly string[]): boolean {
  if (paths.length === 0) return true;
  const options = { cwd: repo.top, gitDir: repo.gitDir, workTree: repo.top, input: `${paths.join('\0')}\0` };
  const result =
    target === null
      ? tryGit(['rm', '--cached', '-f', '-q', '-r', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], options)
      : tryGit(['reset', '-q', target, '--pathspec-from-file=-', '--pathspec-file-nul'], options);
  return result.status === 0;
}

export interface RefMoveBack {
  /** False when the ref could not be moved (it moved again meanwhile, or a detached HEAD had nothing before). */
  readonly movedBack: boolean;
  /** False when the paths the undone commits touched could not be unstaged. */
  readonly indexReset: boolean;
}

/**
 * Moves a ref back to where it was before the call (deletes it if the call created it), only if it
 * still points where the call left it. When it is the branch HEAD is on, the paths the undone commits
 * touched are unstaged too, so their content stays in the work tree but not in the index.
 */
export function moveRefBack(repo: RepoState, moved: MovedRef, unstage: readonly string[]): RefMoveBack {
  const message = 'holdfast: undo commits a tool call made that broke the rulebook';
  const options = { cwd: repo.top, gitDir: repo.gitDir };
  let result;
  if (moved.ref === 'HEAD') {
    if (moved.before === null) return { movedBack: false, indexReset: true };
    result = tryGit(['update-ref', '--no-deref', '-m', message, 'HEAD', moved.before, moved.after], options);
  } else if (moved.before === null) {
    result = tryGit(['update-ref', '-m', message, '-d', moved.ref, moved.after], options);
  } else {
    result = tryGit(['update-ref', '-m', message, moved.ref, moved.before, moved.after], options);
  }
  if (result.status !== 0) return { movedBack: false, indexReset: true };
  const onHead = moved.ref === 'HEAD' || moved.ref === repo.headRef;
  return { movedBack: true, indexReset: !onHead || resetIndex(repo, moved.before, unstage) };
}

/**
 * Puts HEAD back on the branch it was on before a call (`before.headRef`), after the gate moved back the ref the
 * call had pointed it at, and sets the index entries of the undone commits' paths to that branch's commit, so
 * their content stays in the work tree but is not staged. False when git refused either step.
 */
export function putHeadBack(before: RepoState, after: RepoState, paths: readonly string[]): boolean {
  if (before.headRef === null) return false;
  const moved = tryGit(['symbolic-ref', '-m', 'holdfast: put HEAD back on its branch after undoing a tool call', 'HEAD', before.headRef], {
    cwd: after.top,
    gitDir: after.gitDir,
  });
  return moved.status === 0 && resetIndex(after, before.headCommit, paths);
}

/** A path the gate put back in the work tree, and the content it refused (null: the call deleted the file). */
export interface RefusedPath {
  readonly repoPath: string;
  readonly refusedBlob: string | null;
}

/**
 * Takes refused content out of the user's index too: a script's `git add` would otherwise leave it
 * staged for the next commit. An entry is reset to HEAD only where it holds exactly the refused
 * content (or, for a refused delete, where the file is gone from the index); other staging stays.
 * Returns the paths git would not unstage.
 */
export function unstageRefused(repo: RepoState, refused: readonly RefusedPath[]): string[] {
  if (refused.length === 0) return [];
  const options = { cwd: repo.top, gitDir: repo.gitDir, workTree: repo.top };
  const staged = new Map<string, string>();
  for (let start = 0; start < refused.length; start += 500) {
    const paths = refused.slice(start, start + 500).map((entry) => entry.repoPath);
    const listing = runGit(['ls-files', '-s', '-z', '--', ...paths], options).toString('utf8');
    for (const record of listing.split('\0')) {
      const match = /^\d+ ([0-9a-f]+) \d\t(.*)$/s.exec(record);
      if (match !== null) staged.set(match[2] as string, match[1] as string);
    }
  }
  const unstage = refused
    .filter((entry) => (entry.refusedBlob === null ? !staged.has(entry.repoPath) : staged.get(entry.repoPath) === entry.refusedBlob))
    .map((entry) => entry.repoPath);
  return resetIndex(repo, repo.headCommit, unstage) ? [] : unstage;
}
