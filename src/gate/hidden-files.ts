import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { removeFile, withTemporaryName, writeAtomically } from './atomic-file.js';
import { readBlobs } from './repo-state.js';
import { runGit, tryGit } from './git-process.js';
import type { TreeChange } from './snapshot-store.js';

/**
 * Files a shell call created and hid behind ignore rules it wrote itself. The after-the-fact check
 * snapshots with `git add -A`, which honours every `.gitignore` in the work tree as it is *after* the
 * call: a command that writes `src/.gitignore` (even one that ignores itself) next to the file it
 * hides would pass unseen. When the ignore rules may have changed, the work tree is listed once more
 * under the rules as they were before the call, and every file that shows there, is not in the
 * snapshot, and was not already among the ignored files at the last check is judged like any other
 * new file. (File times cannot say what is new: two files written in that order can carry times in
 * the other order.)
 */

/** In the store: git's list of ignored entries after the last check; a change means the rules may have changed. */
const IGNORED_LISTING = 'ignored-listing';

const IGNORE_FILE = '.gitignore';

/**
 * A `.gitignore` of folder `folder` as patterns of one exclude file read from the top: a pattern
 * with a slash is anchored to its folder, one without matches at any depth below it (`folder/**∕x`);
 * negation and a trailing slash (folders only) keep their meaning.
 */
export function rulesFromTop(folder: string, text: string): string[] {
  const rules: string[] = [];
  for (const raw of text.split('\n')) {
    const line = withoutTrailingSpaces(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    if (line === '' || line.startsWith('#')) continue;
    if (folder === '') {
      rules.push(line);
      continue;
    }
    const negated = line.startsWith('!');
    const pattern = negated ? line.slice(1) : line;
    const anchored = pattern.replace(/\/$/, '').includes('/');
    const rooted = anchored ? `/${folder}/${pattern.replace(/^\//, '')}` : `/${folder}/**/${pattern}`;
    rules.push(`${negated ? '!' : ''}${rooted}`);
  }
  return rules;
}

/** Git drops trailing spaces unless the last is escaped (`\\ `); a loop, as a regex would be quadratic on a long run of spaces. */
function withoutTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') end -= 1;
  if (end < line.length && end > 0 && line[end - 1] === '\\') end += 1;
  return line.slice(0, end);
}

function isIgnoreFile(path: string): boolean {
  return posix.basename(path) === IGNORE_FILE;
}

interface Context {
  readonly root: string;
  readonly store: string;
}

function git(context: Context, args: readonly string[], indexFile?: string, input?: string): Buffer {
  return runGit(args, {
    cwd: context.root,
    gitDir: context.store,
    workTree: context.root,
    ...(indexFile === undefined ? {} : { indexFile }),
    ...(input === undefined ? {} : { input }),
  });
}

function nulList(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry !== '');
}

