import type { ArmResult, JudgeRule, Judgement } from '@holdfast/core/contract';
import { gradeRule } from './grade-rule.js';
import type { GradeOptions, JudgeModel } from './grade-rule.js';
import { judgeMaterial } from './judge-material.js';

/** Finds the model behind a judge rule's target id; undefined when no such target is configured. */
export type JudgeLookup = (targetId: string) => JudgeModel | undefined;

/**
 * Every judge rule's grade of one arm, in rulebook order. An arm that ended in an error before it
 * did anything has no record to grade and gets none. Never throws and never touches `arm`.
 */
export async function judgeArm(rules: readonly JudgeRule[], arm: ArmResult, judges: JudgeLookup, options: GradeOptions = {}): Promise<Judgement[]> {
  if (rules.length === 0 || !hasRecord(arm)) return [];
  const material = judgeMaterial(arm);
  const judgements: Judgement[] = [];
  for (const rule of rules) {
    if (options.signal?.aborted === true) break;
    judgements.push(await gradeRule(rule, material, judges(rule.target), options));
  }
  return judgements;
}

function hasRecord(arm: ArmResult): boolean {
  return arm.actions.length > 0 || arm.session !== undefined || arm.parse !== undefined;
}
