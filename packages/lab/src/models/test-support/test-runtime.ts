import type { AdapterRuntime } from '../model-adapter.js';

export interface TestRuntime extends AdapterRuntime {
  /** Every wait the adapter asked for, in milliseconds. */
  readonly sleeps: number[];
  /** Ends every call's time limit that is running now, as if its time were up. */
  expireDeadlines(): void;
}

/**
 * Real fetch, but waits return at once (and are recorded), time is a counter and jitter is fixed.
 * A call's time limit ends only when the test says so (`expireDeadlines`), never on the clock.
 */
export function testRuntime(options: { random?: number } = {}): TestRuntime {
  const sleeps: number[] = [];
  const running = new Set<() => void>();
  let clock = 1_000_000;
  return {
    fetch: (input, init) => fetch(input, init),
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => (clock += 1),
    random: () => options.random ?? 0.5,
    deadline: (expire) => {
      running.add(expire);
      return () => running.delete(expire);
    },
    expireDeadlines: () => {
      for (const expire of [...running]) {
        running.delete(expire);
        expire();
      }
    },
    sleeps,
  };
}
