import { isAbsolute, relative } from 'node:path';
import { toSlashes } from '../io/index.js';
import type { ChangeCheck } from '../decide/index.js';
import { checkAfterCall, protectedPathList } from './post-check.js';
import type { ProtectedPaths } from './post-check.js';
import { unfinishedCalls } from '../state/index.js';
import type { OpenRecord } from '../state/index.js';
import { appendAudit } from '../decide/index.js';
import { auditOutcome, revertReason } from './put-back-report.js';
import type { AuditBase } from './put-back-report.js';

/** How many times a call's check is tried before it is given up as unchecked. */
const MAX_ATTEMPTS = 3;

export interface UnfinishedInput {
  readonly root: string;
  readonly base: AuditBase;
  readonly judge: ChangeCheck;
  /** Paths whose change is tampering whatever made it (the rulebook file), absolute or relative to the root. */
  readonly protectedPaths: ProtectedPaths;
  readonly observe: boolean;
  readonly now: () => Date;
  /** The end of the turn: every open call of the session is judged (see unfinishedCalls). */
  readonly atTurnEnd: boolean;
  /**
   * The git hooks, which serve no session: the calls of every session whose check died or failed are
   * judged, each as its own session's (`base.session` names only the hook in the audit log).
   */
  readonly everySession?: boolean;
}

/**
 * Judges the session's calls whose check never finished (its hook was killed, timed out or failed),
 * each against the snapshot taken before it, before this event goes on: what breaks a rule is put
 * back, as the check after the call would have done. Returns what the model must be told (undefined
 * when nothing was put back). A check that fails again leaves the call marked failed and throws: the
 * caller refuses, because a call nobody judged must not be built on.
 */
export async function finishUnfinishedCalls(input: UnfinishedInput): Promise<string | undefined> {
  const whose = input.everySession === true ? 'of an agent session' : 'of this session';
  const told = await judgeCalls(
    input,
    unfinishedCalls(input.root, input.everySession === true ? undefined : input.base.session, { atTurnEnd: input.atTurnEnd }),
    whose,
  );
  if (told.length === 0) return undefined;
  return [
    `holdfast gate: the check after an earlier command ${whose} did not finish (its hook was stopped or failed); the gate finished it now:`,
    ...told,
  ].join('\n');
}

/**
 * Judges each call against the snapshot taken before it, as its check after the call would, and
 * marks it checked (its record stays until a later snapshot covers it: put-back/checked-calls.ts).
 * Returns what the model must be told; throws when a check fails again (the call stays marked failed).
 */
export async function judgeCalls(input: Omit<UnfinishedInput, 'atTurnEnd'>, calls: readonly OpenRecord[], whose: string): Promise<string[]> {
  const { root, base } = input;
  const told: string[] = [];
  for (const open of calls) {
    const session = open.record.session;
    const audit = { ...base, session };
    if ('readOnly' in open.record) {
      open.close();
      continue;
    }
    if (open.failedAttempts >= MAX_ATTEMPTS) {
      // A check that fails every time would refuse the session's every call: after the last attempt the
      // call is recorded as unchecked and the model told; the git hooks still judge what it left at the commit.
      const why = `the check after an earlier call ${whose} (taken at ${open.record.time}) failed ${open.failedAttempts} times; its changes were not judged`;
      await appendAudit(root, {
        ...audit,
        action: `call ${open.record.toolUseId ?? open.name}`,
        rule: 'INTERNAL',
        name: 'UNCHECKED',
        decision: 'deny',
        detail: why,
      });
      told.push(`holdfast gate: ${why}. Check with \`git status\` and \`git diff\` that everything it changed follows the rulebook.`);
      open.close();
      continue;
    }
    open.checking();
    let outcome;
    try {
      outcome = await checkAfterCall({
        root,
        session,
        before: open.record,
        judge: input.judge,
        protectedPaths: async () => (await protectedPathList(input.protectedPaths)).map((path) => (isAbsolute(path) ? toSlashes(relative(root, path)) : path)),
        observe: input.observe,
        now: input.now,
      });
    } catch (error) {
      open.failed((error as Error).message);
      const detail = `the check after an earlier call (taken at ${open.record.time}) failed again: ${(error as Error).message}`;
      await appendAudit(root, {
        ...audit,
        action: `call ${open.record.toolUseId ?? open.name}`,
        rule: 'INTERNAL',
        name: 'UNCHECKED',
        decision: 'deny',
        detail,
      }).catch(() => undefined);
      throw new Error(
        `the check after an earlier call ${whose} (taken at ${open.record.time}) did not finish, and could not be finished now: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    if (outcome.reverted.length > 0 || outcome.refs.length > 0 || outcome.stillStaged.length > 0) {
      await auditOutcome(root, audit, outcome);
      if (!outcome.observed) told.push(revertReason(outcome));
    }
    open.checkedNow(outcome.leftIndex);
  }
  return told;
}
