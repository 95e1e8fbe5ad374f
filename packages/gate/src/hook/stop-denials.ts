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

/** What the end of a turn comes to: the agent is held with a reason, or the turn ends with a message for the person. */
export type TurnEnd = { readonly kind: 'hold'; readonly reason: string } | { readonly kind: 'end'; readonly message: string };

/** The message that ends a turn the gate would hold again: what is unresolved, and that the commit still refuses it. */
export function endTurnMessage(reason: string, denials: number): string {
  return `${reason}\nholdfast: the turn ends unresolved after ${denials} refusals in a row; what is listed above still breaks the rulebook and is refused at the commit.`;
}

/**
 * Counts the session's Stop denials in a row: the MAX_STOP_DENIALS-th holding of the turn becomes
 * its end, naming what is unresolved. A turn the gate lets end starts the count again
 * (`resetStopDenials`).
 */
export function boundStopDenials(root: string, session: string, reason: string): TurnEnd {
  const place = sessionFilePlace(root, session, '.stops');
  const denials = readCount(place) + 1;
  if (denials >= MAX_STOP_DENIALS) {
    removeSealedState(place);
    return { kind: 'end', message: endTurnMessage(reason, denials) };
  }
  writeSealedState(place, String(denials));
  return { kind: 'hold', reason };
}

/** A turn that ends with nothing unresolved: the next holding counts from one. */
export function resetStopDenials(root: string, session: string): void {
  removeSealedState(sessionFilePlace(root, session, '.stops'));
}
