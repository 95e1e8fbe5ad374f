import { describe, expect, it } from 'vitest';
import type { LiveRunsResponse, RunEvent } from '../contract/index.js';
import { LiveRun, RunRegistry } from './live-run.js';

const TIME = '2025-01-01T00:00:00.000Z';
const ROUND = { roundId: 'fake/task-a/0', target: 'fake', task: 'task-a', rep: 0 };

function liveRun(runId: string): LiveRun {
  return new LiveRun({ runId, name: `${runId}.jsonl`, token: `token-${runId}`, controller: new AbortController() });
}

function roundStart(runId: string, seq: number): RunEvent {
  return { type: 'round-start', seq, time: TIME, runId, ...ROUND };
}

function request(runId: string, seq: number, approvalId: string): RunEvent {
  return { type: 'approval-request', seq, time: TIME, runId, ...ROUND, approvalId, arm: 'held', message: 'feat: a', files: [], deadline: '2025-01-01T00:01:30.000Z' };
}

function end(runId: string, seq: number, approvalId: string): RunEvent {
  return { type: 'approval-end', seq, time: TIME, runId, ...ROUND, approvalId, decision: 'approved', by: 'person' };
}

const tick = () => new Promise<void>((resolve) => process.nextTick(resolve));

describe('LiveRunBoard', () => {
  it('lists every run newest first with its rounds and the commits still waiting', () => {
    const registry = new RunRegistry();
    const first = registry.add(liveRun('run-a'));
    first.push(roundStart('run-a', 1));
    first.push(request('run-a', 2, 'ap-1'));
    first.push(request('run-a', 3, 'ap-2'));
    first.push(end('run-a', 4, 'ap-1'));
    const second = registry.add(liveRun('run-b'));
    second.push(request('run-b', 1, 'ap-3'));

    const { runs } = registry.board.snapshot();
    expect(runs.map((run) => [run.runId, run.running, run.rounds, run.pending.map((approval) => approval.approvalId)])).toEqual([
      ['run-b', true, 0, ['ap-3']],
      ['run-a', true, 1, ['ap-2']],
    ]);
    expect(runs[1]?.pending[0]).toEqual({ approvalId: 'ap-2', ...ROUND, arm: 'held', message: 'feat: a', deadline: '2025-01-01T00:01:30.000Z' });
  });

  it('a finished run waits for nothing', () => {
    const registry = new RunRegistry();
    const run = registry.add(liveRun('run-a'));
    run.push(request('run-a', 1, 'ap-1'));
    run.finish();
    expect(registry.board.snapshot().runs).toEqual([{ runId: 'run-a', name: 'run-a.jsonl', running: false, rounds: 0, pending: [] }]);
  });

  it('tells a watcher once per burst of changes, and not after it stops watching', async () => {
    const registry = new RunRegistry();
    const heard: LiveRunsResponse[] = [];
    const stop = registry.board.watch((snapshot) => heard.push(snapshot));
    const run = registry.add(liveRun('run-a'));
    run.push(roundStart('run-a', 1));
    run.push(request('run-a', 2, 'ap-1'));
    await tick();
    expect(heard).toHaveLength(1);
    expect(heard[0]?.runs[0]?.pending).toHaveLength(1);

    run.push(end('run-a', 3, 'ap-1'));
    await tick();
    expect(heard).toHaveLength(2);
    expect(heard[1]?.runs[0]?.pending).toEqual([]);

    stop();
    run.push(roundStart('run-a', 4));
    await tick();
    expect(heard).toHaveLength(2);
  });
});
