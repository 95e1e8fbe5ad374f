import type { Action } from '@holdfast/core/contract';
import { HoldfastError } from '@holdfast/core/contract';
import { gitProcess, nulFields, nulPaths, readCheckoutEntries, reencodedEntries } from '../io/index.js';
import { checkoutAction } from '../decide/index.js';
import type { FinishedProcess } from '../io/index.js';

/** git could not read a commit, a tree or a blob the gate must judge; the caller refuses (fails closed). */
export class CommitReadError extends HoldfastError {}

/** A change between two trees as the rulebook judges a round: the files it writes or deletes, and what existed before. */
export interface TreeChange {
  /** A write (with the new content) for an added or modified file, a delete for a removed one; renames are delete + add. */
  readonly actions: readonly Action[];
  /** Paths in the tree before the change, so a file the change adds is a new module. */
  readonly existedBefore: readonly string[];
  /** Written paths whose bytes are not text (path to why), refused where a content rule reaches them. */
  readonly undecodable: ReadonlyMap<string, string>;
  /** Written symbolic links that leave the repository or point into .git/ (path to why), refused whatever the rulebook. */
  readonly links: ReadonlyMap<string, string>;
}

/** Where and how the gate runs git to read commits: the repository's folder and the environment git gave the hook. */
export interface GitReader {
  readonly cwd: string;
  /** The hook's environment: only where git said the repository is (GIT_DIR, a push's quarantine) is taken from it. */
  readonly env: NodeJS.ProcessEnv;
  /** Reads configuration only, the user's and system's files included (doctor reports what git will do). */
  readonly userConfig?: boolean;
}

/** How the gate's git is run for a reader: in its folder, with only where git said the repository is taken from the hook's environment. */
function gitOptions(reader: GitReader): { readonly cwd: string; readonly hookLocation: NodeJS.ProcessEnv } {
  return { cwd: reader.cwd, hookLocation: { ...reader.env, GIT_INDEX_FILE: undefined } };
}

function run(reader: GitReader, args: readonly string[], input?: string): FinishedProcess {
  return gitProcess(args, {
    ...gitOptions(reader),
    ...(input !== undefined ? { input } : {}),
    ...(reader.userConfig === true ? { configOnly: true, userConfig: true } : {}),
  });
}

/** git's stdout, or a CommitReadError naming the command and git's first line of complaint. */
export function readGit(reader: GitReader, args: readonly string[], input?: string): Buffer {
  let result: FinishedProcess;
  try {
    result = run(reader, args, input);
  } catch (error) {
    throw new CommitReadError('E_GIT_READ', (error as Error).message, { cause: error });
  }
  if (result.error !== undefined || result.status !== 0) {
    const said = result.error?.message ?? result.stderr.toString('utf8').trim().split('\n')[0] ?? '';
    throw new CommitReadError('E_GIT_READ', `git ${args.slice(0, 2).join(' ')} failed (exit ${String(result.status)}): ${said}`);
  }
  return result.stdout;
}

/**
 * git's stdout, or undefined when git says no (an object that is not there, a ref that does not
 * resolve). A repository whose layout the gate does not follow is not a "no": that throws.
 */
export function tryReadGit(reader: GitReader, args: readonly string[], input?: string): Buffer | undefined {
  let result: FinishedProcess;
  try {
    result = run(reader, args, input);
  } catch (error) {
    throw new CommitReadError('E_GIT_READ', (error as Error).message, { cause: error });
  }
  return result.error === undefined && result.status === 0 ? result.stdout : undefined;
}

interface RawEntry {
  readonly path: string;
  readonly status: string;
  /** The blob after the change; undefined for a deletion. */
  readonly blob: string | undefined;
  /** The mode after the change: `120000` a link, `160000` a submodule (no content of its own to judge). */
  readonly mode: string;
}

/** `git diff-tree -r -z --raw --no-renames` (or `git diff --cached --raw -z`) output: `:old new oldsha newsha S\0path\0` per file. */
export function rawEntries(output: Buffer): RawEntry[] {
  const fields = nulFields(output);
  const entries: RawEntry[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const header = fields[index] as string;
    const path = fields[index + 1] as string;
    if (!header.startsWith(':')) {
      // the commit id diff-tree prints first when given one commit: not an entry
      index -= 1;
      continue;
    }
    const [, newMode, , newBlob, status] = header.slice(1).split(' ');
    const deleted = (status ?? '').startsWith('D');
    entries.push({ path, status: status ?? '', blob: deleted ? undefined : newBlob, mode: newMode ?? '' });
  }
  return entries;
}

