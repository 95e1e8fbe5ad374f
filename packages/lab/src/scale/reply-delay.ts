import { setTimeout as delay } from 'node:timers/promises';
import type { ExperimentTarget } from '../experiment/index.js';

/** A scripted target that answers after a fixed wait: the stand-in for a model's latency in benches. */
export function withReplyDelay(target: ExperimentTarget, delayMs: number): ExperimentTarget {
  if (delayMs === 0) return target;
  const model = target.model;
  return {
    ...target,
    model: {
      generate: async (request) => {
        await delay(delayMs, undefined, request.signal !== undefined ? { signal: request.signal } : undefined);
        return model.generate(request);
      },
    },
  };
}
