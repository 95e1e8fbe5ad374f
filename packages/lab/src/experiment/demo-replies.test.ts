import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Rulebook, TaskInfo } from '@holdfast/core/contract';
import { parseReply } from '@holdfast/core/reply';
import { checkActions, loadRulebook } from '@holdfast/core/rules';
import { DEMO_TARGETS, demoCoverageProblems, demoReplyLookup, loadDemoReplies, parseDemoReplies, safeParseDemoReplies } from './demo-replies.js';
import type { DemoReplies } from './demo-replies.js';
import { loadTasks } from './tasks.js';

let demo: DemoReplies;
let tasks: TaskInfo[];
let rulebook: Rulebook;

beforeAll(async () => {
  [demo, tasks, rulebook] = await Promise.all([loadDemoReplies(), loadTasks(), loadRulebook()]);
});

/** Per reply of a target: how it parsed and which rules its actions break. */
async function judge(target: string): Promise<{ kind: string; method?: string; broken: string[] }[]> {
  const files = new Map(tasks.map((task) => [task.id, Object.keys(task.files)]));
  const results = [];
  for (const reply of demo.replies.filter((candidate) => candidate.target === target)) {
    const parsed = parseReply(reply.raw);
    if (parsed.kind !== 'actions') {
      results.push({ kind: parsed.kind, broken: [] });
      continue;
    }
    const checks = await checkActions(parsed.actions, files.get(reply.task) ?? [], rulebook);
    results.push({ kind: parsed.kind, method: parsed.method, broken: [...new Set(checks.filter((check) => !check.ok).map((check) => check.rule))] });
  }
  return results;
}

describe('the shipped demo replies', () => {
  it('cover every demo target × task × 2 reps × both arms exactly once (96 replies)', () => {
    expect(demo.replies).toHaveLength(96);
    const coverage = { targets: DEMO_TARGETS, tasks: tasks.map((task) => task.id), reps: 2 };
    expect(demoCoverageProblems(demo, coverage)).toEqual([]);
  });

  it('say they are hand-written, not outputs of a real model', () => {
    expect(demo.demo).toMatch(/NOT outputs of a real model/);
  });

  it('are exactly what the documented generator script writes', () => {
    const script = fileURLToPath(new URL('../../../../scripts/generate-demo-replies.mjs', import.meta.url));
    const result = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('differ between the told and held arms of most rounds (separate generations)', () => {
    const raw = demoReplyLookup(demo);
    let differ = 0;
    for (const target of DEMO_TARGETS) {
      for (const task of tasks) {
        for (const rep of [0, 1]) if (raw(target, task.id, rep, 'told') !== raw(target, task.id, rep, 'held')) differ++;
      }
    }
    expect(differ).toBeGreaterThanOrEqual(40);
  });

  it('make demo-careful mostly comply or decline', async () => {
    const results = await judge('demo-careful');
    expect(results.filter((result) => result.kind === 'declined').length).toBeGreaterThanOrEqual(5);
    expect(results.filter((result) => result.broken.length > 0).length).toBeLessThanOrEqual(3);
    expect(results.every((result) => result.kind !== 'unparseable')).toBe(true);
  });

  it('make demo-hasty break every rule, most of the time', async () => {
    const results = await judge('demo-hasty');
    expect(results.filter((result) => result.broken.length > 0).length).toBeGreaterThanOrEqual(28);
    const broken = new Set(results.flatMap((result) => result.broken));
    expect([...broken].sort()).toEqual(rulebook.rules.map((rule) => rule.id).sort());
  });

  it('make demo-local-small sloppy: prose around fences, concatenated objects, trailing commas, junk', async () => {
    const results = await judge('demo-local-small');
    const methods = new Set(results.map((result) => result.method ?? result.kind));
    for (const expected of ['fenced', 'salvaged', 'repaired', 'unparseable']) expect(methods).toContain(expected);
    expect(results.filter((result) => result.broken.length > 0).length).toBeGreaterThanOrEqual(12);
  });
});

describe('parseDemoReplies', () => {
  const reply = { target: 'demo-hasty', task: 'skip-flaky-ci', rep: 0, arm: 'told', raw: '{}' };
  const file = (replies: unknown[]) => JSON.stringify({ version: 1, demo: 'hand-written', replies });

  it('accepts a well-formed file and finds a reply by its key', () => {
    const parsed = parseDemoReplies(file([reply]));
    expect(demoReplyLookup(parsed)('demo-hasty', 'skip-flaky-ci', 0, 'told')).toBe('{}');
    expect(demoReplyLookup(parsed)('demo-hasty', 'skip-flaky-ci', 0, 'held')).toBeUndefined();
  });

  it('refuses a repeated key, naming it', () => {
    expect(() => parseDemoReplies(file([reply, reply]), 'r.json')).toThrow(
      /r\.json: replies\.1 repeats target "demo-hasty", task "skip-flaky-ci", rep 0, told arm/,
    );
  });

  it('refuses an unknown field, a bad arm and bad JSON', () => {
    expect(safeParseDemoReplies(file([{ ...reply, extra: 1 }])).ok).toBe(false);
    const badArm = safeParseDemoReplies(file([{ ...reply, arm: 'both' }]));
    expect(badArm.ok).toBe(false);
    if (!badArm.ok) expect(badArm.error.message).toMatch(/field "replies\.0\.arm"/);
    expect(() => parseDemoReplies('{"version": 1,')).toThrow(/is not valid JSON/);
  });

  it('reports missing and unexpected combinations', () => {
    const parsed = parseDemoReplies(file([reply, { ...reply, task: 'other' }]));
    const problems = demoCoverageProblems(parsed, { targets: ['demo-hasty'], tasks: ['skip-flaky-ci'], reps: 1 });
    expect(problems).toEqual([
      'no reply for target "demo-hasty", task "skip-flaky-ci", rep 0, held arm',
      'unexpected reply for target "demo-hasty", task "other", rep 0, told arm',
    ]);
  });
});
