import { describe, expect, it } from 'vitest';
import { cpuMsPerRun, growth, MIN_SAMPLE_MS } from './cpu-growth.js';

/** A CPU clock that moves only when the work says it spent time, and a log of which work ran. */
function fakeCpu() {
  let now = 0;
  const runs: string[] = [];
  const work = (name: string, costMs: (run: number) => number) => {
    let run = 0;
    return () => {
      runs.push(name);
      now += costMs(run++);
    };
  };
  return { clock: () => now, runs, work };
}

describe('CPU time per run', () => {
  it('is the clock time spent over the runs, divided by the runs', async () => {
    const cpu = fakeCpu();
    const work = cpu.work('w', (run) => (run === 0 ? 4 : 1));
    expect(await cpuMsPerRun(work, 4, cpu.clock)).toBe(7 / 4);
    expect(cpu.runs).toHaveLength(4);
  });
});

describe('a growth measure', () => {
  it('keeps the fastest sample of each size, so a sample slowed by other work does not decide it', async () => {
    const cpu = fakeCpu();
    // Most samples pay for something besides the work (a collection, a cold cache): only the third
    // sample of the small input (its runs 21-30, after one warm-up run) and the second of the large
    // one (its run 3, after a warm-up and a calibration run) do not.
    const small = cpu.work('small', (run) => (run >= 21 && run <= 30 ? 10 : 30));
    const large = cpu.work('large', (run) => (run === 3 ? 100 : 300));
    expect(await growth(small, large, { ratio: 10, samples: 5, clock: cpu.clock })).toEqual({ smallMs: 10, largeMs: 100 });
  });

  it('warms up, then alternates the sizes, the small one run `ratio` times per sample', async () => {
    const cpu = fakeCpu();
    const small = cpu.work('small', () => 1);
    const large = cpu.work('large', () => 10);
    await growth(small, large, { ratio: 3, samples: 2, clock: cpu.clock });
    const sample = ['small', 'small', 'small', 'large'];
    // Warm-up of each, one run of the large to learn it needs no repeats, then the samples.
    expect(cpu.runs).toEqual(['small', 'large', 'large', ...sample, ...sample]);
  });

  it('repeats both sizes by the same factor until a sample of the large input takes MIN_SAMPLE_MS', async () => {
    const cpu = fakeCpu();
    const small = cpu.work('small', () => 0.05);
    const large = cpu.work('large', () => 0.5);
    const measured = await growth(small, large, { ratio: 10, samples: 1, clock: cpu.clock });
    expect(measured.largeMs / measured.smallMs).toBeCloseTo(10, 9);
    const repeats = 2 ** Math.ceil(Math.log2(MIN_SAMPLE_MS / 0.5));
    const calibration = [1, 2, 4, 8, 16].filter((count) => count <= repeats).reduce((sum, count) => sum + count, 0);
    const counts = { small: cpu.runs.filter((run) => run === 'small').length, large: cpu.runs.filter((run) => run === 'large').length };
    expect(counts).toEqual({ small: 1 + 10 * repeats, large: 1 + calibration + repeats });
  });
});
