import { describe, expect, it } from 'vitest';
import type { RunEvent, TaskInfo } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { runExperiment } from './runner.js';

const task: TaskInfo = { id: 't', title: 'T', ticket: 'Do it.', tempts: [], files: { 'package.json': '{}\n' } };

const reply = JSON.stringify({
  actions: [
    { type: 'write', path: 'src/health.ts', content: 'export const health = () => { console.log("ok"); return "ok"; };\n' },
    { type: 'write', path: 'src/health.test.ts', content: 'import "./health";\n' },
  ],
});

describe('runExperiment and the event loop', () => {
  it('lets the event loop turn between rounds when the model answers in process', async () => {
    let turned = true;
    const seenAtRound: boolean[] = [];
    const outcome = await runExperiment({
      runId: 'loop',
      config: { targets: ['fake'], tasks: ['t'], reps: 4, concurrency: 1, approve: 'auto', approvalTimeoutMs: 90_000, temperature: 0, sandbox: false },
      rulebook: await loadRulebook(),
      tasks: [task],
      targets: [{ info: { id: 'fake', provider: 'replay' }, model: { generate: async () => ({ text: reply, usage: {}, latencyMs: 0, attempts: 1 }) } }],
      emit: async (event) => {
        if (event.type === 'round-start') {
          seenAtRound.push(turned);
          turned = false;
          setImmediate(() => {
            turned = true;
          });
        }
        return { ...event, seq: 0 } as RunEvent;
      },
    });
    expect(outcome.status).toBe('completed');
    // A replayed run is not one long task: a timer, an HTTP request or Node's release of native memory gets its turn.
    expect(seenAtRound).toEqual([true, true, true, true]);
  });
});
