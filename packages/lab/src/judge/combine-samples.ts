import type { JudgeSample, Judgement } from '@holdfast/core/contract';

/**
 * The majority of a rule's samples. Errors do not vote; no graded sample, or an even split, is a
 * judge-error. `agreement` is the majority's share of the graded samples; `confidence` the mean
 * of the majority's; reason and evidence come from its most confident sample.
 */
export function combineSamples(
  samples: readonly JudgeSample[],
): Pick<Judgement, 'verdict' | 'reason' | 'evidence'> & Partial<Pick<Judgement, 'confidence' | 'agreement'>> {
  const graded = samples.filter((sample) => sample.verdict !== 'judge-error');
  if (graded.length === 0) {
    const first = samples[0];
    return { verdict: 'judge-error', reason: first?.reason ?? 'the judge was not asked', evidence: [] };
  }
  const violated = graded.filter((sample) => sample.verdict === 'violated');
  const clean = graded.filter((sample) => sample.verdict === 'clean');
  if (violated.length === clean.length) {
    return {
      verdict: 'judge-error',
      reason: `the graded samples split evenly (${violated.length} violated, ${clean.length} clean)`,
      evidence: [],
      agreement: 0.5,
    };
  }
  const majority = violated.length > clean.length ? violated : clean;
  const confidence = majority.reduce((sum, sample) => sum + (sample.confidence ?? 0), 0) / majority.length;
  const surest = majority.reduce((best, sample) => ((sample.confidence ?? 0) > (best.confidence ?? 0) ? sample : best));
  const errors = samples.length - graded.length;
  return {
    verdict: surest.verdict,
    confidence,
    agreement: majority.length / graded.length,
    reason: errors === 0 ? surest.reason : `${surest.reason} (${errors} of ${samples.length} samples were judge-errors)`,
    evidence: surest.evidence,
  };
}
