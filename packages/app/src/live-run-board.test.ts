import { describe, expect, it } from 'vitest';
import type { LiveRunsResponse, RunEvent } from '@holdfast/core/contract';
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
  return {
    type: 'approval-request',
    seq,
    time: TIME,
    runId,
    ...ROUND,
    approvalId,
    arm: 'held',
    message: 'feat: a',
    files: [],
    deadline: '2025-01-01T00:01:30.000Z',
  };
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

describe('LiveRunBoard of a queued run', () => {
  const start = (seq: number, roundId: string, worker: string, attempt = 1): RunEvent => ({
    type: 'round-start',
    seq,
    time: TIME,
    runId: 'run-q',
    ...ROUND,
    roundId,
    worker,
    attempt,
  });
  const armEnd = (seq: number, roundId: string, arm: 'told' | 'held'): RunEvent =>
    ({
      type: 'arm-end',
      seq,
      time: TIME,
      runId: 'run-q',
      ...ROUND,
      roundId,
      result: { arm, verdict: 'clean', actions: [], checks: [] },
    }) as unknown as RunEvent;

  it('shows which worker plays which round, the rounds each finished, and whose heartbeat went stale or stopped', async () => {
    const registry = new RunRegistry();
    const run = registry.add(new LiveRun({ runId: 'run-q', name: 'run-q.jsonl', token: 't', controller: new AbortController(), queued: true }));
    const seen: LiveRunsResponse[] = [];
    registry.board.watch((snapshot) => seen.push(snapshot));
    run.reportWorkers([
      { id: 'w1', host: 'box-a', seenAt: Date.parse(TIME), stale: false },
      { id: 'w2', host: 'box-b', seenAt: Date.parse(TIME) - 60_000, stale: true },
    ]);
    run.push(start(1, 'r/1', 'w1'));
    run.push(start(2, 'r/2', 'w2'));
    run.push(armEnd(3, 'r/1', 'told'));
    run.push(armEnd(4, 'r/1', 'held'));
    // w2 went silent: its round came back and w1 plays it now.
    run.push(start(5, 'r/2', 'w1', 2));
    await tick();
    expect(seen.at(-1)?.runs[0]?.workers).toEqual([
      { id: 'w1', host: 'box-a', seenAt: TIME, status: 'live', playing: ['r/2'], done: 1 },
      { id: 'w2', host: 'box-b', seenAt: '2024-12-31T23:59:00.000Z', status: 'stale', playing: [], done: 0 },
    ]);
    // w2 is no longer in the registry: it played rounds of this run, so it shows as gone.
    run.reportWorkers([{ id: 'w1', host: 'box-a', seenAt: Date.parse(TIME), stale: false }]);
    expect(registry.board.snapshot().runs[0]?.workers?.map((worker) => `${worker.id} ${worker.status}`)).toEqual(['w1 live', 'w2 gone']);
  });

  it('an in-process run has no workers', () => {
    const registry = new RunRegistry();
    registry.add(liveRun('run-a'));
    expect(registry.board.snapshot().runs[0]).not.toHaveProperty('workers');
  });
});
