import type { AdapterRuntime } from '../model-adapter.js';

export interface TestRuntime extends AdapterRuntime {
  /** Every wait the adapter asked for, in milliseconds. */
  readonly sleeps: number[];
}

/** Real fetch, but waits return at once (and are recorded), time is a counter and jitter is fixed. */
export function testRuntime(options: { random?: number } = {}): TestRuntime {
  const sleeps: number[] = [];
  let clock = 1_000_000;
  return {
    fetch: (input, init) => fetch(input, init),
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => (clock += 1),
    random: () => options.random ?? 0.5,
    sleeps,
  };
}
