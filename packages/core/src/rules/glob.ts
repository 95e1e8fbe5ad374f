import { createRequire } from 'node:module';
import type picomatchModule from 'picomatch';

let picomatchLoaded: typeof picomatchModule | undefined;

/**
 * picomatch, loaded on first use. A live hook takes its rulebook's globs compiled from its cache
 * (knowCompiledGlobs), and starting picomatch would cost every hook process about 5 % of a bare node.
 */
export function picomatchLib(): typeof picomatchModule {
  picomatchLoaded ??= createRequire(import.meta.url)('picomatch') as typeof picomatchModule;
  return picomatchLoaded;
}

/**
 * Pinned so a rule means the same on every machine: POSIX separators only (no OS detection),
 * dotfiles matched like any file, case-sensitive.
 */
export const GLOB_OPTIONS = Object.freeze({ dot: true, nocase: false, windows: false });

export type PathMatcher = (path: string) => boolean;

const NEVER: PathMatcher = () => false;

/** A glob as picomatch compiles it: its regex, and the folder it opens when it is a glob at all. */
export interface CompiledGlob {
  readonly source: string;
  readonly flags: string;
  readonly base: string | null;
}

/** Globs compiled in this process, or handed over from a cache (knowCompiledGlobs). */
const compiledGlobs = new Map<string, CompiledGlob>();

/** picomatch's regex for a glob (parsing a glob is most of what compiling a rulebook's globs costs). */
export function compiledGlob(glob: string): CompiledGlob {
  const known = compiledGlobs.get(glob);
  if (known !== undefined) return known;
  const picomatch = picomatchLib();
  const regex = picomatch.makeRe(glob, GLOB_OPTIONS);
  const scan = picomatch.scan(glob);
  const compiled = { source: regex.source, flags: regex.flags, base: scan.isGlob ? scan.base : null };
  compiledGlobs.set(glob, compiled);
  return compiled;
}

/**
 * Takes compiled globs kept from an earlier process (the gate's rulebook cache, written by holdfast
 * itself with compiledGlob's answers): each hook is a new process, and parsing the same globs in
 * every one costs more than reading their regexes. An entry of the wrong shape is left out.
 */
export function knowCompiledGlobs(entries: unknown): void {
  if (typeof entries !== 'object' || entries === null) return;
  for (const [glob, entry] of Object.entries(entries as Record<string, Partial<CompiledGlob>>)) {
    if (typeof entry?.source === 'string' && typeof entry.flags === 'string' && (entry.base === null || typeof entry.base === 'string')) {
      compiledGlobs.set(glob, { source: entry.source, flags: entry.flags, base: entry.base });
    }
  }
}

export function compileGlobs(globs: readonly string[]): PathMatcher {
  if (globs.length === 0) return NEVER;
  const compiled = globs.map(compiledGlob);
  // The regexes directly: picomatch's matcher wrapper costs several times the match itself.
  const matcher = oneRegex(compiled);
  // A write to `src` itself would replace the directory the glob `src/**` opens, not a file inside it.
  const bases = new Set(compiled.flatMap((glob) => (glob.base === null ? [] : [glob.base])));
  if (matcher !== undefined) return bases.size === 0 ? (path) => matcher.test(path) : (path) => !bases.has(path) && matcher.test(path);
  const matchers = compiled.map((glob) => new RegExp(glob.source, glob.flags));
  return (path) => !bases.has(path) && matchers.some((each) => each.test(path));
}

/**
 * The globs' regexes as one alternation, so a path is tested once rather than once per glob (a rule
 * with five exempt globs is checked on every written file). Each source is anchored on its own, so
 * the alternation matches exactly the paths one of them matches. Not when the flags differ or a
 * source numbers or names its groups (a backreference would point elsewhere in the alternation).
 */
function oneRegex(compiled: readonly CompiledGlob[]): RegExp | undefined {
  const flags = compiled[0]?.flags ?? '';
  if (compiled.some((glob) => glob.flags !== flags || BACKREFERENCE.test(glob.source))) return undefined;
  return new RegExp(compiled.length === 1 ? (compiled[0] as CompiledGlob).source : compiled.map((glob) => `(?:${glob.source})`).join('|'), flags);
}

const BACKREFERENCE = /\\[1-9k]|\(\?</;

/** Why a glob from a rulebook cannot be used, or undefined when it can. */
export function globProblem(glob: string): string | undefined {
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob)) return 'is absolute';
  if (glob.includes('\\')) return 'uses a backslash';
  if (glob.startsWith('./')) return 'starts with "./"';
  if (glob.split('/').includes('..')) return 'climbs with ".."';
  if (glob.startsWith('!')) return 'is negated (list the exceptions in `exclude` instead)';
  return undefined;
}

/** Makes text match itself literally inside a glob. */
export function escapeGlob(text: string): string {
  // Most paths hold no glob character: the test is much cheaper than a replace that finds nothing.
  return GLOB_SPECIAL.test(text) ? text.replace(GLOB_SPECIALS, (character) => `\\${character}`) : text;
}

const GLOB_SPECIAL = /[\\*?[\]{}()!+@|]/;
const GLOB_SPECIALS = new RegExp(GLOB_SPECIAL.source, 'g');
