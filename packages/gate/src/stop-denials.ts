import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeAtomically } from './atomic-file.js';
import type { HookAnswer } from './hook-answer.js';
import { sessionStatePath } from './session-state.js';

/**
 * How many Stop denials in a row a turn gets before the gate lets it end. A model that cannot fix
 * what it is told (or will not) would otherwise be sent back forever: Codex 0.171.0 made 526 model
 * requests in 180 s on one such denial. The violation is not let through by ending the turn: it
 * stays refused at the commit (pre-commit, reference-transaction) and in CI.
 */
export const MAX_STOP_DENIALS = 3;

function readCount(path: string): number {
  try {
    const count = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(count) && count > 0 ? count : 0;
  } catch {
    return 0;
  }
}

/** The Stop answer that ends the turn, in both agents' protocol: `continue: false` with the reason for the person. */
export function endTurnAnswer(reason: string, denials: number): HookAnswer {
  const message = `${reason}\nholdfast: the turn ends unresolved after ${denials} refusals in a row; what is listed above still breaks the rulebook and is refused at the commit.`;
  return { stdout: `${JSON.stringify({ continue: false, stopReason: message, systemMessage: message })}\n`, stderr: '', exitCode: 0 };
}

function isContinue(answer: HookAnswer): boolean {
  if (answer.exitCode !== 0 || answer.stdout === '') return false;
  try {
    const parsed = JSON.parse(answer.stdout) as Record<string, unknown>;
    return parsed.decision === 'block';
  } catch {
    return false;
  }
}

/**
 * Counts the session's Stop denials in a row: the MAX_STOP_DENIALS-th is turned into an end of the
 * turn naming what is unresolved; an answer that lets the turn end starts the count again.
 */
export function boundStopDenials(root: string, session: string, answer: HookAnswer, reason: () => string): HookAnswer {
  const path = sessionStatePath(root, session, '.stops');
  if (!isContinue(answer)) {
    rmSync(path, { force: true });
    return answer;
  }
  const denials = readCount(path) + 1;
  if (denials >= MAX_STOP_DENIALS) {
    rmSync(path, { force: true });
    return endTurnAnswer(reason(), denials);
  }
  mkdirSync(dirname(path), { recursive: true });
  writeAtomically(path, String(denials));
  return answer;
}
