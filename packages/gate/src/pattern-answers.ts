import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile } from '@holdfast/core/command';
import { answersFrom, knownAnswers } from '@holdfast/core/rules';
import { writeAtomically } from './atomic-file.js';
import { HOLDFAST_DIR } from './session-state.js';

/** How many answers a project keeps (the most recent): a session's test commands, many times over. */
const KEEP = 256;

let loadedFrom: string | undefined;

function answersPath(root: string): string {
  return join(root, HOLDFAST_DIR, 'cache', 'pattern-answers.json');
}

/**
 * The answers rulebook patterns gave for commands in earlier hook processes of this project (see
 * answersFrom in rules/regex.ts): a commit judged against `npm test` run a dozen times before does
 * not load RE2 to match it again. The file is read only when a pattern first needs an answer. It is
 * holdfast's cache, trusted as the session state is; one that does not read back is ignored.
 */
export function keepPatternAnswersOf(root: string): void {
  if (loadedFrom === root) return;
  loadedFrom = root;
  answersFrom(() => {
    const record = readJsonFile(answersPath(root)) as { format?: unknown; entries?: unknown } | undefined;
    if (record?.format !== 1 || !Array.isArray(record.entries)) return [];
    return record.entries.filter((entry): entry is [string, boolean] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'boolean');
  });
}

/** Keeps what this process learned for the project it loaded answers for; a cache that cannot be written only costs speed. */
export function savePatternAnswers(): void {
  const { entries, learned } = knownAnswers();
  if (loadedFrom === undefined || !learned) return;
  try {
    mkdirSync(join(loadedFrom, HOLDFAST_DIR, 'cache'), { recursive: true });
    writeAtomically(answersPath(loadedFrom), JSON.stringify({ format: 1, entries: entries.slice(-KEEP) }));
  } catch {
    // read-only project or a full disk: the next process matches again
  }
}
