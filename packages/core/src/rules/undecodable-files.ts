import type { Action, CheckResult, Rulebook, RuleCheck } from '../contract/index.js';
import { manifestOf } from './dependencies/read-dependencies.js';
import { compileGlobs } from './glob.js';
import type { PathMatcher } from './glob.js';
import { normalizeRepoPath } from './paths.js';

interface TextReader {
  readonly id: string;
  readonly name: string;
  readonly reaches: PathMatcher;
}

const NOWHERE: PathMatcher = () => false;

function within(files: readonly string[], exclude: readonly string[] = []): PathMatcher {
  const included = compileGlobs(files);
  const excluded = compileGlobs(exclude);
  return (path) => included(path) && !excluded(path);
}

/**
 * Where a check kind reads a written file's text, by its own globs. A secret rule without `files`
 * scans every text file but does not claim binary ones (an image, an archive): it still scans what
 * of them decodes. `custom` checks name no files, so no path is theirs to claim.
 */
function readsTextAt(check: RuleCheck): PathMatcher {
  switch (check.kind) {
    case 'forbidden-pattern':
    case 'code':
      return within(check.files, check.exclude);
    case 'http-helper': {
      const folders = compileGlobs(check.folders);
      return (path) => folders(path) && path !== check.helper;
    }
    case 'secret':
      return check.files === undefined ? NOWHERE : compileGlobs(check.files);
    case 'dependency': {
      const manifests = new Set<string>(check.manifests);
      return (path) => {
        const manifest = manifestOf(path);
        return manifest !== undefined && manifests.has(manifest);
      };
    }
    default:
      return NOWHERE;
  }
}

const prepared = new WeakMap<Rulebook, readonly TextReader[]>();

function textReaders(rulebook: Rulebook): readonly TextReader[] {
  const cached = prepared.get(rulebook);
  if (cached !== undefined) return cached;
  const readers = rulebook.rules.map((rule) => ({ id: rule.id, name: rule.name, reaches: readsTextAt(rule.check) }));
  prepared.set(rulebook, readers);
  return readers;
}

/**
 * The rules whose globs reach a file that was read from disk but is not text (neither valid UTF-8 nor
 * valid in the encoding its byte-order mark names): each refuses the write, naming the file and why,
 * because a rule that cannot read a file cannot say it is clean. `undecodable` maps a write's path
 * to the reason its bytes did not decode; a file no content rule reaches (an image) passes.
 */
export function undecodableResults(rulebook: Rulebook, actions: readonly Action[], undecodable: ReadonlyMap<string, string>): CheckResult[] {
  if (undecodable.size === 0) return [];
  const readers = textReaders(rulebook);
  const results: CheckResult[] = [];
  for (const [index, action] of actions.entries()) {
    if (action.type !== 'write') continue;
    const reason = undecodable.get(action.path);
    const normalized = normalizeRepoPath(action.path);
    if (reason === undefined || !normalized.ok) continue;
    for (const reader of readers) {
      if (!reader.reaches(normalized.path)) continue;
      results.push({ rule: reader.id, name: reader.name, actionIndex: index, ok: false, detail: `${reader.id} ${reader.name}: ${action.path} is ${reason}.` });
    }
  }
  return results;
}
