import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArmEndEvent, RunConfig, RunEvent, RunEventInput, Rulebook } from '../contract/index.js';
import { loadRulebook } from '../rules/index.js';
import { FIXTURE_TASK, withAllowlist } from '../sandbox/test-support.js';
import { runExperiment } from './runner.js';
import type { ExperimentTarget } from './runner.js';

const reply = JSON.stringify({
  actions: [
    { type: 'write', path: 'src/features/total.ts', content: 'export const total = 1;\n' },
    { type: 'write', path: 'src/features/total.test.ts', content: 'export {};\n' },
    { type: 'write', path: 'src/features/debug.ts', content: 'console.log("debug");\n' },
    { type: 'run', cmd: 'node scripts/test.mjs' },
    { type: 'commit', message: 'Add total' },
  ],
});

let rulebook: Rulebook;
let parent: string;

beforeAll(async () => {
  rulebook = withAllowlist(await loadRulebook(), ['^node scripts/test\\.mjs$']);
  parent = mkdtempSync(join(tmpdir(), 'holdfast-runner-sandbox-'));
});

afterAll(() => rmSync(parent, { recursive: true, force: true }));

function config(overrides: Partial<RunConfig> = {}): RunConfig {
  return { targets: ['fake'], tasks: [FIXTURE_TASK.id], reps: 2, concurrency: 2, approve: 'auto', approvalTimeoutMs: 90_000, temperature: 0, sandbox: true, ...overrides };
}

function target(onGenerate: () => void = () => {}): ExperimentTarget {
  return {
    info: { id: 'fake', provider: 'replay' },
    model: {
      async generate() {
        onGenerate();
        return { text: reply, usage: {}, latencyMs: 1, attempts: 1 };
      },
    },
  };
}

function collector() {
  const events: RunEvent[] = [];
  const emit = (draft: RunEventInput): RunEvent => {
    const event = { ...draft, seq: events.length } as RunEvent;
    events.push(event);
    return event;
  };
  return { events, emit };
}

describe('runExperiment with config.sandbox', () => {
  it('lands the told arm for real, refuses in the held arm, and leaves no sandbox behind', async () => {
    const { events, emit } = collector();
    const outcome = await runExperiment({ runId: 'r', config: config(), rulebook, tasks: [FIXTURE_TASK], targets: [target()], emit, sandbox: { parentDir: parent } });
    expect(outcome.status).toBe('completed');
    const arms = events.filter((event): event is ArmEndEvent => event.type === 'arm-end').map((event) => event.result);
    expect(arms).toHaveLength(4);
    for (const arm of arms) {
      expect(arm.sandbox?.baseCommit).toMatch(/^[0-9a-f]{40}$/);
      if (arm.arm === 'told') {
        expect(arm.verdict).toBe('violated');
        expect(arm.sandbox!.commits).toHaveLength(1);
        expect(arm.sandbox!.diff.text).toContain('+console.log("debug");');
        expect(arm.sandbox!.commands[0]).toMatchObject({ executed: true, exitCode: 0 });
      } else {
        expect(arm.verdict).toBe('blocked');
        expect(arm.sandbox!.commits).toEqual([]);
        expect(arm.sandbox!.changedPaths).toEqual(['src/features/total.test.ts', 'src/features/total.ts']);
        expect(arm.sandbox!.commands).toEqual([]);
      }
    }
    expect(readdirSync(parent)).toEqual([]);
  });

  it('removes the sandboxes of an interrupted run too', async () => {
    const controller = new AbortController();
    let calls = 0;
    const { events, emit } = collector();
    const outcome = await runExperiment({
      runId: 'r',
      config: config({ reps: 4, concurrency: 1 }),
      rulebook,
      tasks: [FIXTURE_TASK],
      targets: [target(() => {
        calls += 1;
        if (calls === 3) controller.abort();
      })],
      emit,
      signal: controller.signal,
      sandbox: { parentDir: parent },
    });
    expect(outcome.status).toBe('interrupted');
    expect(events.filter((event) => event.type === 'arm-end')).toHaveLength(2);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('without config.sandbox nothing is materialised and results carry no sandbox', async () => {
    const { events, emit } = collector();
    await runExperiment({ runId: 'r', config: config({ sandbox: false, reps: 1 }), rulebook, tasks: [FIXTURE_TASK], targets: [target()], emit, sandbox: { parentDir: parent } });
    const arms = events.filter((event): event is ArmEndEvent => event.type === 'arm-end');
    expect(arms.every((event) => event.result.sandbox === undefined)).toBe(true);
    expect(readdirSync(parent)).toEqual([]);
  });
});
