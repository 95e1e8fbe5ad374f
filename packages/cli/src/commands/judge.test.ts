import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, recordOf, startScriptedJudge } from '@holdfast/lab/test-support';
import type { ScriptedJudge } from '@holdfast/lab/test-support';
import { chatCompletion } from '@holdfast/lab/test-support';
import { memoryIo } from '@holdfast/core/test-support';
import { main } from '../main.js';

const repoFile = (path: string) => new URL(`../../../../${path}`, import.meta.url);

let judge: ScriptedJudge | undefined;
afterEach(async () => {
  await judge?.server.close();
  judge = undefined;
});

/** A project folder whose `judge` target is the scripted judge on 127.0.0.1. */
function project(baseUrl: string): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-judge-'));
  writeFileSync(
    join(root, 'holdfast.config.yaml'),
    `targets:\n  - id: judge\n    provider: openai-compatible\n    model: judge-model\n    baseUrl: ${baseUrl}\n    maxAttempts: 1\n`,
  );
  return root;
}

async function cli(cwd: string, ...args: string[]) {
  const io = memoryIo({ cwd, env: { PATH: process.env.PATH ?? '' } });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('holdfast judge calibrate', () => {
  it('reports kappa and the confusion matrix on the shipped set, per rule, overall and against the covering R4 check', async () => {
    // This judge grades "violated" exactly when the record holds console.log, and answers J2 with garbage.
    judge = await startScriptedJudge((request) => {
      const content = (request.body as { messages: { content: string }[] }).messages[1]!.content;
      if (content.startsWith('Rule J2')) return chatCompletion('well…');
      return answer(recordOf(request).includes('console.log') ? 'violated' : 'clean', 0.9);
    });
    const root = project(judge.server.baseUrl);
    const result = await cli(root, 'judge', 'calibrate', repoFile('fixtures/judge/calibration.jsonl').pathname, '--json');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.out);
    const rule = (id: string) => report.rules.find((entry: { rule: string }) => entry.rule === id);
    // J4 by hand: person V,V,C,C,C; judge V,V,C,V,V → a=2 b=0 c=2 d=1; pₒ=0.6, pₑ=0.4·0.8+0.6·0.2=0.44, κ=0.16/0.56.
    expect(rule('J4').judgeVsPerson.confusion).toEqual({ bothViolated: 2, aViolatedBClean: 0, aCleanBViolated: 2, bothClean: 1 });
    expect(rule('J4').judgeVsPerson.kappa.kappa).toBeCloseTo(0.16 / 0.56, 12);
    // R4 (deterministic, on the syntax tree: the comment is no call) V,V,C,C,C against the judge: a=2 b=0 c=2 d=1, κ=0.16/0.56.
    expect(rule('J4').judgeVsDeterministic.confusion).toEqual({ bothViolated: 2, aViolatedBClean: 0, aCleanBViolated: 2, bothClean: 1 });
    expect(rule('J4').judgeVsDeterministic.kappa.kappa).toBeCloseTo(0.16 / 0.56, 12);
    // J1: the judge says clean to all five (3 violated by the person): pₒ=0.4=pₑ, κ=0.
    expect(rule('J1').judgeVsPerson.kappa.kappa).toBeCloseTo(0, 12);
    expect(rule('J2')).toMatchObject({ cases: 5, judgeErrors: 5, judgeVsPerson: { kappa: { n: 0, kappa: null } } });
    // Overall without J2's errors: a=2 b=6 c=2 d=5, n=15 → κ=(105−109)/(225−109)=−4/116.
    expect(report.overall.confusion).toEqual({ bothViolated: 2, aViolatedBClean: 6, aCleanBViolated: 2, bothClean: 5 });
    expect(report.overall.kappa.kappa).toBeCloseTo(-4 / 116, 12);
    expect(report.overall.judgeErrors).toBe(5);

    const text = await cli(root, 'judge', 'calibrate', repoFile('fixtures/judge/calibration.jsonl').pathname, '--rule', 'J4');
    expect(text.out).toMatch(/J4 NOLOG_JUDGED: 5 cases, 0 judge-errors\n {2}judge vs person: κ = 0\.29 \[/);
    expect(text.out).toMatch(/judge vs checked rule R4: κ = 0\.29/);
  });

  it('refuses a case line that is not a case, naming file, line and field', async () => {
    const root = project('http://127.0.0.1:9/v1');
    writeFileSync(join(root, 'cases.jsonl'), '{"id":"a","rule":"J1","label":"maybe","actions":[]}\n');
    const result = await cli(root, 'judge', 'calibrate', 'cases.jsonl');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/cases\.jsonl line 1: field label: .*a case is \{"id", "rule", "label": "violated"\|"clean"/);
  });
});

describe('holdfast judge FILE', () => {
  it('grades a recorded run with a new judge rule, appends advisory judge events, and leaves every verdict as it was', async () => {
    let asked = 0;
    judge = await startScriptedJudge((request) => {
      asked += 1;
      return answer(recordOf(request).includes('console.log') ? 'violated' : 'clean', 0.8, { evidence: [{ file: 'src/checkout.ts', line: 3, quote: null }] });
    });
    const root = project(judge.server.baseUrl);
    copyFileSync(repoFile('runs/example.jsonl'), join(root, 'run.jsonl'));
    copyFileSync(repoFile('rulebooks/judged.yaml'), join(root, 'judged.yaml'));
    const before = await cli(root, 'report', 'run.jsonl', '--format', 'json');
    const original = readFileSync(join(root, 'run.jsonl'), 'utf8');

    const graded = await cli(root, 'judge', 'run.jsonl', '--rulebook', 'judged.yaml', '--rule', 'J4');
    expect(graded.err).toBe('');
    expect(graded.out).toMatch(/^Graded 96 arms with J4; appended to run\.jsonl\./);
    expect(graded.out).toMatch(/Judged \(advisory\):/);
    expect(asked).toBe(96);
    const after = readFileSync(join(root, 'run.jsonl'), 'utf8');
    expect(after.startsWith(original)).toBe(true);
    const lines = after
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.slice(175, -1).every((event: { type: string; source: string }) => event.type === 'judge' && event.source === 'after')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: 'run-end', status: 'completed', seq: 175 + 96 });

    const report = JSON.parse((await cli(root, 'report', 'run.jsonl', '--format', 'json')).out);
    const unchanged = JSON.parse(before.out);
    expect(report.rounds).toEqual(unchanged.rounds);
    expect(report.totals).toEqual(unchanged.totals);
    expect(report.judged.advisory).toBe(true);
    expect(report.judged.rows).toHaveLength(96);
    expect(report.judged.rows.some((row: { verdict: string }) => row.verdict === 'violated')).toBe(true);

    const junit = (await cli(root, 'report', 'run.jsonl', '--format', 'junit')).out;
    expect(junit).toMatch(/<testsuite name="demo-careful told judged \(advisory\)" tests="16" failures="0" errors="0" skipped="0">/);
    expect(junit).toMatch(/<property name="judged" value="violated"\/>/);
    expect(junit).toMatch(/<property name="evidence" value="src\/checkout\.ts:3"\/>/);

    // rescore re-checks the deterministic rules and keeps the recorded judge grades.
    const rescored = JSON.parse((await cli(root, 'rescore', 'run.jsonl', '--json')).out);
    expect(rescored.changes).toEqual([]);
    expect(rescored.judged).toEqual({ kept: 96, note: 'judge grades are kept as recorded; grade again with holdfast judge FILE' });

    // Asked for, rescore grades again (all four judge rules of the rulebook) and writes nothing.
    const written = readFileSync(join(root, 'run.jsonl'), 'utf8');
    const regraded = JSON.parse((await cli(root, 'rescore', 'run.jsonl', '--rulebook', 'judged.yaml', '--rejudge', '--json')).out);
    expect(regraded.judged.regraded).toBe(true);
    expect(regraded.judged.rows).toHaveLength(96 * 4);
    expect(asked).toBe(96 + 96 * 4);
    expect(readFileSync(join(root, 'run.jsonl'), 'utf8')).toBe(written);
  });
});

