import { fileURLToPath } from 'node:url';
import { measureDrafting, readCorpus } from '@holdfast/lab/onboard';
import type { BenchContext } from './index.js';

/**
 * Drafting against the labelled corpus of real rule files (fixtures/rule-files): precision and
 * recall of the checks `holdfast rulebook init` proposes, the figures the README quotes.
 */
export function runBench(print: (line: string) => void, context: BenchContext): Promise<void> {
  const corpus = readCorpus(fileURLToPath(new URL('../../fixtures/rule-files/', import.meta.url)));
  const measure = measureDrafting(corpus);
  print(
    `${measure.files} rule files, ${measure.rules} rules drafted, ${measure.proposed} checks proposed (${measure.correct} right), ${measure.labelledChecks} rules labelled as checks`,
  );
  for (const miss of measure.mismatches) print(`  ${miss.dir}:${miss.line} labelled ${miss.expected}, drafted ${miss.proposed}`);
  context.figure({
    name: 'proposed-check precision',
    value: measure.precision,
    unit: 'ratio',
    better: 'higher',
    target: { on: 'value', atLeast: 0.9 },
    detail: `${measure.correct} of ${measure.proposed} proposed checks have the labelled kind`,
  });
  context.figure({
    name: 'proposed-check recall',
    value: measure.recall,
    unit: 'ratio',
    better: 'higher',
    detail: `${measure.correct} of ${measure.labelledChecks} rules labelled with a kind drafting proposes`,
  });
  context.figure({
    name: 'pending kinds named',
    value: measure.pending.labelled === 0 ? 1 : measure.pending.named / measure.pending.labelled,
    unit: 'ratio',
    better: 'higher',
    detail: `${measure.pending.named} of ${measure.pending.labelled} rules labelled needs:KIND are drafted as prose naming that kind`,
  });
  return Promise.resolve();
}
