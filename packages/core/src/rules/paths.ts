/**
 * One normalisation of the paths a model writes, shared by the checks and the live gate, so a
 * path means the same thing wherever it is judged. A refusal names the trick in words.
 */
export type NormalizedPath = { ok: true; path: string } | { ok: false; reason: string };

export const MAX_PATH_LENGTH = 4096;

// Characters that render like a separator or hide between visible ones. A path holding one reads as
// something other than what the file system sees, so it is refused rather than interpreted.
const LOOKALIKE_SEPARATORS = /[\u2044\u2215\u29F8\uFF0F\u2216\u29F5\u29F9\uFE68\uFF3C]/u;
const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
const CONTROL = /[\u0001-\u001F\u007F]/u;
const DRIVE = /^[A-Za-z]:/;
/** Letters, digits, `.`, `_`, `-` and `/` only: none of the character checks can refuse it, and NFC leaves it as it is. */
const PLAIN = /^[A-Za-z0-9._/-]+$/;
/** An empty, `.` or `..` segment: the ones normalisation drops or resolves. */
const SPECIAL_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

/** Turns a model-written path into a repository-relative POSIX path, or says why it cannot. */
export function normalizeRepoPath(path: unknown): NormalizedPath {
  if (typeof path !== 'string') return { ok: false, reason: `the path is ${describeValue(path)}, not a string` };
  if (path.length === 0) return { ok: false, reason: 'the path is empty' };
  if (path.length > MAX_PATH_LENGTH) return { ok: false, reason: `the path is longer than ${MAX_PATH_LENGTH} characters` };
  const plain = PLAIN.test(path);
  if (!plain) {
    const refused = characterProblem(path);
    if (refused !== undefined) return { ok: false, reason: refused };
  }
  if (path.startsWith('/')) return { ok: false, reason: 'the path is absolute' };
  if (path.startsWith('~')) return { ok: false, reason: 'the path starts with "~" (a home directory)' };
  if (path.endsWith('/')) return { ok: false, reason: 'the path ends with "/" (a directory, not a file)' };
  // The common case: a plain path with no empty, `.` or `..` segment is already normal, so it is not split and joined.
  if (plain && !SPECIAL_SEGMENT.test(path)) return { ok: true, path };

  const segments: string[] = [];
  for (const segment of (plain ? path : path.normalize('NFC')).split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return { ok: false, reason: 'the path climbs out of the repository with ".."' };
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  if (segments.length === 0) return { ok: false, reason: 'the path names the repository root, not a file' };
  return { ok: true, path: segments.join('/') };
}

function characterProblem(path: string): string | undefined {
  if (path.includes('\u0000')) return 'the path contains a NUL byte';
  if (CONTROL.test(path)) return 'the path contains a control character';
  if (path.includes('\\')) return 'the path uses a backslash; use forward slashes';
  if (LOOKALIKE_SEPARATORS.test(path)) return 'the path contains a character that looks like a slash but is not one';
  if (INVISIBLE.test(path)) return 'the path contains an invisible formatting character';
  if (DRIVE.test(path)) return 'the path starts with a drive letter';
  return undefined;
}

/** A value's kind for a refusal sentence: "null", "an array", "an object", "a number". */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
