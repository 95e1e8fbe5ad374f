import picomatch from 'picomatch';

/**
 * Pinned so a rule means the same on every machine: POSIX separators only (no OS detection),
 * dotfiles matched like any file, case-sensitive.
 */
export const GLOB_OPTIONS = Object.freeze({ dot: true, nocase: false, windows: false });

export type PathMatcher = (path: string) => boolean;

const NEVER: PathMatcher = () => false;

export function compileGlobs(globs: readonly string[]): PathMatcher {
  if (globs.length === 0) return NEVER;
  // The compiled regexes directly: picomatch's matcher wrapper costs several times the match itself.
  const matchers = globs.map((glob) => picomatch.makeRe(glob, GLOB_OPTIONS));
  // A write to `src` itself would replace the directory the glob `src/**` opens, not a file inside it.
  const bases = new Set(
    globs
      .map((glob) => picomatch.scan(glob))
      .filter((scan) => scan.isGlob)
      .map((scan) => scan.base),
  );
  return (path) => !bases.has(path) && matchers.some((matcher) => matcher.test(path));
}

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
