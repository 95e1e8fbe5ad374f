import { fileURLToPath } from 'node:url';
import { measureDrafting, readCorpus } from '@holdfast/lab/onboard';
import type { SetMeasure } from '@holdfast/lab/onboard';
import type { BenchContext } from './index.js';

function figures(label: string, measure: SetMeasure, context: BenchContext, print: (line: string) => void): void {
  print(
    `${label}: ${measure.files} rule files, ${measure.rules} rules drafted, ${measure.proposed} checks proposed: ${measure.right} right, ${measure.inverted} inverted; ${measure.checkable} checkable rules labelled, ${measure.checkable - measure.missed.length} enforced by a right check`,
  );
  for (const check of measure.checks)
    if (check.verdict !== 'right')
      print(`  ${check.verdict}: ${check.dir}:${check.line} ${check.kind} ${check.polarity} ${check.objects.join(', ')} (${check.reason ?? ''})`);
  for (const miss of measure.missed) print(`  missed: ${miss.dir}:${miss.line} ${miss.kind}`);
  context.figure({
    name: `drafted-check precision (${label})`,
    value: measure.precision,
    unit: 'ratio',
    better: 'higher',
    target: { on: 'value', atLeast: 0.9 },
    detail: `${measure.right} of ${measure.proposed} drafted checks right in kind, polarity and object`,
  });
  context.figure({
    name: `drafted checks inverted (${label})`,
    value: measure.inverted,
    unit: 'count',
    better: 'lower',
    target: { on: 'value', atMost: 0 },
    detail: `drafted checks that forbid what their sentence, or another line of the file, requires or allows`,
  });
  context.figure({
    name: `checkable-rule recall (${label})`,
    value: measure.recall,
    unit: 'ratio',
    better: 'higher',
    target: { on: 'value', atLeast: 0.5 },
    detail: `${measure.checkable - measure.missed.length} of ${measure.checkable} rules labelled checkable are enforced by a right check`,
  });
}

/**
 * Drafting against the labelled corpus of real rule files (fixtures/rule-files): each drafted check judged
 * by kind, polarity and object together, on the files the drafter was tuned on and on the held-out files.
 */
export function runBench(print: (line: string) => void, context: BenchContext): Promise<void> {
  const corpus = readCorpus(fileURLToPath(new URL('../../fixtures/rule-files/', import.meta.url)));
  const measure = measureDrafting(corpus);
  figures('tuning', measure.tuning, context, print);
  figures('held-out', measure.heldOut, context, print);
  return Promise.resolve();
}
