import { posix } from 'node:path';
import { checkoutText } from './blob-text.js';
import { attributeFolders, checkoutAttributes, parseGitAttributes } from './git-attributes.js';
import type { AttributeFile } from './git-attributes.js';
import { SnapshotError, runGit } from './git-process.js';
import type { GitOptions } from './git-process.js';
import { nulFields } from './path-bytes.js';

/** A file of a tree or of the index to read as a checkout would write it. */
export interface CheckoutEntry {
  readonly path: string;
  /** git's mode: `120000` is a symbolic link, whose blob is its target. */
  readonly mode: string;
  readonly blob: string;
}

/** What a checkout gives back for one entry: a file's text (and why it is not text, when so), or a link's target. */
export type CheckoutRead =
  | {
      readonly kind: 'file';
      readonly text: string;
      readonly undecodable: string | undefined;
      /** The `working-tree-encoding` a checkout writes it in, when one applies: then the stored bytes are not what a rule would read. */
      readonly workingTreeEncoding?: string;
    }
  | {
      readonly kind: 'link';
      readonly target: string;
      /** A folder on the way to the target that is itself a link in the same tree: the text does not say where it leads. */
      readonly through?: string;
    };

/**
 * The one reading of a stored blob every layer of the gate shares (the pre-commit and
 * reference-transaction hooks, the after-call check of a call's commits, verify): a link is its
 * target, and a file is decoded with the checkout attributes (`working-tree-encoding`, `eol`) of the
 * `.gitattributes` files that apply to it, keyed by folder ('' at the root), as the same tree or index
 * holds them. The attributes come from the tree being judged, never from `.git/info/attributes` or a
 * user's file: those change no other checkout, so they could only make the gate misread.
 */
export function checkoutRead(entry: { readonly path: string; readonly mode: string }, bytes: Buffer, files: ReadonlyMap<string, AttributeFile>): CheckoutRead {
  if (entry.mode === '120000') return { kind: 'link', target: bytes.toString('utf8') };
  const applying = attributeFolders(entry.path).flatMap((folder) => {
    const file = files.get(folder);
    return file === undefined ? [] : [file];
  });
  const attributes = checkoutAttributes(entry.path, applying);
  const read = checkoutText(bytes, attributes);
  return {
    kind: 'file',
    text: read.text,
    undecodable: read.undecodable,
    ...(attributes.workingTreeEncoding !== undefined ? { workingTreeEncoding: attributes.workingTreeEncoding } : {}),
  };
}

/** `<treeish>:<folder>/.gitattributes`; an empty treeish names the index (`:path`). */
function attributesName(treeish: string, folder: string): string {
  return `${treeish}:${folder === '' ? '' : `${folder}/`}.gitattributes`;
}

/**
 * Reads `entries` of `treeish` (a commit or tree id, or '' for the index git is given in `options`)
 * as a checkout would write them, in one `git cat-file --batch`: each blob, and every `.gitattributes`
 * of the same tree that applies to one of them. Keyed by path; gitlinks (submodules) are left out.
 */
