import { setTimeout as delay } from 'node:timers/promises';
import { nodeHttpFetch } from './http-request.js';
import type { AdapterRuntime } from './model-adapter.js';

export const DEFAULT_TEMPERATURE = 0.7;
/** Reasoning models spend part of this on thinking; 8,000 leaves room for the answer. */
export const DEFAULT_MAX_TOKENS = 8_000;
export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_ATTEMPTS = 4;

export function defaultRuntime(): AdapterRuntime {
  return {
    fetch: nodeHttpFetch,
    sleep: async (ms, signal) => {
      await delay(ms, undefined, signal ? { signal } : undefined);
    },
    now: () => Date.now(),
    random: () => Math.random(),
    deadline: (expire, ms) => {
      const timer = setTimeout(expire, ms);
      return () => clearTimeout(timer);
    },
  };
}

export function withRuntime(partial: Partial<AdapterRuntime> | undefined): AdapterRuntime {
  return { ...defaultRuntime(), ...partial };
}
