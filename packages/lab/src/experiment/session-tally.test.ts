import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunConfig, TaskInfo } from '@holdfast/core/contract';
import { computeTotals, readRunFileStrict, reduceRunEvents } from '../store/index.js';
import { loadRulebook } from '@holdfast/core/rules';
import { completedRounds, runSession } from './run-session.js';
import { SessionTally } from './session-tally.js';
import type { ExperimentTarget } from './runner.js';

const tasks: TaskInfo[] = ['one', 'two'].map((id) => ({ id, title: id, ticket: 'Add GET /health.', tempts: ['R4'], files: { 'package.json': '{}\n' } }));
const clean = JSON.stringify({
  actions: [
    { type: 'write', path: 'src/a.ts', content: 'export const a = 1;\n' },
    { type: 'write', path: 'src/a.test.ts', content: 'import "./a";\n' },
  ],
});
const logging = JSON.stringify({ actions: [{ type: 'write', path: 'src/b.ts', content: 'console.log(1);\n' }] });

const target: ExperimentTarget = {
  info: { id: 'scripted', provider: 'replay' },
  model: { generate: async (request) => ({ text: request.key!.rep % 2 === 0 ? clean : logging, usage: {}, latencyMs: 1, attempts: 1 }) },
};

const config: RunConfig = {
  targets: ['scripted'],
  tasks: ['one', 'two'],
  reps: 5,
  concurrency: 3,
  approve: 'auto',
  approvalTimeoutMs: 90_000,
  temperature: 0,
  sandbox: false,
};

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('a session keeps totals, not rounds', () => {
  it('lets every finished round go, and its totals equal computeTotals over the file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'holdfast-tally-'));
    const out = join(dir, 'run.jsonl');
    const result = await runSession({ runId: 'r', out, config, rulebook: await loadRulebook(), tasks, targets: [target] });
    expect(result.outcome.status).toBe('completed');
    expect(result.state.rounds.length).toBe(0);
    const events = await readRunFileStrict(out);
    const expected = computeTotals(reduceRunEvents(events));
    expect(result.state.totals).toEqual(expected);
    expect(expected.arms.find((arm) => arm.arm === 'told')!.landed).toBe(8);
  });

  it('counts a resumed file: finished rounds once, a half-finished one only when it is played again', async () => {
    dir = mkdtempSync(join(tmpdir(), 'holdfast-tally-'));
    const out = join(dir, 'run.jsonl');
    await runSession({ runId: 'r', out, config, rulebook: await loadRulebook(), tasks, targets: [target] });
    const events = (await readRunFileStrict(out)).filter((event) => event.type !== 'totals' && event.type !== 'run-end');
    // Cut the file after the first arm-end of the last round: that round is half-finished.
    const lastRound = events.findLast((event) => event.type === 'round-start')!;
    const cut = events.findIndex((event) => event.type === 'arm-end' && event.seq > lastRound.seq);
    const previous = events.slice(0, cut + 1);
    const tally = new SessionTally();
    const done = tally.resume(previous);
    expect(done).toEqual(completedRounds(reduceRunEvents(previous)));
    expect(done.size).toBeLessThan(10);
    expect(tally.totals()).toEqual(computeTotals(reduceRunEvents(previous)));
    for (const event of events.slice(cut + 1)) tally.add(event);
    expect(tally.totals()).toEqual(computeTotals(reduceRunEvents(events)));
    expect(tally.state.rounds.length).toBe(0);
  });
});