function ignoredListing(context: Context): Buffer {
  return git(context, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']);
}

/**
 * Keeps what is ignored when the store is made (in the store being built, `building`), so the first
 * check already knows which ignored files were there before any call: one git process per project.
 */
export function keepIgnoredListing(root: string, building: string): void {
  writeFileSync(join(building, IGNORED_LISTING), ignoredListing({ root, store: building }));
}

/** What the last check saw ignored: paths, and folders (ending in `/`) ignored as a whole. */
export interface IgnoredBefore {
  readonly entries: readonly string[];
}

/**
 * Whether the ignore rules may have changed in this call, and what was ignored at the last check
 * (undefined for a store an earlier holdfast made: the first check lists it, judging nothing hidden).
 */
export interface IgnoreCheck {
  readonly mayHaveChanged: boolean;
  readonly ignoredBefore: IgnoredBefore | undefined;
}

/**
 * Whether the ignore rules may differ from the last check's: a `.gitignore` the snapshot saw change,
 * or git's list of ignored entries (folders as one entry) different from the one kept last time — a
 * new `.gitignore` that ignores itself only shows there. One git process on every check.
 */
export function checkIgnoreRules(context: Context, changes: readonly TreeChange[]): IgnoreCheck {
  const listing = ignoredListing(context);
  const kept = join(context.store, IGNORED_LISTING);
  let previous: Buffer | undefined;
  try {
    previous = readFileSync(kept);
  } catch {
    previous = undefined;
  }
  const listingChanged = previous === undefined || !previous.equals(listing);
  if (listingChanged) writeAtomically(kept, listing);
  return {
    mayHaveChanged: listingChanged || changes.some((change) => isIgnoreFile(change.path)),
    ignoredBefore: previous === undefined ? undefined : { entries: nulList(previous) },
  };
}

function wasIgnored(ignored: IgnoredBefore, path: string): boolean {
  return ignored.entries.some((entry) => entry === path || (entry.endsWith('/') && path.startsWith(entry)));
}

/** The `.gitignore` files of the before-snapshot (path → blob), from its index or its tree. */
function ignoreFilesBefore(context: Context, before: { readonly index?: string; readonly tree?: string }): Map<string, string> {
  const files = new Map<string, string>();
  const entries =
    before.index !== undefined
      ? nulList(git(context, ['ls-files', '-s', '-z'], join(context.store, before.index)))
      : nulList(git(context, ['ls-tree', '-r', '-z', before.tree ?? '']));
  for (const entry of entries) {
    const tab = entry.indexOf('\t');
    const path = entry.slice(tab + 1);
    if (!isIgnoreFile(path)) continue;
    // ls-files -s: "<mode> <blob> <stage>"; ls-tree: "<mode> blob <blob>".
    const fields = entry.slice(0, tab).split(' ');
    const blob = before.index !== undefined ? fields[1] : fields[2];
    if (blob !== undefined) files.set(path, blob);
  }
  return files;
}

/** The before-snapshot's ignore rules as one exclude file, shallow folders first so deeper ones override. */
function rulesBefore(context: Context, before: { readonly index?: string; readonly tree?: string }): string {
  const files = [...ignoreFilesBefore(context, before)].sort(([left], [right]) => left.split('/').length - right.split('/').length || (left < right ? -1 : 1));
  const contents = readBlobs(
    { top: context.root, gitDir: context.store },
    files.map(([, blob]) => blob),
    context.root,
  );
  const rules: string[] = [];
  for (const [path, blob] of files) rules.push(...rulesFromTop(posix.dirname(path) === '.' ? '' : posix.dirname(path), contents.get(blob) ?? ''));
  return `${rules.join('\n')}\n`;
}

/** The user's own ignore file (core.excludesFile, else git's default place), which the rules before the call include. */
function userExcludes(context: Context): string | undefined {
  const configured = tryGit(['config', '--path', '--get', 'core.excludesFile'], { cwd: context.root, gitDir: context.store });
  const home = process.env.HOME ?? '';
  const path =
    configured.status === 0 ? configured.stdout.toString('utf8').trim() : join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'git', 'ignore');
  return path !== '' && existsSync(path) ? path : undefined;
}

/**
 * Files not in the snapshot (`indexFile`, the work tree after the call) that the ignore rules of
 * before the call would have shown, as added changes with their content stored. A file the last check
 * saw ignored was hidden before the call too (by rules the snapshot does not hold, such as a
 * `.gitignore` that ignores itself) and is left alone.
 */
export function filesHiddenByNewRules(
  context: Context,
  before: { readonly index?: string; readonly tree?: string },
  indexFile: string,
  ignoredBefore: IgnoredBefore,
): TreeChange[] {
  const rules = rulesBefore(context, before);
  const own = userExcludes(context);
  const candidates = withTemporaryName(join(context.store, 'rules-before'), (rulesFile) => {
    writeFileSync(rulesFile, rules, { flag: 'wx' });
    try {
      const excludes = [join(context.store, 'info', 'exclude'), ...(own === undefined ? [] : [own]), rulesFile].map((file) => `--exclude-from=${file}`);
      return nulList(git(context, ['ls-files', '-z', '--others', ...excludes], indexFile));
    } finally {
      removeFile(rulesFile);
    }
  });
  const hidden: { path: string; link: boolean }[] = [];
  for (const path of candidates) {
    if (wasIgnored(ignoredBefore, path)) continue;
    try {
      const stats = lstatSync(join(context.root, path));
      if (stats.isFile() || stats.isSymbolicLink()) hidden.push({ path, link: stats.isSymbolicLink() });
    } catch {
      // gone again since git listed it
    }
  }
  return hashed(context, hidden);
}

/** The files with their content written to the store (a link's target, as git keeps links), as added changes. */
function hashed(context: Context, files: readonly { path: string; link: boolean }[]): TreeChange[] {
  const named = files.filter((file) => !file.path.includes('\n'));
  if (named.length === 0) return files.map((file) => ({ path: file.path, status: 'added', from: null, to: null, hidden: true }));
  const ids = git(context, ['hash-object', '-w', '--no-filters', '--stdin-paths'], undefined, `${named.map((file) => file.path).join('\n')}\n`)
    .toString('utf8')
    .split('\n');
  const blobOf = new Map(named.map((file, index) => [file.path, ids[index] ?? null]));
  return files.map((file) => ({
    path: file.path,
    status: 'added',
    from: null,
    to: blobOf.get(file.path) ?? null,
    hidden: true,
    ...(file.link ? { link: true } : {}),
  }));
}
