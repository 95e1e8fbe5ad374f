import { InputError } from '@holdfast/core/contract';
import type { ArmResult, JudgeVerdict, Rulebook } from '@holdfast/core/contract';
import { checkActions } from '@holdfast/core/rules';
import type { CalibrationCase } from './calibration-cases.js';
import { gradeRule } from './grade-rule.js';
import type { GradeOptions } from './grade-rule.js';
import type { JudgeLookup } from './judge-arm.js';
import { judgeMaterial } from './judge-material.js';
import { cohensKappa, confusionOf } from './kappa.js';
import type { Confusion, Kappa } from './kappa.js';

export interface CalibratedCase {
  readonly id: string;
  readonly rule: string;
  readonly label: 'violated' | 'clean';
  readonly judge: JudgeVerdict;
  readonly confidence?: number;
  /** The covering checked rules' verdict on the same actions, when the judge rule names any. */
  readonly deterministic?: 'violated' | 'clean';
}

export interface Agreement {
  readonly confusion: Confusion;
  readonly kappa: Kappa;
}

export interface RuleCalibration {
  readonly rule: string;
  readonly name: string;
  readonly cases: number;
  /** Cases the judge could not grade: left out of kappa, counted here. */
  readonly judgeErrors: number;
  /** Rows: the person's label; columns: the judge's grade. */
  readonly judgeVsPerson: Agreement;
  /** Where checked rules decide the same thing (`covers`): the judge against them. */
  readonly judgeVsDeterministic?: Agreement & { readonly covers: readonly string[] };
}

export interface CalibrationReport {
  readonly rules: RuleCalibration[];
  readonly overall: Agreement & { readonly judgeErrors: number };
  readonly cases: CalibratedCase[];
}

/**
 * Grades every labelled case with its judge rule and reports how far the judge agrees with the
 * person (Cohen's kappa with a 95% interval, the confusion matrix), per rule and overall; for a
 * rule that `covers` checked rules, also how far it agrees with them on the same actions.
 */
export async function calibrate(
  cases: readonly CalibrationCase[],
  rulebook: Rulebook,
  judges: JudgeLookup,
  options: GradeOptions = {},
): Promise<CalibrationReport> {
  const rules = new Map((rulebook.judgeRules ?? []).map((rule) => [rule.id, rule]));
  const unknown = cases.find((item) => !rules.has(item.rule));
  if (unknown !== undefined) {
    throw new InputError(
      'E_CALIBRATION_RULE',
      `case "${unknown.id}" is about rule "${unknown.rule}", which is not a judge rule of the rulebook (${[...rules.keys()].join(', ') || 'none'}); use --rulebook with the rulebook that defines it.`,
    );
  }
  const graded: CalibratedCase[] = [];
  for (const item of cases) {
    if (options.signal?.aborted === true) break;
    const rule = rules.get(item.rule)!;
    const judgement = await gradeRule(rule, judgeMaterial(caseArm(item)), judges(rule.target), options);
    const deterministic = rule.covers === undefined ? undefined : await deterministicVerdict(item, rule.covers, rulebook);
    graded.push({
      id: item.id,
      rule: item.rule,
      label: item.label,
      judge: judgement.verdict,
      ...(judgement.confidence !== undefined ? { confidence: judgement.confidence } : {}),
      ...(deterministic !== undefined ? { deterministic } : {}),
    });
  }
  const perRule = [...rules.values()]
    .filter((rule) => graded.some((item) => item.rule === rule.id))
    .map((rule): RuleCalibration => {
      const mine = graded.filter((item) => item.rule === rule.id);
      const covered = mine.filter((item) => item.deterministic !== undefined && item.judge !== 'judge-error');
      return {
        rule: rule.id,
        name: rule.name,
        cases: mine.length,
        judgeErrors: mine.filter((item) => item.judge === 'judge-error').length,
        judgeVsPerson: agreement(mine),
        ...(rule.covers !== undefined
          ? {
              judgeVsDeterministic: {
                covers: rule.covers,
                ...agreementOf(covered.map((item) => [item.deterministic!, item.judge as 'violated' | 'clean'] as const)),
              },
            }
          : {}),
      };
    });
  return { rules: perRule, overall: { ...agreement(graded), judgeErrors: graded.filter((item) => item.judge === 'judge-error').length }, cases: graded };
}

function agreement(items: readonly CalibratedCase[]): Agreement {
  return agreementOf(items.filter((item) => item.judge !== 'judge-error').map((item) => [item.label, item.judge as 'violated' | 'clean'] as const));
}

function agreementOf(pairs: readonly (readonly ['violated' | 'clean', 'violated' | 'clean'])[]): Agreement {
  const confusion = confusionOf(pairs);
  return { confusion, kappa: cohensKappa(confusion) };
}

/** A case as the arm record the judge reads after a plan-mode arm: every action applied. */
function caseArm(item: CalibrationCase): ArmResult {
  return {
    arm: 'told',
    verdict: 'clean',
    reason: '',
    ...(item.reply !== undefined ? { reasoning: item.reply } : {}),
    parse: { kind: 'actions' },
    actions: item.actions.map((action, index) => ({ index, action, status: 'applied', violations: [] })),
    checks: [],
  };
}

async function deterministicVerdict(item: CalibrationCase, covers: readonly string[], rulebook: Rulebook): Promise<'violated' | 'clean'> {
  const checks = await checkActions(item.actions, item.existing, { ...rulebook, rules: rulebook.rules.filter((rule) => covers.includes(rule.id)) });
  return checks.some((check) => !check.ok) ? 'violated' : 'clean';
}
