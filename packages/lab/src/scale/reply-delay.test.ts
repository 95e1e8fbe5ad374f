import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentTarget } from '../experiment/index.js';
import { withReplyDelay } from './reply-delay.js';

const target: ExperimentTarget = {
  info: { id: 't', provider: 'replay' },
  model: { generate: async () => ({ text: 'reply', usage: {}, latencyMs: 0, attempts: 1 }) },
};

afterEach(() => {
  vi.useRealTimers();
});

describe('withReplyDelay', () => {
  it('answers only once the wait has passed', async () => {
    vi.useFakeTimers();
    let answered = false;
    const reply = withReplyDelay(target, 100)
      .model.generate({ messages: [], maxTokens: 10, temperature: 0 })
      .then((result) => ((answered = true), result));
    await vi.advanceTimersByTimeAsync(99);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await reply).text).toBe('reply');
  });

  it('stops waiting when the round is cancelled', async () => {
    const controller = new AbortController();
    const reply = withReplyDelay(target, 600_000).model.generate({ messages: [], maxTokens: 10, temperature: 0, signal: controller.signal });
    controller.abort();
    await expect(reply).rejects.toThrow(/abort/i);
  });

  it('leaves a target without delay as it is', () => {
    expect(withReplyDelay(target, 0)).toBe(target);
  });
});
