import { describe, expect, it } from 'vitest';
import type { ArmResult, RunEvent } from '@holdfast/core/contract';
import { ProviderError } from './provider-error.js';
import { createReplayAdapter } from './replay-adapter.js';
import { testRuntime } from './test-support/test-runtime.js';

function armEnd(seq: number, target: string, task: string, rep: number, result: Partial<ArmResult> & Pick<ArmResult, 'arm'>): RunEvent {
  return {
    seq,
    time: '2026-01-01T00:00:00Z',
    runId: 'run-1',
    type: 'arm-end',
    roundId: `${target}/${task}/${rep}`,
    target,
    task,
    rep,
    result: { verdict: 'clean', reason: 'ok', actions: [], checks: [], ...result },
  };
}

function generation(raw: string) {
  return { raw, usage: { inputTokens: 5, outputTokens: 6 }, latencyMs: 1234, attempts: 2, finishReason: 'stop', reasoning: 'because' };
}

const events: RunEvent[] = [
  {
    seq: 0,
    time: '2026-01-01T00:00:00Z',
    runId: 'run-1',
    type: 'run-start',
    version: 1,
    config: { targets: ['ollama'], tasks: ['t1'], reps: 2, concurrency: 1, approve: 'auto', approvalTimeoutMs: 90_000, temperature: 0.7, sandbox: false },
    rulebook: {
      version: 1,
      name: 'r',
      rules: [
        {
          id: 'R4',
          name: 'NOLOG',
          prose: 'No console.log',
          check: { kind: 'forbidden-pattern', patterns: ['console\\.log'], flags: '', what: 'a console.log call', files: ['**'], exclude: [] },
        },
      ],
      agents: [],
    },
    tasks: [],
    targets: [{ id: 'ollama', provider: 'openai-compatible', model: 'llama3.1:8b', baseUrl: 'http://localhost:11434/v1' }],
  },
  armEnd(1, 'ollama', 't1', 0, { arm: 'told', generation: generation('told reply 0') }),
  armEnd(2, 'ollama', 't1', 0, { arm: 'held', generation: generation('held reply 0') }),
  armEnd(3, 'other', 't1', 1, { arm: 'told', generation: generation('other target') }),
  armEnd(4, 'ollama', 't1', 1, { arm: 'told', verdict: 'error', reason: 'HTTP 500 after 4 attempts' }),
];

describe('replay adapter', () => {
  const adapter = createReplayAdapter({ events, targetId: 'ollama', runtime: testRuntime() });
  const messages = [{ role: 'user', content: 'ignored' }] as const;

  it('serves the recorded reply by task, repetition and arm', async () => {
    const told = await adapter.generate({ messages, maxTokens: 1, temperature: 0, key: { task: 't1', rep: 0, arm: 'told' } });
    const held = await adapter.generate({ messages, maxTokens: 1, temperature: 0, key: { task: 't1', rep: 0, arm: 'held' } });
    expect(told).toMatchObject({ text: 'told reply 0', reasoning: 'because', usage: { inputTokens: 5, outputTokens: 6 }, finishReason: 'stop', attempts: 1 });
    expect(held.text).toBe('held reply 0');
  });

  it('describes itself as a replay of the recorded model', () => {
    expect(adapter.target).toEqual({ id: 'ollama', provider: 'replay', model: 'llama3.1:8b' });
  });

  it('refuses a key that was never recorded, naming it', async () => {
    const error: unknown = await adapter
      .generate({ messages, maxTokens: 1, temperature: 0, key: { task: 't1', rep: 1, arm: 'held' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'E_REPLAY_MISSING', retryable: false });
    expect((error as Error).message).toContain('task "t1", repetition 1, held arm');
  });

  it('does not serve another target’s reply', async () => {
    const error: unknown = await adapter
      .generate({ messages, maxTokens: 1, temperature: 0, key: { task: 't1', rep: 1, arm: 'told' } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'E_REPLAY_MISSING' });
    expect((error as Error).message).toContain('HTTP 500 after 4 attempts');
  });

  it('needs a key', async () => {
    await expect(adapter.generate({ messages, maxTokens: 1, temperature: 0 })).rejects.toMatchObject({ code: 'E_REPLAY_NO_KEY' });
  });
});

describe('replay of a reply the run file kept cut', () => {
  it('is refused, naming the kept and the whole size: a cut reply is not what the model gave', async () => {
    const cut = { ...generation('x'.repeat(100)), rawBytes: 5_000_000 };
    const adapter = createReplayAdapter({
      events: [events[0]!, armEnd(1, 'ollama', 't1', 0, { arm: 'told', generation: cut })],
      targetId: 'ollama',
      runtime: testRuntime(),
    });
    const error: unknown = await adapter
      .generate({ messages: [{ role: 'user', content: 'ignored' }], maxTokens: 1, temperature: 0, key: { task: 't1', rep: 0, arm: 'told' } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'E_REPLAY_CUT', retryable: false });
    expect((error as Error).message).toContain('first 100 of the 5000000 bytes');
  });
});
