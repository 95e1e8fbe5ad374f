import type { ExperimentTarget } from '@holdfast/lab/experiment';

/**
 * At most `max` model calls in flight across every run of the server; the rest wait their turn in
 * order. A local model server (Ollama, llama.cpp) serves a few requests at once, and a provider's
 * rate limit is per key, not per run: 100 runs each at concurrency 3 must not send 300 calls at once.
 */
export class CallLimiter {
  readonly max: number;
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(max: number) {
    this.max = Math.max(1, max);
  }

  get inFlight(): number {
    return this.active;
  }

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.active += 1;
    try {
      return await call();
    } finally {
      // Hand the slot straight to the next waiter, so `active` never dips below what is really running.
      const next = this.queue.shift();
      if (next !== undefined) next();
      else this.active -= 1;
    }
  }
}

/** The target with every model call (plan-mode generate, loop-mode converse) taken through the limiter. */
export function limitTarget(target: ExperimentTarget, limiter: CallLimiter): ExperimentTarget {
  const model = target.model;
  const converse = model.converse;
  return {
    ...target,
    model: {
      generate: (request) => limiter.run(() => model.generate(request)),
      ...(converse !== undefined ? { converse: (request: Parameters<typeof converse>[0]) => limiter.run(() => converse.call(model, request)) } : {}),
    },
  };
}