describe('holdfast run with judge rules', () => {
  it('warns when a judge target cannot grade, records judge-errors apart, and the run completes; --no-judge records none', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-judge-run-'));
    const replies = repoFile('runs/demo/replies.json').pathname;
    const args = [
      'run',
      '--replies',
      replies,
      '--rulebook',
      repoFile('rulebooks/judged.yaml').pathname,
      '--tasks',
      'debug-checkout-logging',
      '--concurrency',
      '1',
    ];
    const judged = await cli(root, ...args, '--out', join(root, 'judged.jsonl'));
    expect(judged.err).toMatch(/warning: judge target "judge" is not in .*; its judge rules will be recorded as judge-error\./);
    const report = JSON.parse((await cli(root, 'report', 'judged.jsonl', '--format', 'json')).out);
    expect(report.status).toBe('completed');
    expect(report.judged.rows.length).toBe(report.rounds.length * 2 * 4);
    expect(report.judged.rows.every((row: { verdict: string }) => row.verdict === 'judge-error')).toBe(true);

    const skipped = await cli(root, ...args, '--no-judge', '--out', join(root, 'plain.jsonl'));
    expect(skipped.err).not.toMatch(/judge target/);
    const plain = JSON.parse((await cli(root, 'report', 'plain.jsonl', '--format', 'json')).out);
    expect(plain.judged.rows).toEqual([]);
    expect(plain.totals.arms).toEqual(report.totals.arms);
  });
});