/**
 * The entries of a change from `from` to `treeish` as a round's actions, each written file read as a
 * checkout of `treeish` gives it back (its own `.gitattributes` applied; '' is the index, `options`
 * naming which), links judged where they point, and each file the change left as it was but re-encodes
 * through a `.gitattributes` it wrote (reencodedEntries) added as a write. Submodules are left out.
 */
export function checkoutActions(
  options: Parameters<typeof readCheckoutEntries>[0],
  from: string | undefined,
  treeish: string,
  entries: readonly RawEntry[],
): Pick<TreeChange, 'actions' | 'undecodable' | 'links'> {
  const judged = entries.filter((entry) => entry.mode !== '160000');
  const reencoded = reencodedEntries(options, from, treeish, judged);
  const reads = readCheckoutEntries(options, treeish, [
    ...judged.flatMap((entry) => (entry.blob === undefined ? [] : [{ path: entry.path, mode: entry.mode, blob: entry.blob }])),
    ...reencoded,
  ]);
  const undecodable = new Map<string, string>();
  const links = new Map<string, string>();
  const actions = [...judged, ...reencoded].map((entry): Action => {
    const read = entry.blob === undefined ? undefined : reads.get(entry.path);
    if (read === undefined) return { type: 'delete', path: entry.path };
    return checkoutAction(entry.path, read, undecodable, links);
  });
  return { actions, undecodable, links };
}

function actionsOf(
  reader: GitReader,
  from: string | undefined,
  commit: string,
  entries: readonly RawEntry[],
): Pick<TreeChange, 'actions' | 'undecodable' | 'links'> {
  try {
    return checkoutActions(gitOptions(reader), from, commit, entries);
  } catch (error) {
    if (error instanceof CommitReadError) throw error;
    throw new CommitReadError('E_GIT_READ', (error as Error).message, { cause: error });
  }
}

/** Every path of a tree (a commit or tree id). */
function treePaths(reader: GitReader, tree: string): string[] {
  return nulPaths(readGit(reader, ['ls-tree', '-r', '--name-only', '-z', tree]));
}

/** The change from one tree to another (`git diff-tree from to`), judged like a staged change. */
function treeChange(reader: GitReader, from: string, to: string): TreeChange {
  const entries = rawEntries(readGit(reader, ['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-commit-id', from, to]));
  return { ...actionsOf(reader, from, to, entries), existedBefore: treePaths(reader, from) };
}

/** A merge's whole change against its first parent: everything it brings onto that branch. */
export function mergeChange(reader: GitReader, merge: string, firstParent: string): TreeChange {
  return treeChange(reader, firstParent, merge);
}

/** A commit's parents, first parent first; none for a root commit. */
function commitParents(reader: GitReader, commit: string): string[] {
  const line = readGit(reader, ['rev-list', '--parents', '-n', '1', commit, '--']).toString('utf8').trim();
  return line.split(' ').slice(1);
}

/**
 * What a commit itself changed. A root commit: every file it holds. One parent: its diff against it.
 * A merge: only the paths whose result differs from every parent (what the merge itself wrote, as
 * `git diff --cc` shows it); the merged commits are judged as commits of their own, so a merge of a
 * clean branch into one that moved on is not charged with the other side's changes.
 */
export function commitChange(reader: GitReader, commit: string, parents: readonly string[] = commitParents(reader, commit)): TreeChange {
  if (parents.length === 0) {
    const entries = rawEntries(readGit(reader, ['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-commit-id', '--root', commit]));
    return { ...actionsOf(reader, undefined, commit, entries), existedBefore: [] };
  }
  if (parents.length === 1) return treeChange(reader, parents[0] as string, commit);
  const perParent = parents.map(
    (parent) =>
      new Map(
        rawEntries(readGit(reader, ['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-commit-id', parent, commit])).map((entry) => [entry.path, entry]),
      ),
  );
  const [first, ...others] = perParent as [Map<string, RawEntry>, ...Map<string, RawEntry>[]];
  const own = [...first.values()].filter((entry) => others.every((changes) => changes.has(entry.path)));
  const existed = new Set<string>();
  for (const parent of parents) for (const path of treePaths(reader, parent)) existed.add(path);
  return { ...actionsOf(reader, parents[0], commit, own), existedBefore: [...existed] };
}
