import { createRequire } from 'node:module';
import type picomatchModule from 'picomatch';
import { pathText } from './path-bytes.js';

let picomatchLoaded: typeof picomatchModule | undefined;
/** picomatch on the first `.gitattributes` that names a pattern: the hook bundle loads no npm package for a decision without one. */
function picomatch(): typeof picomatchModule {
  picomatchLoaded ??= createRequire(import.meta.url)('picomatch') as typeof picomatchModule;
  return picomatchLoaded;
}

/** What of a path's `.gitattributes` changes the bytes a checkout writes: holdfast applies these itself and runs no filter. */
export interface CheckoutAttributes {
  /** `working-tree-encoding`: git stores the file as UTF-8 and writes it out in this encoding. */
  readonly workingTreeEncoding: string | undefined;
  /** `eol=crlf` (or `eol=lf`) on a file git treats as text. */
  readonly eol: 'crlf' | 'lf' | undefined;
  /** `-text` or `binary`: git converts no line endings. */
  readonly binary: boolean;
}

export const NO_ATTRIBUTES: CheckoutAttributes = Object.freeze({ workingTreeEncoding: undefined, eol: undefined, binary: false });

interface AttributeLine {
  readonly matches: (relative: string) => boolean;
  /** Attribute name to its state: a value, true (set), false (unset), null (unspecified again). */
  readonly states: ReadonlyMap<string, string | boolean | null>;
}

/** One `.gitattributes` file: the folder it lives in ('' at the root) and its lines in order. */
export interface AttributeFile {
  readonly folder: string;
  readonly lines: readonly AttributeLine[];
}

// git's wildmatch has no braces and no extended globs: `{a,b}.ts` and `@(a).ts` name themselves.
const MATCH_OPTIONS = { dot: true, nocase: false, windows: false, nobrace: true, noextglob: true } as const;

function matcherOf(pattern: string): ((relative: string) => boolean) | undefined {
  if (pattern === '' || pattern.endsWith('/')) return undefined; // a folder-only pattern names no file
  // git ignores a negative pattern in attributes (with a warning); `\!` names a leading `!`.
  if (pattern.startsWith('!')) return undefined;
  const anchored = pattern.includes('/');
  // git negates a bracket set with `!` as with `^`, where picomatch reads only `^`; a `"` is a plain character to git and opens a quoted part to picomatch.
  const glob = pattern
    .replace(/^\//, '')
    .replace(/(^|[^\\])\[!/g, '$1[^')
    .replace(/"/g, '\\"');
  const test = picomatch()(glob, MATCH_OPTIONS);
  // Without a slash, a pattern is matched against the file's name at any depth (gitignore's rule).
  return anchored ? test : (relative) => test(relative.slice(relative.lastIndexOf('/') + 1));
}

const C_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '"': 34 };

/**
 * A line's pattern and what follows it, as git's attr.c reads them: a pattern that opens with `"` is a C-style quoted
 * name (`\"`, `\\`, `\t`…, `\ooo` a byte), so it may hold blanks; one whose quoting does not close is the plain token.
 */
function patternOf(line: string): { pattern: string; rest: string } {
  if (line.startsWith('"')) {
    const bytes: number[] = [];
    for (let index = 1; index < line.length; index += 1) {
      const char = line[index] as string;
      if (char === '"') return { pattern: pathText(Uint8Array.from(bytes)), rest: line.slice(index + 1) };
      if (char !== '\\') {
        bytes.push(...Buffer.from(char, 'utf8'));
        continue;
      }
      const next = line[index + 1] ?? '';
      const octal = /^[0-3][0-7]{2}/.exec(line.slice(index + 1));
      if (octal !== null) {
        bytes.push(Number.parseInt(octal[0], 8));
        index += 3;
      } else if (Object.hasOwn(C_ESCAPES, next)) {
        bytes.push(C_ESCAPES[next] as number);
        index += 1;
      } else break;
    }
  }
  const end = line.search(/[ \t]/);
  return end === -1 ? { pattern: line, rest: '' } : { pattern: line.slice(0, end), rest: line.slice(end) };
}

/** A `.gitattributes` file's lines (comments, macros and folder-only patterns left out). */
export function parseGitAttributes(text: string, folder: string): AttributeFile {
  const lines: AttributeLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('[attr]')) continue;
    const { pattern, rest } = patternOf(line);
    const fields = rest.split(/[ \t]+/).filter((field) => field !== '');
    const matches = matcherOf(pattern);
    if (matches === undefined) continue;
    const states = new Map<string, string | boolean | null>();
    for (const field of fields) {
      if (field.startsWith('-')) states.set(field.slice(1), false);
      else if (field.startsWith('!')) states.set(field.slice(1), null);
      else if (field.includes('=')) states.set(field.slice(0, field.indexOf('=')), field.slice(field.indexOf('=') + 1));
      else states.set(field, true);
    }
    if (states.has('binary')) states.set('text', false);
    lines.push({ matches, states });
  }
  return { folder, lines };
}

/** The folders whose `.gitattributes` apply to a path, the root first. */
export function attributeFolders(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return ['', ...parts.map((_, index) => parts.slice(0, index + 1).join('/'))];
}

/** A path's checkout attributes from the `.gitattributes` files that apply to it, the root's first (a deeper file and a later line win). */
export function checkoutAttributes(path: string, files: readonly AttributeFile[]): CheckoutAttributes {
  const states = new Map<string, string | boolean | null>();
  for (const file of files) {
    const prefix = file.folder === '' ? '' : `${file.folder}/`;
    if (!path.startsWith(prefix)) continue;
    const relative = path.slice(prefix.length);
    for (const line of file.lines) if (line.matches(relative)) for (const [name, state] of line.states) states.set(name, state);
  }
  const encoding = states.get('working-tree-encoding');
  const eol = states.get('eol');
  const binary = states.get('text') === false;
  if (typeof encoding !== 'string' && typeof eol !== 'string' && !binary) return NO_ATTRIBUTES;
  return {
    workingTreeEncoding: typeof encoding === 'string' && encoding !== '' ? encoding : undefined,
    eol: eol === 'crlf' || eol === 'lf' ? eol : undefined,
    binary,
  };
}
