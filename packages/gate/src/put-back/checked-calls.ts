import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeCrypto } from '../io/index.js';
import type { ChangeCheck } from '../decide/index.js';
import { sessionCalls, snapshotStorePath } from '../state/index.js';
import type { SnapshotRecord } from '../state/index.js';
import { indexChanges } from './outside-changes.js';
import { changeActions } from './post-check.js';
import { judgeCalls } from './unfinished-calls.js';
import type { UnfinishedInput } from './unfinished-calls.js';

// Issue 42: a request can only make a decision stricter. An after-call or a Stop names a call, but any
// process inside the sandbox (the call itself among them) can send one, so neither ends the call: a
// checked call keeps its before-snapshot, and every after-call that names it judges it again from
// there. The gate lets a checked call's record go only on what it sees itself: a later snapshot of the
// same session (the next call's before) that holds nothing the rules refuse since that snapshot. What
// the call writes after that lands in the later call's comparison, so no order of requests leaves a
// write without a snapshot from before it.

function digestOf(path: string): string | undefined {
  try {
    return nodeCrypto().createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}

export interface CoverInput {
  readonly root: string;
  readonly session: string;
  /** The snapshot the gate just took before a call of the session. */
  readonly snapshot: SnapshotRecord;
  /** The session's judge of work-tree changes (rules at `block` only). */
  readonly judge: ChangeCheck;
}

/**
 * Lets go of the session's checked calls that the new snapshot covers: the work tree in it is the one
 * the call's check left (the same index), or what changed since the call's own before-snapshot breaks
 * no rule. A call whose changes up to now still break one keeps its record (the after-call that names
 * it, or the fallback below, puts them back); a comparison that fails keeps it too. Returns how many
 * records were let go.
 */
export async function coverCheckedCalls(input: CoverInput): Promise<number> {
  const { root, session, snapshot } = input;
  if (snapshot.index === undefined) return 0;
  const store = snapshotStorePath(root);
  const now = join(store, snapshot.index);
  const nowDigest = digestOf(now);
  let dropped = 0;
  for (const call of sessionCalls(root, session)) {
    if (!call.checked || 'readOnly' in call.record || call.record.index === undefined || call.record.index === snapshot.index) continue;
    let covered = call.left !== undefined && call.left === nowDigest;
    if (!covered) {
      try {
        const found = indexChanges(root, join(store, call.record.index), now);
        if (found === undefined) covered = true;
        else {
          const { actions, undecodable } = changeActions(root, undefined, found.changes);
          const existedBefore = new Set(found.changes.filter((change) => change.from !== null).map((change) => change.path));
          covered = (await input.judge({ root, session, round: 'work-tree', actions, existedBefore, undecodable })).length === 0;
        }
      } catch {
        covered = false;
      }
    }
    if (covered) {
      call.drop();
      dropped += 1;
    }
  }
  return dropped;
}

/**
 * An after-call whose call has no record (the gate let it go, or never took one), or a "before" that
 * names a call the gate let go: every record the session still holds is judged against its own
 * before-snapshot and what breaks a rule is put back, as the after-call of each would. Returns what
 * the model must be told and how many records were judged.
 */
export async function judgeSessionCalls(
  input: Omit<UnfinishedInput, 'atTurnEnd' | 'everySession'>,
): Promise<{ readonly judged: number; readonly told: string | undefined }> {
  const calls = sessionCalls(input.root, input.base.session).filter((call) => !('readOnly' in call.record));
  if (calls.length === 0) return { judged: 0, told: undefined };
  const told = await judgeCalls(input, calls, 'of this session');
  return {
    judged: calls.length,
    told:
      told.length === 0 ? undefined : ['holdfast gate: the changes since the last snapshots of this session the gate holds were judged:', ...told].join('\n'),
  };
}
