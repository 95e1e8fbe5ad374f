import type { HookAnswer } from '../decide/index.js';
import { readSealedState, removeSealedState, sessionFilePlace, writeSealedState } from '../state/index.js';
import type { SealedPlace } from '../state/index.js';

/**
 * How many Stop denials in a row a turn gets before the gate lets it end. A model that cannot fix
 * what it is told (or will not) would otherwise be sent back forever: Codex 0.171.0 made 526 model
 * requests in 180 s on one such denial. The violation is not let through by ending the turn: it
 * stays refused at the commit (pre-commit, reference-transaction) and in CI.
 */
export const MAX_STOP_DENIALS = 3;

/**
 * The denials so far, sealed and mirrored outside the project (sealed-state-file.ts): a command that
 * deletes or rewrites the count gets it back from the mirror. A count no seal verifies fails closed
 * as the bound reached (the turn ends now, with the reason): an unknown count must never become an
 * endless loop, and ending the turn lets nothing through (the commit still refuses it).
 */
function readCount(place: SealedPlace): number {
  const read = readSealedState(place);
  if (read.kind === 'missing') return 0;
  if (read.kind === 'invalid') return MAX_STOP_DENIALS - 1;
  const count = Number(read.body.trim());
  return Number.isInteger(count) && count > 0 ? Math.min(count, MAX_STOP_DENIALS - 1) : MAX_STOP_DENIALS - 1;
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
  const place = sessionFilePlace(root, session, '.stops');
  if (!isContinue(answer)) {
    removeSealedState(place);
    return answer;
  }
  const denials = readCount(place) + 1;
  if (denials >= MAX_STOP_DENIALS) {
    removeSealedState(place);
    return endTurnAnswer(reason(), denials);
  }
  writeSealedState(place, String(denials));
  return answer;
}
