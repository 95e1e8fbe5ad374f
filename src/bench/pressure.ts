import { fileURLToPath } from 'node:url';
import { loadPressureSuite, scorePressureResponse, ruleOf } from '../pressure/index.js';
import { growth } from './cpu-growth.js';
import { growthFigure } from './figure.js';
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

/**
 * Pressure scoring cost: a typical reply, the scaling on long and adversarial replies (linear means
 * ~10× for 10× the text), and linting the shipped fixtures against the default rulebook.
 */
export async function runBench(print: (line: string) => void, context: BenchContext): Promise<void> {
  const dir = fileURLToPath(new URL('../../fixtures/pressure', import.meta.url));
  const lintStart = process.hrtime.bigint();
  const suite = await loadPressureSuite({ dir });
  const lintMs = Number(process.hrtime.bigint() - lintStart) / 1e6;
  print(`pressure: load + lint of ${suite.fixtures.length} shipped fixtures with the default rulebook: ${lintMs.toFixed(1)} ms (cold, one run)`);

  const fixture = suite.fixtures[0];
  if (fixture === undefined) throw new Error('no shipped pressure fixture to bench');
  const rule = ruleOf(suite.rulebook, fixture);
  const typical = `CHOICE: ${fixture.correct_choice}\n\n${rule.id} ${rule.name}: ${fixture.rationalizations[0]?.counter ?? ''}\n`.repeat(3);
  const score = (text: string) => () => scorePressureResponse(fixture, text, { rule });
  const typicalMicros = timeMicros(2000, score(typical));
  print(`pressure: score a ${typical.length}-character reply: median ${typicalMicros.toFixed(1)} µs`);

  const shapes: [string, string][] = [
    ['prose', 'The deadline is close but the rule still holds here. '],
    ['choice-lines', 'CHOICE: A and B or C / D\n'],
    ['decoration', '**>>> `CHOICE` '],
    ['no-newlines', 'x'],
    // One CHOICE line that goes on and on: every option mention on it is read.
    ['one-choice-line', 'B or c (A)    option d, rule  8 '],
  ];
  print(
    'pressure: scoring growth, 100 KB vs 10 KB and 300 KB vs 100 KB of the same shape (CPU time, fastest of 15, sizes alternated; target ≤ 12× for 10×, ≤ 3.6× for 3×)',
  );
  for (const [shape, unit] of shapes) {
    const prefix = shape === 'one-choice-line' ? 'CHOICE: ' : '';
    const small = prefix + unit.repeat(Math.ceil(10_000 / unit.length));
    const large = prefix + unit.repeat(Math.ceil(100_000 / unit.length));
    const { smallMs, largeMs } = await growth(score(small), score(large), { ratio: 10 });
    context.figure(growthFigure(`score ${shape}, time at 100 KB / at 10 KB`, smallMs, largeMs, 10, 12));
  }
  // Above ~50 KB, V8's global regex replace and word splitting slow down per character (allocation
  // and GC, not the scorer's algorithm); 100 KB → 300 KB shows the growth there is linear.
  const unit = shapes[0]?.[1] ?? 'x ';
  const mid = unit.repeat(Math.ceil(100_000 / unit.length));
  const big = unit.repeat(Math.ceil(300_000 / unit.length));
  const { smallMs, largeMs } = await growth(score(mid), score(big), { ratio: 3 });
  context.figure(growthFigure('score prose, time at 300 KB / at 100 KB', smallMs, largeMs, 3, 3.6));
}
