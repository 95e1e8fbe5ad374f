import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { answersFrom, knownAnswers } from '@holdfast/core/rules';
import { writeAtomically } from '../io/index.js';
import { HOLDFAST_DIR } from './session-state.js';
import { sealText, unsealText } from './state-seal.js';

const SEAL_PURPOSE = 'pattern-answers';

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
 * holdfast's cache, sealed like the session record (see state-seal.ts): a file a command forged to
 * say a pattern does not match, or one that does not read back, is ignored.
 */
export function keepPatternAnswersOf(root: string): void {
  if (loadedFrom === root) return;
  loadedFrom = root;
  answersFrom(() => {
    let text: string;
    try {
      text = readFileSync(answersPath(root), 'utf8');
    } catch {
      return [];
    }
    const body = unsealText(SEAL_PURPOSE, text);
    const record = (body === undefined ? undefined : jsonOrUndefined(body)) as { format?: unknown; entries?: unknown } | undefined;
    if (record?.format !== 2 || !Array.isArray(record.entries)) return [];
    return record.entries.filter((entry): entry is [string, boolean] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'boolean');
  });
}

/** Keeps what this process learned for the project it loaded answers for; a cache that cannot be written only costs speed. */
export function savePatternAnswers(): void {
  const { entries, learned } = knownAnswers();
  if (loadedFrom === undefined || !learned) return;
  try {
    mkdirSync(join(loadedFrom, HOLDFAST_DIR, 'cache'), { recursive: true });
    writeAtomically(answersPath(loadedFrom), sealText(SEAL_PURPOSE, JSON.stringify({ format: 2, entries: entries.slice(-KEEP) })));
  } catch {
    // read-only project or a full disk: the next process matches again
  }
}
