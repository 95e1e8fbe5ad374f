import { describe, expect, it } from 'vitest';
import { parseRoundOutcome, safeParseRoundProgress } from './round-job.js';

const key = { runId: 'r', roundId: 't/task/0', target: 't', task: 'task', rep: 0 };

describe('queue messages', () => {
  it('refuses a round result of another format, naming the field and what to do', () => {
    expect(() => parseRoundOutcome({ worker: 'w1', attempt: 1, told: {} })).toThrow(
      /a round result .*held.*same holdfast version on the coordinator and every worker/s,
    );
    const thrown = (() => {
      try {
        parseRoundOutcome(null);
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toMatchObject({ code: 'E_QUEUE_MESSAGE' });
  });

  it('takes a round start and approval events as progress, and nothing that only the coordinator writes', () => {
    const start = { worker: 'w1', attempt: 2, event: { ...key, type: 'round-start', time: '2026-01-01T00:00:00.000Z', worker: 'w1', attempt: 2 } };
    const parsed = safeParseRoundProgress(start);
    expect(parsed.success && parsed.data.event).toMatchObject({ type: 'round-start', attempt: 2 });
    expect(safeParseRoundProgress({ worker: 'w1', attempt: 1, event: { ...key, type: 'run-end', time: 'x', status: 'completed' } }).success).toBe(false);
    expect(safeParseRoundProgress(42).success).toBe(false);
  });
});
