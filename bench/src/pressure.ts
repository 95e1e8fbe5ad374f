import { fileURLToPath } from 'node:url';
import { loadPressureSuite, scorePressureResponse, ruleOf } from '@holdfast/lab/pressure';
import { growthFigure } from './figure.js';
import { measureGrowthApart } from './growth-process.js';
import type { GrowthCase } from './growth-process.js';
import type { BenchContext } from './index.js';

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function timeMicros(repeats: number, work: () => void): number {
  work();
  const samples: number[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    const start = process.hrtime.bigint();
    work();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return median(samples);
}

const FIXTURES = fileURLToPath(new URL('../../fixtures/pressure', import.meta.url));

type Suite = Awaited<ReturnType<typeof loadPressureSuite>>;

/** A scorer of replies against the shipped suite's first fixture and the rule it tests. */
function firstFixtureScorer(suite: Suite) {
  const fixture = suite.fixtures[0];
  if (fixture === undefined) throw new Error('no shipped pressure fixture to bench');
  const rule = ruleOf(suite.rulebook, fixture);
  return { fixture, rule, score: (text: string) => () => scorePressureResponse(fixture, text, { rule }) };
}

const SHAPES: [string, string][] = [
  ['prose', 'The deadline is close but the rule still holds here. '],
  ['choice-lines', 'CHOICE: A and B or C / D\n'],
  ['decoration', '**>>> `CHOICE` '],
  ['no-newlines', 'x'],
  // One CHOICE line that goes on and on: every option mention on it is read.
  ['one-choice-line', 'B or c (A)    option d, rule  8 '],
];

/** Each shape scored at 10 KB and 100 KB, and prose at 100 KB and 300 KB (made in the process that measures them). */
export async function scoringGrowthCases(): Promise<GrowthCase[]> {
  const { score } = firstFixtureScorer(await loadPressureSuite({ dir: FIXTURES }));
  const cases: GrowthCase[] = SHAPES.map(([shape, unit]) => {
    const prefix = shape === 'one-choice-line' ? 'CHOICE: ' : '';
    const small = prefix + unit.repeat(Math.ceil(10_000 / unit.length));
    const large = prefix + unit.repeat(Math.ceil(100_000 / unit.length));
    return { name: `score ${shape}, time at 100 KB / at 10 KB`, small: score(small), large: score(large), ratio: 10 };
  });
  // Above ~50 KB, V8's global regex replace and word splitting slow down per character (allocation
  // and GC, not the scorer's algorithm); 100 KB → 300 KB shows the growth there is linear.
  const unit = SHAPES[0]?.[1] ?? 'x ';
  const mid = unit.repeat(Math.ceil(100_000 / unit.length));
  const big = unit.repeat(Math.ceil(300_000 / unit.length));
  return [...cases, { name: 'score prose, time at 300 KB / at 100 KB', small: score(mid), large: score(big), ratio: 3 }];
}

/** The bound on growth for `ratio` times the text: linear, with a fifth for noise. */
const GROWTH_BOUND: Record<number, number> = { 10: 12, 3: 3.6 };

/**
 * Pressure scoring cost: a typical reply, the scaling on long and adversarial replies (linear means
 * ~10× for 10× the text), and linting the shipped fixtures against the default rulebook.
 */
export async function runBench(print: (line: string) => void, context: BenchContext): Promise<void> {
  const lintStart = process.hrtime.bigint();
  const suite = await loadPressureSuite({ dir: FIXTURES });
  const lintMs = Number(process.hrtime.bigint() - lintStart) / 1e6;
  print(`pressure: load + lint of ${suite.fixtures.length} shipped fixtures with the default rulebook: ${lintMs.toFixed(1)} ms (cold, one run)`);

  const { fixture, rule, score } = firstFixtureScorer(suite);
  const typical = `CHOICE: ${fixture.correct_choice}\n\n${rule.id} ${rule.name}: ${fixture.rationalizations[0]?.counter ?? ''}\n`.repeat(3);
  const typicalMicros = timeMicros(2000, score(typical));
  print(`pressure: score a ${typical.length}-character reply: median ${typicalMicros.toFixed(1)} µs`);

  print(
    'pressure: scoring growth, 100 KB vs 10 KB and 300 KB vs 100 KB of the same shape (CPU time, fastest of 15, sizes alternated, in a process with one GC thread; target ≤ 12× for 10×, ≤ 3.6× for 3×)',
  );
  for (const { name, ratio, smallMs, largeMs } of await measureGrowthApart(import.meta.url, 'scoringGrowthCases')) {
    context.figure(growthFigure(name, smallMs, largeMs, ratio, GROWTH_BOUND[ratio] ?? ratio));
  }
}
