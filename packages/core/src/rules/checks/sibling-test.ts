import type { CheckResult, SiblingTestCheck } from '../../contract/index.js';
import { compileGlobs, escapeGlob, GLOB_OPTIONS, picomatchLib } from '../glob.js';
import type { CheckHandler } from './check-handler.js';
import { result } from './check-handler.js';

/**
 * R3: a module the round creates needs a test the round leaves behind. Only the round's final state
 * counts: a module written twice is one new module, a test written and then deleted is no test, and
 * a module the round deletes again was never added. Editing a file that already existed never needs
 * a test (the false positive the seed experiment warns about).
 */
export const siblingTestCheck: CheckHandler<SiblingTestCheck> = {
  description: 'A new module needs its test written in the same change.',
  timing: 'change',
  reads: 'paths',
  prepare(check, rule) {
    const isModule = compileGlobs(check.modules);
    const isExempt = compileGlobs(check.exempt);
    return (round) => {
      const firstWrite = new Map<string, number>();
      const finalState = new Map<string, 'written' | 'deleted'>();
      for (const action of round.actions) {
        if (!action.path.ok) continue;
        if (action.type === 'write') {
          if (!firstWrite.has(action.path.path)) firstWrite.set(action.path.path, action.index);
          finalState.set(action.path.path, 'written');
        } else if (action.type === 'delete') {
          finalState.set(action.path.path, 'deleted');
        }
      }
      const written = [...finalState].filter(([, state]) => state === 'written').map(([path]) => path);
      const writtenSet = new Set(written);
      const results: CheckResult[] = [];
      for (const [path, index] of firstWrite) {
        if (round.existing.has(path) || finalState.get(path) !== 'written' || !isModule(path) || isExempt(path)) continue;
        const candidates = testGlobs(check.tests, path);
        const test = findTest(candidates, written, writtenSet, path);
        const shown = JSON.stringify(path);
        if (test !== undefined) {
          results.push(result(rule, index, true, `write to ${shown} creates a new module and the round writes its test ${JSON.stringify(test)}.`));
        } else {
          const expected = candidates[0]?.replace(/\\(.)/g, '$1') ?? 'a sibling test';
          results.push(
            result(rule, index, false, `write to ${shown} creates a new module with no test; write ${JSON.stringify(expected)} in the same change.`),
          );
        }
      }
      return results;
    };
  },
};

const GLOB_CHARACTER = /(?<!\\)[*?[\]{}()!+@|]/;

/**
 * A template filled with a plain path is a literal file name, looked up in a set; compiling it as a
 * glob for every new module would cost more than the rest of the round's checks together.
 */
function findTest(candidates: readonly string[], written: readonly string[], writtenSet: ReadonlySet<string>, module: string): string | undefined {
  for (const candidate of candidates) {
    if (!GLOB_CHARACTER.test(candidate)) {
      const literal = candidate.includes('\\') ? candidate.replace(/\\(.)/g, '$1') : candidate;
      if (literal !== module && writtenSet.has(literal)) return literal;
      continue;
    }
    const matches = picomatchLib()(candidate, GLOB_OPTIONS);
    const test = written.find((other) => other !== module && matches(other));
    if (test !== undefined) return test;
  }
  return undefined;
}

/** The test globs for one module: `{dir}`, `{stem}` and `{ext}` filled in, escaped so the path matches literally. */
export function testGlobs(templates: readonly string[], modulePath: string): string[] {
  const slash = modulePath.lastIndexOf('/');
  const dir = slash === -1 ? '' : modulePath.slice(0, slash);
  const file = modulePath.slice(slash + 1);
  const dot = file.lastIndexOf('.');
  const stem = dot <= 0 ? file : file.slice(0, dot);
  const ext = dot <= 0 ? '' : file.slice(dot + 1);
  const values: Record<string, string> = { dir: escapeGlob(dir), stem: escapeGlob(stem), ext: escapeGlob(ext) };
  return templates.map((template) => {
    // Literal text and placeholder names alternate: ['', 'dir', '/', 'stem', '.test.', 'ext', ''].
    const parts = templateParts(template);
    let filled = '';
    for (let index = 0; index < parts.length; index++) filled += index % 2 === 0 ? parts[index] : (values[parts[index] as string] ?? '');
    return filled.startsWith('/') ? filled.slice(1) : filled;
  });
}

const PLACEHOLDER = /\{(dir|stem|ext)\}/;
const partsOf = new Map<string, readonly string[]>();

/** A template cut at its placeholders, once per template rather than once per module. */
function templateParts(template: string): readonly string[] {
  let parts = partsOf.get(template);
  if (parts === undefined) {
    parts = template.split(PLACEHOLDER);
    if (partsOf.size < 256) partsOf.set(template, parts);
  }
  return parts;
}
