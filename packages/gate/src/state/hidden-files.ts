import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { removeFile, withTemporaryName, writeAtomically } from '../io/index.js';
import { readBlobs } from './repo-state.js';
import { runGit } from '../io/index.js';
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

export function isIgnoreFile(path: string): boolean {
  return posix.basename(path) === IGNORE_FILE;
}

export interface Context {
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

/** What git ignores now (one git process). */
export function ignoredNow(context: Context): IgnoredBefore {
  return { entries: nulList(ignoredListing(context)) };
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
  /** What is ignored now, read only when asked (the session's own ignore rules need it, see session-ignores.ts). */
  readonly ignoredNow: () => IgnoredBefore;
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
    ignoredNow: () => ({ entries: nulList(listing) }),
  };
}

function wasIgnored(ignored: IgnoredBefore, path: string): boolean {
  return ignored.entries.some((entry) => entry === path || (entry.endsWith('/') && path.startsWith(entry)));
}

/** The `.gitignore` files of a snapshot (path → blob), from an index of the store or a tree. */
function ignoreFilesOf(context: Context, snapshot: { readonly index?: string; readonly tree?: string }): Map<string, string> {
  const files = new Map<string, string>();
  const entries =
    snapshot.index !== undefined
      ? nulList(git(context, ['ls-files', '-s', '-z'], join(context.store, snapshot.index)))
      : nulList(git(context, ['ls-tree', '-r', '-z', snapshot.tree ?? '']));
  for (const entry of entries) {
    const tab = entry.indexOf('\t');
    const path = entry.slice(tab + 1);
    if (!isIgnoreFile(path)) continue;
    // ls-files -s: "<mode> <blob> <stage>"; ls-tree: "<mode> blob <blob>".
    const fields = entry.slice(0, tab).split(' ');
    const blob = snapshot.index !== undefined ? fields[1] : fields[2];
    if (blob !== undefined) files.set(path, blob);
  }
  return files;
}

/** The texts of a snapshot's `.gitignore` files (path → text), read from the store. */
export function ignoreTextsOf(context: Context, snapshot: { readonly index?: string; readonly tree?: string }): Map<string, string> {
  const files = ignoreFilesOf(context, snapshot);
  const contents = readBlobs({ top: context.root, gitDir: context.store }, [...files.values()], context.root);
  return new Map([...files].map(([path, blob]) => [path, contents.get(blob) ?? '']));
}

/** `.gitignore` texts (path → text) as one exclude file, shallow folders first so deeper ones override. */
export function rulesText(texts: ReadonlyMap<string, string>): string {
  const files = [...texts].sort(([left], [right]) => left.split('/').length - right.split('/').length || (left < right ? -1 : 1));
  const rules: string[] = [];
  for (const [path, text] of files) rules.push(...rulesFromTop(posix.dirname(path) === '.' ? '' : posix.dirname(path), text));
  return `${rules.join('\n')}\n`;
}

/** A file in the work tree that an index does not hold; `link`: a symbolic link. */
export interface UnheldFile {
  readonly path: string;
  readonly link: boolean;
}

/**
 * The files (and links) not in `indexFile` that the store's excludes and
 * `rules` (one exclude file's text) would show, only below `folders` when given.
 */
export function filesShownUnder(context: Context, rules: string, indexFile: string, folders?: readonly string[]): UnheldFile[] {
  const candidates = withTemporaryName(join(context.store, 'rules-before'), (rulesFile) => {
    writeFileSync(rulesFile, rules, { flag: 'wx' });
    try {
      const excludes = [join(context.store, 'info', 'exclude'), rulesFile].map((file) => `--exclude-from=${file}`);
      const pathspecs = folders === undefined ? [] : ['--', ...folders];
      return nulList(git(context, ['ls-files', '-z', '--others', ...excludes, ...pathspecs], indexFile));
    } finally {
      removeFile(rulesFile);
    }
  });
  const files: UnheldFile[] = [];
  for (const path of candidates) {
    try {
      const stats = lstatSync(join(context.root, path));
      if (stats.isFile() || stats.isSymbolicLink()) files.push({ path, link: stats.isSymbolicLink() });
    } catch {
      // gone again since git listed it
    }
  }
  return files;
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
  const shown = filesShownUnder(context, rulesText(ignoreTextsOf(context, before)), indexFile);
  return storedAsHidden(
    context,
    shown.filter((file) => !wasIgnored(ignoredBefore, file.path)),
  );
}

/** The files with their content written to the store (a link's target, as git keeps links), as added changes. */
export function storedAsHidden(context: Context, files: readonly UnheldFile[]): TreeChange[] {
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
