import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArmEndEvent, ArmResult, RunEvent, RunEventInput, Rulebook, TaskInfo } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { loadTasks, runExperiment } from '../index.js';
import type { ExperimentTarget } from '../index.js';
import { parseTargetsConfig } from '../../models/index.js';
import type { HarnessTarget } from '../../models/index.js';

const CAP = 1024 * 1024;

let rulebook: Rulebook;
let task: TaskInfo;
let parent: string;

beforeAll(async () => {
  rulebook = await loadRulebook();
  task = (await loadTasks(undefined, { rulebook })).find((candidate) => candidate.id === 'debug-checkout-logging')!;
  parent = mkdtempSync(join(tmpdir(), 'holdfast-agent-cap-'));
});

afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** A generic agent that runs `script` with node in its work tree: what a harness's own tools could write. */
function agent(id: string, script: string): ExperimentTarget {
  const [target] = parseTargetsConfig(`targets:\n  - { id: ${id}, provider: agent, command: [node, -e, ${JSON.stringify(script)}], maxTurns: 5 }`).targets;
  return {
    info: { id, provider: 'agent' },
    model: { generate: () => Promise.reject(new Error('a harness is never asked for a reply')) },
    harness: { target: target as HarnessTarget, binary: process.execPath, label: 'cap test agent', env: { PATH: process.env.PATH ?? '' } },
  };
}

const FILL = "require('fs').writeFileSync('src/blob.txt', Buffer.alloc(2 * 1024 * 1024, 120));";

async function play(target: ExperimentTarget, sessionTimeoutMs = 120_000): Promise<{ told: ArmResult; held: ArmResult }> {
  const events: RunEvent[] = [];
  const emit = (draft: RunEventInput): RunEvent => {
    const event = { ...draft, seq: events.length } as RunEvent;
    events.push(event);
    return event;
  };
  const outcome = await runExperiment({
    runId: 'cap',
    config: {
      targets: [target.info.id],
      tasks: [task.id],
      reps: 1,
      concurrency: 2,
      approve: 'auto',
      approvalTimeoutMs: 90_000,
      temperature: 0,
      sandbox: false,
      mode: 'agent',
      turnCap: 10,
      sessionTimeoutMs,
      sandboxMaxBytes: CAP,
    },
    rulebook,
    tasks: [task],
    targets: [target],
    emit,
    agent: { parentDir: parent },
  });
  expect(outcome.status).toBe('completed');
  const arms = events.filter((event): event is ArmEndEvent => event.type === 'arm-end').map((event) => event.result);
  return { told: arms.find((arm) => arm.arm === 'told')!, held: arms.find((arm) => arm.arm === 'held')! };
}

describe('agent mode and the sandbox size cap', () => {
  it('makes an arm that leaves its tree over the cap over-cap, a failure in n named E_SANDBOX_CAP, and leaves nothing behind', async () => {
    const { told, held } = await play(agent('filler', FILL));
    for (const arm of [told, held]) {
      expect(arm.verdict).toBe('over-cap');
      expect(arm.error?.code).toBe('E_SANDBOX_CAP');
      expect(arm.session!.stop).toMatchObject({ reason: 'sandbox-cap' });
      expect(arm.session!.stop.detail).toMatch(/^sandbox over its 1 MB cap: the work tree holds more than \d+ bytes$/);
      expect(arm.session!.taskDone).toBeUndefined();
      expect(arm.sandbox!.diff).toEqual({ text: '', truncated: false, bytes: 0 });
    }
    expect(readdirSync(parent).filter((name) => name.startsWith('holdfast-agent-rounds-'))).toEqual([]);
  });

  it('stops a harness that is still running once its tree passes the cap', async () => {
    // Only the watcher can end this agent: its session timeout (a day) is past any test's, so no race with the clock decides it.
    const { told } = await play(agent('sleeper', `${FILL} setInterval(() => {}, 1000);`), 24 * 60 * 60 * 1000);
    expect(told.verdict).toBe('over-cap');
    expect(told.session!.stop.reason).toBe('sandbox-cap');
  });

  it('keeps a violation that landed before the cap: the told arm is violated', async () => {
    const violate = "require('fs').writeFileSync('src/debug.ts', 'export const debug = () => console.log(\"checkout\");\\n');";
    const { told } = await play(agent('violator', `${violate} ${FILL}`));
    expect(told.verdict).toBe('violated');
    expect(told.reason).toContain('R4');
    expect(told.error).toBeUndefined();
  });
});
