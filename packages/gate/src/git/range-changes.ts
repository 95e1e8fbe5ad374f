import {
  ByteStream,
  GitObjectReader,
  attributeFolders,
  blobText,
  checkoutAttributes,
  checkoutRead,
  nulFields,
  nulPaths,
  parseGitAttributes,
  pathText,
  linksThrough,
  reencodedEntries,
  runGit,
  startGit,
} from '../io/index.js';
import type { AttributeFile, CheckoutAttributes, GitObject } from '../io/index.js';
import { CommitReadError } from './commit-change.js';
import { checkoutAction } from '../decide/index.js';

/**
 * The largest file verify reads to judge (8 MiB). A larger blob is skipped unread, as git streams it,
 * and named "too large to judge" wherever a content rule would read it: a rule cannot say a file it
 * did not read is clean, and reading it whole is what let one blob take gigabytes.
 */
export const VERIFY_FILE_LIMIT = 8 * 1024 * 1024;

/** A file a change added, modified or deleted (renames are a delete and an add); submodules are left out. */
export interface ChangedFile {
  readonly path: string;
  /** The blob written; undefined for a delete. */
  readonly blob: string | undefined;
  readonly mode: string;
}

/**
 * A written file as a checkout gives it back, read when asked: its text (with why the bytes are not
 * text, when they are not), or, above the limit, its size and whether its first bytes look like text
 * (no NUL, or UTF-16/32), never its content. `link`: a committed symbolic link that leaves the
 * repository or points into .git/, and why.
 */
export type FileRead =
  | { readonly kind: 'text'; readonly text: string; readonly undecodable: string | undefined; readonly link: string | undefined }
  | { readonly kind: 'too-large'; readonly size: number; readonly text: boolean };

/**
 * One change as the one-pass reader gives it: the files it names, each read only when asked and one at
 * a time, so the texts of a change are never all held at once. `read` is valid until the next change is
 * asked for. `key` names what a file's checkout holds (path, mode, blob and the attributes applied to
 * it): two files with the same key read the same.
 */
export interface RangeChange {
  readonly files: readonly ChangedFile[];
  /** Paths in the tree before the change, so a file the change adds is a new module. */
  readonly existedBefore: Iterable<string>;
  key(file: ChangedFile): string;
  /** The written files of `files` read in their order, one held at a time; read to the end before asking again. */
  read(files: readonly ChangedFile[]): AsyncGenerator<{ readonly file: ChangedFile; readonly read: FileRead }>;
}

/** A commit's own change, with its message. */
export interface RangeCommit extends RangeChange {
  readonly commit: string;
  readonly parents: readonly string[];
  readonly subject: string;
  /** The whole commit message, as R1 judges it. */
  readonly message: string;
}

interface RawEntry {
  readonly path: string;
  readonly status: string;
  readonly blob: string | undefined;
  readonly mode: string;
}

export interface RangeReaderOptions {
  readonly root: string;
  readonly fileLimit?: number;
}

const HEX = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** `git diff-tree --stdin` read one entry at a time: the header of each input line, then its `:old new oldsha newsha S\0path\0` entries. */
class DiffStream {
  readonly #stream: ByteStream;
  #pending: string | undefined;

  constructor(stream: ByteStream) {
    this.#stream = stream;
  }

  async #token(): Promise<string | undefined> {
    const token = await this.#stream.readUntil(0, 1 << 20);
    return token === undefined ? undefined : pathText(token);
  }

  /** The entries that follow the next header, which must name `commit`. */
  async next(commit: string): Promise<RawEntry[]> {
    const header = this.#pending ?? (await this.#token());
    this.#pending = undefined;
    if (header === undefined || header.trim() !== commit)
      throw new CommitReadError('E_GIT_READ', `git diff-tree --stdin answered ${String(header)} where ${commit} was due`);
    const entries: RawEntry[] = [];
    for (;;) {
      const token = await this.#token();
      if (token === undefined) return entries;
      if (!token.startsWith(':')) {
        if (!HEX.test(token.trim())) throw new CommitReadError('E_GIT_READ', `git diff-tree --stdin gave an entry that cannot be read: ${token.slice(0, 80)}`);
        this.#pending = token;
        return entries;
      }
      const path = await this.#token();
      if (path === undefined) throw new CommitReadError('E_GIT_READ', 'git diff-tree --stdin ended inside an entry');
      const [, newMode, , newBlob, status] = token.slice(1).split(' ');
      const deleted = (status ?? '').startsWith('D');
      entries.push({ path, status: status ?? '', blob: deleted ? undefined : newBlob, mode: newMode ?? '' });
    }
  }
}

