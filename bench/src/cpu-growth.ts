/** Milliseconds of CPU this process has used (user + system, every thread). */
export type CpuClock = () => number;

const processCpuMs: CpuClock = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/** CPU milliseconds per run of `repeats` runs in a row: time the scheduler gave other processes is not counted. */
export async function cpuMsPerRun(work: () => unknown, repeats: number, clock: CpuClock = processCpuMs): Promise<number> {
  const start = clock();
  for (let run = 0; run < repeats; run++) await work();
  return (clock() - start) / repeats;
}

export interface GrowthOptions {
  /** How many times larger the large input is: the small one runs this many times per sample, so both read the same volume. */
  readonly ratio: number;
  /** Samples of each size; the fastest is kept. */
  readonly samples?: number;
  readonly clock?: CpuClock;
}

/** CPU milliseconds of one run at each size. */
export interface Growth {
  readonly smallMs: number;
  readonly largeMs: number;
}

/** The least CPU time one sample of either size is made to take. */
export const MIN_SAMPLE_MS = 5;
const MAX_REPEATS = 1 << 16;

/**
 * How much longer the work takes on the large input than on the small one, in CPU time: after a
 * warm-up, the two sizes are sampled alternately (so both see the same machine, the same JIT state
 * and each other's garbage), each sample reading about the same volume of input (the small input
 * run `ratio` times, the large once), and the fastest sample of each size is kept. On a shared
 * two-core machine a wall-clock median of a long run is cut by the scheduler more often than one of
 * a short run, so its ratio grows with the load; CPU time and the fastest sample do not.
 *
 * CPU time counts V8's helper threads too, whose concurrent marking starts and stops with the state
 * of the heap, not with the sample it lands in: run this where the collector has one thread
 * (`measureGrowthApart`), so every sample pays for its own garbage and only for that.
 */
export async function growth(small: () => unknown, large: () => unknown, options: GrowthOptions): Promise<Growth> {
  const { ratio, samples = 15, clock = processCpuMs } = options;
  await small();
  await large();
  // A sample of a few hundred microseconds is decided by the clock's own cost and by whether one
  // scavenge falls inside it, so both sizes are repeated by the same factor until a sample of the
  // large input takes at least MIN_SAMPLE_MS (a 10 KB pressure reply scores in about 0.1 ms).
  let repeats = 1;
  while (repeats < MAX_REPEATS && (await cpuMsPerRun(large, repeats, clock)) * repeats < MIN_SAMPLE_MS) repeats *= 2;
  let smallMs = Number.POSITIVE_INFINITY;
  let largeMs = Number.POSITIVE_INFINITY;
  for (let sample = 0; sample < samples; sample++) {
    smallMs = Math.min(smallMs, await cpuMsPerRun(small, ratio * repeats, clock));
    largeMs = Math.min(largeMs, await cpuMsPerRun(large, repeats, clock));
  }
  return { smallMs, largeMs };
}
