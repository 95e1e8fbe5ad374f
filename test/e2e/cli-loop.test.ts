import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from 'holdfast';
import { openAiAgent, recoveringAgent } from '@holdfast/lab/test-support';
import { startFakeOpenAi } from '@holdfast/lab/test-support';
import type { FakeServer } from '@holdfast/lab/test-support';
import { readRunFile, reduceRunEvents } from '@holdfast/lab/store';
import { memoryIo } from '@holdfast/core/test-support';

let dir: string;
let server: FakeServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-cli-loop-'));
  server = await startFakeOpenAi({ script: openAiAgent(recoveringAgent) });
  writeFileSync(
    join(dir, 'holdfast.config.yaml'),
    `version: 1\ntargets:\n  - id: scripted\n    provider: openai-compatible\n    model: scripted-agent\n    baseUrl: ${server.baseUrl}\n    maxAttempts: 1\n    turnCap: 12\n`,
  );
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('holdfast run --mode loop', () => {
  it('plays both arms as tool-calling sessions, writes a version 2 run file, and reports the sessions', async () => {
    const out = join(dir, 'loop.jsonl');
    const io = memoryIo({ cwd: dir });
    const code = await main(['run', '--mode', 'loop', '--targets', 'scripted', '--tasks', 'hotfix-discount-rounding', '--out', out], io);
    expect(io.err()).toContain('loop mode');
    expect(code).toBe(0);
    const { events, problems } = await readRunFile(out);
    expect(problems).toEqual([]);
    const start = events[0];
    expect(start?.type === 'run-start' && [start.version, start.config.mode]).toEqual([2, 'loop']);
    const state = reduceRunEvents(events);
    const [round] = state.rounds;
    const calls = (arm: 'told' | 'held') => round?.[arm]?.session?.calls.map((call) => `${call.tool}:${call.decision}`) ?? [];
    expect(calls('held').slice(0, 2)).toEqual(['read_file:applied', 'write_file:blocked']);
    expect(calls('told').slice(0, 2)).toEqual(['read_file:applied', 'write_file:applied']);
    expect(round?.told?.verdict).toBe('violated');
    expect(round?.told?.session?.landed.map((violation) => violation.rule)).toContain('R4');
    expect(round?.held?.session?.landed).toEqual([]);
    expect(['recovered', 'blocked']).toContain(round?.held?.verdict);

    const markdown = memoryIo({ cwd: dir });
    expect(await main(['report', out, '--format', 'md'], markdown)).toBe(0);
    expect(markdown.out()).toContain('loop mode');
    expect(markdown.out()).toContain('## Sessions');
  });

  it('the shipped loop example: the hasty agent violates told and recovers held, the careful one is clean', async () => {
    const example = fileURLToPath(new URL('../../runs/example-loop.jsonl', import.meta.url));
    const { events, problems } = await readRunFile(example);
    expect(problems).toEqual([]);
    const start = events[0];
    expect(start?.type === 'run-start' && start.demo).toMatch(/NOT outputs of a real model/);
    const verdicts = [...reduceRunEvents(events).rounds].map((round) => [round.target, round.told?.verdict, round.held?.verdict]);
    expect(verdicts).toEqual([
      ['demo-hasty-agent', 'violated', 'recovered'],
      ['demo-careful-agent', 'clean', 'clean'],
    ]);
    const replay = memoryIo({ cwd: dir });
    expect(await main(['run', '--replay', example, '--out', join(dir, 'replayed.jsonl')], replay)).toBe(2);
    expect(replay.err()).toContain('cannot be replayed');
  });

  it('refuses loop mode for replayed replies and turn caps without it', async () => {
    const io = memoryIo({ cwd: dir });
    expect(await main(['run', '--mode', 'loop', '--replies', 'x.json'], io)).toBe(2);
    expect(io.err()).toContain('recorded replies (a replayed run, a replies file) play in plan mode only');
    const other = memoryIo({ cwd: dir });
    expect(await main(['run', '--turn-cap', '4', '--targets', 'scripted'], other)).toBe(2);
    expect(other.err()).toContain('a turn cap and a session timeout are for loop and agent modes');
  });
});