export function readCheckoutEntries(options: GitOptions, treeish: string, entries: readonly CheckoutEntry[]): Map<string, CheckoutRead> {
  const reads = new Map<string, CheckoutRead>();
  const judged = entries.filter((entry) => entry.mode !== '160000');
  if (judged.length === 0) return reads;
  const folders = [...new Set(judged.filter((entry) => entry.mode !== '120000').flatMap((entry) => attributeFolders(entry.path)))].filter(
    (folder) => !folder.includes('\n'),
  );
  const blobIds = new Set(judged.map((entry) => entry.blob));
  const blobs = [...blobIds];
  const names = [...blobs, ...folders.map((folder) => attributesName(treeish, folder))];
  const output = runGit(['cat-file', '--batch'], { ...options, input: `${names.join('\n')}\n` });
  const bytes = new Map<string, Buffer>();
  let offset = 0;
  for (const name of names) {
    const end = output.indexOf(0x0a, offset);
    if (end < 0) throw new SnapshotError('E_GIT_READ', `git cat-file --batch ended before ${name}`);
    const header = output.subarray(offset, end).toString('utf8');
    offset = end + 1;
    if (header.endsWith(' missing')) {
      if (blobIds.has(name)) throw new SnapshotError('E_GIT_READ', `git cat-file could not read blob ${name}`);
      continue;
    }
    const size = /^\S+ \S+ (\d+)$/.exec(header)?.[1];
    if (size === undefined) throw new SnapshotError('E_GIT_READ', `git cat-file --batch answered ${JSON.stringify(header)} for ${name}`);
    bytes.set(name, output.subarray(offset, offset + Number(size)));
    offset += Number(size) + 1;
  }
  const files = new Map<string, AttributeFile>();
  for (const folder of folders) {
    const text = bytes.get(attributesName(treeish, folder));
    if (text !== undefined) files.set(folder, parseGitAttributes(text.toString('utf8'), folder));
  }
  for (const entry of judged) reads.set(entry.path, checkoutRead(entry, bytes.get(entry.blob) ?? Buffer.alloc(0), files));
  const links = [...reads].flatMap(([path, read]) => (read.kind === 'link' ? [{ path, target: read.target }] : []));
  for (const [path, through] of linksThrough(options, treeish, links)) {
    const read = reads.get(path);
    if (read?.kind === 'link') reads.set(path, { ...read, through });
  }
  return reads;
}

/** The folders a link's target descends through inside the repository, from its own folder down ('' none). */
function foldersOnTheWay(path: string, target: string): string[] {
  const resolved = posix.normalize(posix.join(posix.dirname(path), target.replace(/\\/g, '/')));
  if (resolved === '..' || resolved.startsWith('../') || resolved.startsWith('/')) return [];
  const parts = resolved.split('/').filter((part) => part !== '' && part !== '.');
  return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join('/'));
}

/**
 * For each link of `treeish` ('' the index `options` names), the first folder on the way to its target that is a link
 * in the same tree, in one `git ls-tree` (`ls-files`) of those folders. A link through a link is not judged by its
 * text (`src/x -> up/.git/hooks/pre-commit` beside a `src/up -> ..` already committed leads into git's hooks).
 */
export function linksThrough(options: GitOptions, treeish: string, links: readonly { path: string; target: string }[]): Map<string, string> {
  const found = new Map<string, string>();
  const wanted = links.map((link) => ({ path: link.path, folders: foldersOnTheWay(link.path, link.target) })).filter((link) => link.folders.length > 0);
  const folders = [...new Set(wanted.flatMap((link) => link.folders))].filter((folder) => !folder.includes('\n'));
  if (folders.length === 0) return found;
  const listing =
    treeish === ''
      ? runGit(['--literal-pathspecs', 'ls-files', '-s', '-z', '--', ...folders], options)
      : runGit(['--literal-pathspecs', 'ls-tree', '-z', treeish, '--', ...folders], options);
  const linked = new Set<string>();
  for (const record of nulFields(listing)) {
    const tab = record.indexOf('\t');
    if (tab >= 0 && record.startsWith('120000 ')) linked.add(record.slice(tab + 1));
  }
  for (const link of wanted) {
    const through = link.folders.find((folder) => linked.has(folder));
    if (through !== undefined) found.set(link.path, through);
  }
  return found;
}

/**
 * The files (no links, no submodules) of `treeish` ('' the index `options` names) inside `folders`
 * ('' the whole tree), each with its mode and blob: `git ls-tree -r` of a tree, `git ls-files -s` of the index.
 */
export function entriesUnder(options: GitOptions, treeish: string, folders: readonly string[]): CheckoutEntry[] {
  const listing = treeish === '' ? runGit(['ls-files', '-s', '-z'], options) : runGit(['ls-tree', '-r', '-z', treeish], options);
  const entries: CheckoutEntry[] = [];
  // Each record decoded as the gate decodes file names (path-bytes.ts), so a name that is not UTF-8 keeps its bytes.
  for (const record of nulFields(listing)) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const fields = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    const mode = fields[0] ?? '';
    const blob = (treeish === '' ? fields[1] : fields[2]) ?? '';
    if (mode === '120000' || mode === '160000' || blob === '') continue;
    if (folders.some((folder) => folder === '' || path.startsWith(`${folder}/`))) entries.push({ path, mode, blob });
  }
  return entries;
}