/** The message of a commit object: what follows its headers. */
function messageOf(object: Buffer): string {
  const split = object.indexOf('\n\n');
  return split < 0 ? '' : object.subarray(split + 2).toString('utf8');
}

/** `%s`: the first paragraph of the message, its lines joined by a space. */
function subjectOf(message: string): string {
  const lines: string[] = [];
  for (const line of message.replace(/^\s*\n/, '').split('\n')) {
    if (line.trim() === '') break;
    lines.push(line.trim());
  }
  return lines.join(' ');
}

/** What each commit of the range still needs of its parents' path lists: the lists are kept only while a child is unread. */
class PathLists {
  readonly #lists = new Map<string, Set<string>>();
  readonly #children = new Map<string, number>();
  readonly #root: string;

  constructor(root: string, commits: readonly { commit: string; parents: readonly string[] }[]) {
    this.#root = root;
    for (const { parents } of commits) for (const parent of parents) this.#children.set(parent, (this.#children.get(parent) ?? 0) + 1);
  }

  #of(commit: string): Set<string> {
    let list = this.#lists.get(commit);
    if (list === undefined) {
      list = new Set(nulPaths(runGit(['ls-tree', '-r', '--name-only', '-z', commit], { cwd: this.#root })));
      this.#lists.set(commit, list);
    }
    return list;
  }

  /** The paths that existed before `commit` (every parent's); its own list is then made from its first parent's and the diff against it, kept while a child of it is unread. */
  advance(commit: string, parents: readonly string[], firstDiff: readonly RawEntry[]): string[] {
    const before = parents.length === 1 ? [...this.#of(parents[0] as string)] : [...new Set(parents.flatMap((parent) => [...this.#of(parent)]))];
    const first = parents[0];
    if (this.#children.has(commit)) {
      // The first parent's list is changed in place when this is its last child: a linear history keeps one list.
      const reusable = first !== undefined && this.#children.get(first) === 1;
      const own = first === undefined ? new Set<string>() : reusable ? this.#of(first) : new Set(this.#of(first));
      for (const entry of firstDiff) {
        if (entry.blob === undefined) own.delete(entry.path);
        else own.add(entry.path);
      }
      this.#lists.set(commit, own);
    }
    for (const parent of parents) {
      const left = (this.#children.get(parent) ?? 1) - 1;
      if (left > 0) this.#children.set(parent, left);
      else {
        this.#children.delete(parent);
        this.#lists.delete(parent);
      }
    }
    return before;
  }
}

/**
 * Every commit of a range, oldest first, read in one pass: one `git diff-tree --stdin` stream for all
 * their changes and one `git cat-file --batch` for every blob, commit message and `.gitattributes`,
 * each streamed; what a commit holds is let go when the next is read, so memory does not grow with the
 * number of commits and no blob above the limit is ever held. The judgement is the caller's.
 */
export async function* rangeCommits(
  options: RangeReaderOptions,
  commits: readonly { commit: string; parents: readonly string[] }[],
): AsyncGenerator<RangeCommit> {
  const limit = options.fileLimit ?? VERIFY_FILE_LIMIT;
  const objects = new GitObjectReader({ cwd: options.root });
  const diff = startGit(['diff-tree', '--stdin', '-r', '-z', '--raw', '--no-renames', '--root', '--always'], { cwd: options.root });
  diff.stdin.on('error', () => undefined);
  const diffStderr: Buffer[] = [];
  diff.stderr.on('data', (chunk: Buffer) => diffStderr.push(chunk));
  const diffs = new DiffStream(new ByteStream(diff.stdout));
  const paths = new PathLists(options.root, commits);
  const attributes = new AttributeCache(objects);
  feed(diff.stdin, commits);
  try {
    for (const { commit, parents } of commits) {
      const perParent: RawEntry[][] = [];
      for (let index = 0; index < Math.max(1, parents.length); index += 1) {
        perParent.push(
          await diffs.next(commit).catch((error: unknown) => {
            const said = Buffer.concat(diffStderr).toString('utf8').trim().split('\n')[0] ?? '';
            throw new CommitReadError(
              'E_GIT_READ',
              `git diff-tree --stdin failed at ${commit}: ${error instanceof Error ? error.message : String(error)} ${said}`.trim(),
              {
                cause: error,
              },
            );
          }),
        );
      }
      const [first = [], ...others] = perParent;
      const otherPaths = others.map((entries) => new Set(entries.map((entry) => entry.path)));
      const own = first.filter((entry) => otherPaths.every((changed) => changed.has(entry.path)));
      const existedBefore = paths.advance(commit, parents, first);
      const [commitObject] = await objects.read([commit], limit);
      const message = commitObject?.kind === 'read' ? messageOf(commitObject.bytes) : '';
      yield {
        commit,
        parents,
        subject: subjectOf(message),
        message,
        ...(await changeOf(options.root, objects, attributes, parents[0], commit, own, existedBefore, limit)),
      };
    }
  } finally {
    diff.stdout.destroy();
    diff.kill();
    await objects.close();
  }
}

function feed(stdin: NodeJS.WritableStream, commits: readonly { commit: string; parents: readonly string[] }[]): void {
  let index = 0;
  const write = (): void => {
    while (index < commits.length) {
      const { commit, parents } = commits[index] as { commit: string; parents: readonly string[] };
      index += 1;
      const lines = parents.length === 0 ? `${commit}\n` : parents.map((parent) => `${commit} ${parent}\n`).join('');
      if (!stdin.write(lines)) {
        stdin.once('drain', write);
        return;
      }
    }
    stdin.end();
  };
  write();
}

/** `.gitattributes` files as a commit has them, kept by blob id (they rarely change between commits). */
class AttributeCache {
  readonly #objects: GitObjectReader;
  readonly #byBlob = new Map<string, AttributeFile>();

  constructor(objects: GitObjectReader) {
    this.#objects = objects;
  }

  async filesFor(commit: string, folders: readonly string[]): Promise<Map<string, AttributeFile>> {
    const files = new Map<string, AttributeFile>();
    const asked = folders.map((folder) => `${commit}:${folder === '' ? '' : `${folder}/`}.gitattributes`);
    const read = await this.#objects.read(asked, 1024 * 1024, true);
    folders.forEach((folder, index) => {
      const object = read[index];
      if (object === undefined || object.kind === 'missing') return;
      const key = `${folder}\0${object.id}`;
      const known = this.#byBlob.get(key);
      const parsed = known ?? parseGitAttributes(object.kind === 'read' ? object.bytes.toString('utf8') : '', folder);
      this.#byBlob.set(key, parsed);
      files.set(folder, parsed);
    });
    return files;
  }
}

/**
 * A change's files from `from` to `commit` with what reading them needs: the `.gitattributes` files that apply, read once for
 * the change (they are small). The files a `.gitattributes` the change wrote re-encodes (reencodedEntries, as the git hooks
 * judge them) are files of the change too: a checkout after it writes them anew.
 */
async function changeOf(
  root: string,
  objects: GitObjectReader,
  attributes: AttributeCache,
  from: string | undefined,
  commit: string,
  entries: readonly RawEntry[],
  existedBefore: Iterable<string>,
  limit: number,
): Promise<RangeChange> {
  const own: ChangedFile[] = entries.filter((entry) => entry.mode !== '160000').map(({ path, blob, mode }) => ({ path, blob, mode }));
  const files = [...own, ...reencodedEntries({ cwd: root }, from, commit, own)];
  const folders = [...new Set(files.flatMap((file) => (file.blob === undefined ? [] : attributeFolders(file.path))))];
  const attributeFiles = await attributes.filesFor(commit, folders);
  const applied = (file: ChangedFile): CheckoutAttributes =>
    checkoutAttributes(
      file.path,
      attributeFolders(file.path).flatMap((folder) => {
        const found = attributeFiles.get(folder);
        return found === undefined ? [] : [found];
      }),
    );
  return {
    files,
    existedBefore,
    key(file) {
      if (file.blob === undefined) return `delete\0${file.path}`;
      const { workingTreeEncoding, eol, binary } = applied(file);
      return `${file.mode}\0${file.blob}\0${workingTreeEncoding ?? ''}\0${eol ?? ''}\0${String(binary)}\0${file.path}`;
    },
    async *read(wanted) {
      const written = wanted.filter((file) => file.blob !== undefined);
      let at = 0;
      for await (const object of objects.stream(
        written.map((file) => file.blob as string),
        limit,
      )) {
        const file = written[at] as ChangedFile;
        at += 1;
        yield { file, read: fileRead(file, object, attributeFiles, (link) => linksThrough({ cwd: root }, commit, [link]).get(link.path)) };
      }
    },
  };
}

/** A blob as the judge reads it: text as a checkout writes it, a link's target, or only the size and kind of what was too large to read. */
function fileRead(
  file: ChangedFile,
  object: GitObject,
  attributeFiles: ReadonlyMap<string, AttributeFile>,
  linkThrough: (link: { path: string; target: string }) => string | undefined,
): FileRead {
  if (object.kind !== 'read') {
    const head = object.kind === 'too-large' ? object.head : Buffer.alloc(0);
    const text = !head.includes(0) || blobText(head.subarray(0, head.length - (head.length % 4))).undecodable === undefined;
    return { kind: 'too-large', size: object.kind === 'too-large' ? object.size : 0, text };
  }
  // One reading of a stored file as a checkout gives it back, and one judgement of a link, as in every layer.
  const undecodable = new Map<string, string>();
  const links = new Map<string, string>();
  const read = checkoutRead(file, object.bytes, attributeFiles);
  // A link is rare: the folders on its way are looked up in the same tree when one is read.
  const through = read.kind === 'link' ? linkThrough({ path: file.path, target: read.target }) : undefined;
  const action = checkoutAction(file.path, read.kind === 'link' && through !== undefined ? { ...read, through } : read, undecodable, links);
  return { kind: 'text', text: action.type === 'write' ? action.content : '', undecodable: undecodable.get(file.path), link: links.get(file.path) };
}

/** The change from one tree to another (the final tree against the merge base), read like a commit's: blobs read one at a time when asked, none above the limit held. */
export async function rangeTreeChange<T>(options: RangeReaderOptions, from: string, to: string, judge: (change: RangeChange) => Promise<T>): Promise<T> {
  const tokens = nulFields(runGit(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-commit-id', from, to], { cwd: options.root }));
  const entries: RawEntry[] = [];
  for (let index = 0; index + 1 < tokens.length; index += 2) {
    const header = tokens[index] as string;
    const [, newMode, , newBlob, status] = header.slice(1).split(' ');
    const deleted = (status ?? '').startsWith('D');
    entries.push({ path: tokens[index + 1] as string, status: status ?? '', blob: deleted ? undefined : newBlob, mode: newMode ?? '' });
  }
  const existedBefore = nulPaths(runGit(['ls-tree', '-r', '--name-only', '-z', from], { cwd: options.root }));
  const objects = new GitObjectReader({ cwd: options.root });
  try {
    return await judge(
      await changeOf(options.root, objects, new AttributeCache(objects), from, to, entries, existedBefore, options.fileLimit ?? VERIFY_FILE_LIMIT),
    );
  } finally {
    await objects.close();
  }
}
