import { entriesUnder } from './checkout-blobs.js';
import type { CheckoutEntry } from './checkout-blobs.js';
import { attributeFolders, checkoutAttributes, parseGitAttributes } from './git-attributes.js';
import type { AttributeFile } from './git-attributes.js';
import { SnapshotError, runGit } from './git-process.js';
import type { GitOptions } from './git-process.js';

const ATTRIBUTES = '.gitattributes';

function isAttributesFile(path: string): boolean {
  return path === ATTRIBUTES || path.endsWith(`/${ATTRIBUTES}`);
}

/** `<treeish>:<folder>/.gitattributes`; an empty treeish names the index (`:path`). */
function attributesName(treeish: string, folder: string): string {
  return `${treeish}:${folder === '' ? '' : `${folder}/`}${ATTRIBUTES}`;
}

/** The `.gitattributes` files of `treeish` in `folders` ('' the root), read in one `git cat-file --batch`; a folder without one is left out. */
function attributeFilesOf(options: GitOptions, treeish: string, folders: readonly string[]): Map<string, AttributeFile> {
  const files = new Map<string, AttributeFile>();
  const usable = folders.filter((folder) => !folder.includes('\n'));
  if (usable.length === 0) return files;
  const names = usable.map((folder) => attributesName(treeish, folder));
  const output = runGit(['cat-file', '--batch'], { ...options, input: `${names.join('\n')}\n` });
  let offset = 0;
  usable.forEach((folder, index) => {
    const end = output.indexOf(0x0a, offset);
    if (end < 0) throw new SnapshotError('E_GIT_READ', `git cat-file --batch ended before ${names[index] as string}`);
    const header = output.subarray(offset, end).toString('utf8');
    offset = end + 1;
    if (header.endsWith(' missing')) return;
    const size = /^\S+ \S+ (\d+)$/.exec(header)?.[1];
    if (size === undefined) throw new SnapshotError('E_GIT_READ', `git cat-file --batch answered ${JSON.stringify(header)} for ${names[index] as string}`);
    files.set(folder, parseGitAttributes(output.subarray(offset, offset + Number(size)).toString('utf8'), folder));
    offset += Number(size) + 1;
  });
  return files;
}

function encodingIn(path: string, files: ReadonlyMap<string, AttributeFile>): string | undefined {
  return checkoutAttributes(
    path,
    attributeFolders(path).flatMap((folder) => {
      const file = files.get(folder);
      return file === undefined ? [] : [file];
    }),
  ).workingTreeEncoding;
}

/**
 * The files of `to` that a change from `from` left as they were but whose checkout it re-encodes: a
 * `.gitattributes` the change wrote or deleted gives them another `working-tree-encoding` than `from`
 * gave them. The one answer the git hooks (commit-change.ts) and verify (range-changes.ts) share.
 * Without it a file stored as noise while its `working-tree-encoding` was only in a work tree (or
 * before the base verify judges from) is judged as noise, and the later change that adds only the
 * `.gitattributes` line lists that line alone, while every checkout after it writes the plain text.
 *
 * Only the encoding counts: `eol` and `-text` add or keep a carriage return before each line end,
 * which shows a rule nothing it had not read; counting them would make every file a write whenever a
 * team adds `* text=auto`. `from` undefined (a root commit) has nothing left as it was. `to` (and
 * `from`) is a commit or tree id, or '' for the index `options` names. Links and submodules are left
 * out (a link's checkout is its target, whatever the attributes).
 */
export function reencodedEntries(options: GitOptions, from: string | undefined, to: string, changed: readonly { readonly path: string }[]): CheckoutEntry[] {
  if (from === undefined) return [];
  const folders = changed.filter((entry) => isAttributesFile(entry.path)).map((entry) => entry.path.slice(0, -ATTRIBUTES.length).replace(/\/$/, ''));
  if (folders.length === 0) return [];
  const already = new Set(changed.map((entry) => entry.path));
  const candidates = entriesUnder(options, to, folders).filter((entry) => !already.has(entry.path));
  if (candidates.length === 0) return [];
  const applying = [...new Set(candidates.flatMap((entry) => attributeFolders(entry.path)))];
  const before = attributeFilesOf(options, from, applying);
  const after = attributeFilesOf(options, to, applying);
  return candidates.filter((entry) => encodingIn(entry.path, before) !== encodingIn(entry.path, after));
}
