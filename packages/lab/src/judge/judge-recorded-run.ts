import type { JudgeEvent, JudgeRule, RunEvent } from '@holdfast/core/contract';
import { reduceRunEvents } from '../store/index.js';
import type { GradeOptions } from './grade-rule.js';
import { judgeArm } from './judge-arm.js';
import type { JudgeLookup } from './judge-arm.js';

/** A judge event before the run file stamps its sequence number and time. */
export type JudgeEventDraft = Omit<JudgeEvent, 'seq' | 'time'>;

/**
 * Grades the arms of a recorded run with the given judge rules (a new rubric, a new judge)
 * without asking the models under test anything: the judge reads each arm as it was recorded.
 * Returns one `source: after` judge event per graded arm, for the caller to append.
 */
export async function judgeRecordedRun(
  events: readonly RunEvent[],
  rules: readonly JudgeRule[],
  judges: JudgeLookup,
  options: GradeOptions & { readonly onEvent?: (event: JudgeEventDraft) => void } = {},
): Promise<JudgeEventDraft[]> {
  const state = reduceRunEvents(events);
  const runId = state.runId ?? 'run';
  const drafts: JudgeEventDraft[] = [];
  for (const round of state.rounds) {
    for (const result of [round.told, round.held]) {
      if (result === undefined || options.signal?.aborted === true) continue;
      const judgements = await judgeArm(rules, result, judges, options);
      if (judgements.length === 0) continue;
      const draft: JudgeEventDraft = {
        type: 'judge',
        runId,
        roundId: round.roundId,
        target: round.target,
        task: round.task,
        rep: round.rep,
        judgeVersion: 1,
        arm: result.arm,
        source: 'after',
        judgements,
      };
      drafts.push(draft);
      options.onEvent?.(draft);
    }
  }
  return drafts;
}
