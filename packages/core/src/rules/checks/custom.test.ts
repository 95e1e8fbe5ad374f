import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RulebookError } from '../rulebook-error.js';
import { judgeWith, ruleWith, run } from '../test-support/kind-rulebook.js';
import { write } from '../test-support/rulebooks.js';

let project: string;

/** A process that has not ended (a zombie waiting for its parent has ended). */
function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
let before: string;

const NO_TODO = `
export function check(round) {
  return round.actions
    .filter((action) => action.type === 'write')
    .map((action) => ({
      actionIndex: action.index,
      ok: !/\\bTODO\\b/.test(action.content ?? ''),
      detail: /\\bTODO\\b/.test(action.content ?? '') ? \`write to \${action.path} leaves a TODO; finish it or open an issue.\` : \`write to \${action.path} has no TODO.\`,
    }));
}
`;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'holdfast-custom-'));
  before = process.cwd();
  process.chdir(project);
  writeFileSync(join(project, 'no-todo.mjs'), NO_TODO);
  writeFileSync(
    join(project, 'default-export.mjs'),
    'export default (round) => ({ results: round.actions.map((action) => ({ actionIndex: action.index, ok: true, detail: `saw ${round.existing.length} existing` })) });\n',
  );
  writeFileSync(join(project, 'loops.mjs'), 'export function check() { for (;;) {} }\n');
  writeFileSync(join(project, 'hungry.mjs'), 'export function check() { const kept = []; for (;;) kept.push(new Array(1e6).fill(1)); }\n');
  writeFileSync(join(project, 'throws.mjs'), 'export function check() { throw new Error("the check broke"); }\n');
  writeFileSync(join(project, 'bad-answer.mjs'), 'export function check() { return { verdict: "fine" }; }\n');
  writeFileSync(join(project, 'stray.mjs'), 'export function check() { return [{ actionIndex: 7, ok: true, detail: "x" }]; }\n');
  writeFileSync(join(project, 'no-export.mjs'), 'export const value = 1;\n');
  writeFileSync(
    join(project, 'exec-check.mjs'),
    'let text = ""; process.stdin.on("data", (c) => (text += c)); process.stdin.on("end", () => { const round = JSON.parse(text); process.stdout.write(JSON.stringify({ results: round.actions.map((a) => ({ actionIndex: a.index, ok: a.type !== "run", detail: a.type === "run" ? `no runs (${a.cmd})` : "fine" })) })); });\n',
  );
});

afterAll(() => {
  process.chdir(before);
  rmSync(project, { recursive: true, force: true });
});

describe('custom check', () => {
  it('runs a module in its own process and returns its results under the rule', async () => {
    const rulebook = ruleWith('kind: custom\nmodule: no-todo.mjs');
    const results = await judgeWith(rulebook, [write('src/a.ts', '// TODO later\n'), write('src/b.ts', 'export const b = 1;\n')]);
    expect(results).toEqual([
      { rule: 'R9', name: 'KIND', actionIndex: 0, ok: false, detail: 'R9 KIND: write to src/a.ts leaves a TODO; finish it or open an issue.' },
      { rule: 'R9', name: 'KIND', actionIndex: 1, ok: true, detail: 'R9 KIND: write to src/b.ts has no TODO.' },
    ]);
  });

  it('accepts a default export and a { results } answer, and passes the existing paths', async () => {
    const [result] = await judgeWith(ruleWith('kind: custom\nmodule: default-export.mjs'), [write('src/a.ts')], ['src/x.ts', 'src/y.ts']);
    expect(result?.detail).toBe('R9 KIND: saw 2 existing');
  });

  it('runs an executable that reads the round on stdin', async () => {
    const results = await judgeWith(ruleWith('kind: custom\nexec: [node, exec-check.mjs]'), [write('src/a.ts'), run('make')]);
    expect(results.map((result) => [result.ok, result.detail])).toEqual([
      [true, 'R9 KIND: fine'],
      [false, 'R9 KIND: no runs (make)'],
    ]);
  });

  it.each([
    ['loops.mjs', 'timeoutMs: 300', /was killed after 300 ms/],
    ['hungry.mjs', 'memoryMb: 32', /(crashed|was killed)/],
    ['throws.mjs', '', /crashed with exit code 1 .*the check broke/],
    ['bad-answer.mjs', '', /printed something other than a results list/],
    ['stray.mjs', '', /answered for action 7/],
    ['no-export.mjs', '', /exports no check function/],
  ])('refuses every action when %s misbehaves', async (module, extra, detail) => {
    const rulebook = ruleWith(`kind: custom\nmodule: ${module}\n${extra}`);
    const results = await judgeWith(rulebook, [write('src/a.ts'), run('ls')]);
    expect(results.map((result) => result.ok)).toEqual([false, false]);
    expect(results[0]?.detail).toMatch(/cannot be judged: the custom check/);
    expect(results[0]?.detail).toMatch(detail);
  });

  it.each([
    ['answers and leaves a program running', 'answers.sh', ''],
    ['is killed at its limit', 'hangs.sh', 'timeoutMs: 500'],
  ])('ends the whole process group of a check that %s (issue 46)', async (_what, script, extra) => {
    const pids = join(project, `${script}.pids`);
    const answer = `printf '{"results":[{"actionIndex":0,"ok":true,"detail":"fine"}]}'`;
    const body = script === 'hangs.sh' ? 'while :; do sleep 1; done' : answer;
    // The background program holds no pipe of the check, so only the group's end can stop it.
    writeFileSync(join(project, script), `cat >/dev/null\nsleep 600 </dev/null >/dev/null 2>&1 &\necho $! > ${pids}\n${body}\n`);
    const [result] = await judgeWith(ruleWith(`kind: custom\nexec: [sh, ${script}]\n${extra}`), [write('src/a.ts')]);
    expect(result?.ok).toBe(script === 'answers.sh');
    const left = Number(readFileSync(pids, 'utf8').trim());
    expect(left).toBeGreaterThan(0);
    await vi.waitFor(() => expect(running(left)).toBe(false), { timeout: 2_147_483_647, interval: 20 });
  });

  it('refuses a missing module as a rule that does not load, and a missing program as one that cannot start', async () => {
    const [missing] = await judgeWith(ruleWith('kind: custom\nmodule: gone.mjs'), [write('src/a.ts')]);
    expect(missing?.detail).toMatch(/the rule does not load .*gone\.mjs does not exist/);
    const [absent] = await judgeWith(ruleWith('kind: custom\nexec: [holdfast-no-such-program]'), [write('src/a.ts')]);
    expect(absent).toMatchObject({ ok: false });
    expect(absent?.detail).toMatch(/crashed with exit code 127/);
  });

  it('is refused at load time without exactly one of module and exec, or with a path that climbs out', () => {
    expect(() => ruleWith('kind: custom')).toThrow(RulebookError);
    expect(() => ruleWith('kind: custom\nmodule: a.mjs\nexec: [node]')).toThrow(/exactly one of/);
    expect(() => ruleWith('kind: custom\nmodule: ../a.mjs')).toThrow(/test\.yaml.*field check\.module/s);
    expect(() => ruleWith('kind: custom\nmodule: a.mjs\ntimeoutMs: 0')).toThrow(/timeoutMs/);
  });
});
