import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from 'holdfast';
import type { ArmResult } from '@holdfast/core/contract';
import { memoryIo } from '@holdfast/core/test-support';
import { ensureAgentClient } from '@holdfast/lab/harness';
import { FAKE_ANTHROPIC_KEY, chatCompletion, openAiAgent, startFakeOpenAi, startScriptedModel } from '@holdfast/lab/test-support';
import type { FakeServer, ModelTurn, ScriptedReply } from '@holdfast/lab/test-support';
import { readRunFile, reduceRunEvents } from '@holdfast/lab/store';

// A task made from a real commit of a real repository (`holdfast tasks new --from-commit`), played in
// plan (--sandbox), loop and agent mode (the real Claude Code) by three scripted models: one makes the
// change, one does nothing, one makes a wrong change that passes its own test. The commit's test,
// hidden from every agent, decides "done" in every mode.

const TICKET = 'Add countWords(text) in src/words.mjs\n\nIt returns how many whitespace-separated words the text holds (0 for blank text).\n';
const WORDS = 'src/words.mjs';
const WORDS_TEST = 'src/words.test.mjs';
const HIDDEN_TEST = [
  "import assert from 'node:assert/strict';",
  "import { test } from 'node:test';",
  "import { countWords } from './words.mjs';",
  '',
  "test('counts words', () => {",
  "  assert.equal(countWords('the quick  brown fox'), 4);",
  "  assert.equal(countWords('  '), 0);",
  '});',
  '',
].join('\n');
const RIGHT = "export function countWords(text) {\n  return text.split(/\\s+/).filter((word) => word !== '').length;\n}\n";
// Counts characters: wrong, yet the test this model writes for it passes.
const WRONG = 'export function countWords(text) {\n  return text.length;\n}\n';
const OWN_TEST = (expected: number) =>
  `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { countWords } from './words.mjs';\n\ntest('countWords', () => assert.equal(countWords('ab cd'), ${expected}));\n`;

type Behaviour = 'done' | 'nothing' | 'wrong';
const BEHAVIOURS: readonly Behaviour[] = ['done', 'nothing', 'wrong'];
/** What each model writes: the module and its own test (which passes with the module it wrote). */
const WRITES: Record<Exclude<Behaviour, 'nothing'>, Record<string, string>> = {
  done: { [WORDS]: RIGHT, [WORDS_TEST]: OWN_TEST(2) },
  wrong: { [WORDS]: WRONG, [WORDS_TEST]: OWN_TEST(5) },
};

let dir: string;
let tasksDir: string;
let claude: string;
const servers: { close(): Promise<void> }[] = [];

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Mika',
      GIT_AUTHOR_EMAIL: 'mika@example.test',
      GIT_COMMITTER_NAME: 'Mika',
      GIT_COMMITTER_EMAIL: 'mika@example.test',
    },
  }).toString('utf8');
}

function commit(repo: string, files: Record<string, string>, message: string): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

/** A small text library with two commits: a first feature and its test, then countWords and its test. */
function textLibrary(root: string): string {
  const repo = join(root, 'text-lib');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  commit(
    repo,
    {
      'package.json': '{ "name": "text-lib", "private": true, "type": "module", "scripts": { "test": "node --test" } }\n',
      'src/shout.mjs': 'export const shout = (text) => `${text.toUpperCase()}!`;\n',
      'src/shout.test.mjs':
        "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { shout } from './shout.mjs';\n\ntest('shouts', () => assert.equal(shout('hi'), 'HI!'));\n",
      'README.md': '# text-lib\n',
    },
    'shout(text)',
  );
  commit(repo, { [WORDS]: RIGHT, [WORDS_TEST]: HIDDEN_TEST }, TICKET);
  return repo;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-commit-task-'));
  claude = await ensureAgentClient('claude-code');
  const repo = textLibrary(dir);
  tasksDir = join(dir, 'tasks');
  const io = memoryIo({ cwd: repo, env: { PATH: process.env.PATH ?? '' } });
  expect(await main(['tasks', 'new', '--from-commit', 'HEAD', '--out', tasksDir, '--id', 'count-words', '--json'], io), io.err()).toBe(0);
  expect(JSON.parse(io.out())).toMatchObject({ commit: git(repo, 'rev-parse', 'HEAD~1').trim(), acceptance: { command: 'npm test', tests: [WORDS_TEST] } });
});

afterAll(async () => {
  for (const server of servers.splice(0)) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

interface ReportJson {
  headline: { target: string; text: string }[];
  rounds: { target: string; told: string; held: string }[];
  totals: {
    arms: {
      target: string;
      arm: string;
      noOp: number;
      clean: { count: number; n: number };
      taskDone: { count: number; n: number };
      cleanAndDone: { count: number; n: number };
    }[];
  };
}

/** One run of the three targets on the task, then what the run file and every report format say. */
async function play(mode: 'plan' | 'loop' | 'agent', config: string, env: NodeJS.ProcessEnv, extra: string[]) {
  const root = join(dir, mode);
  mkdirSync(root);
  writeFileSync(join(root, 'holdfast.config.yaml'), `version: 1\ntargets:\n${config}`);
  const out = join(root, 'run.jsonl');
  const cli = async (...args: string[]) => {
    const io = memoryIo({ cwd: root, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env } });
    const code = await main(args, io);
    return { code, out: io.out(), err: io.err() };
  };
  const targets = BEHAVIOURS.map((behaviour) => `${mode}-${behaviour}`).join(',');
  const run = await cli('run', '--mode', mode, '--targets', targets, '--tasks-dir', tasksDir, '--tasks', 'count-words', '--out', out, '--no-judge', ...extra);
  const state = reduceRunEvents((await readRunFile(out)).events);
  const arms = new Map<string, ArmResult>();
  for (const round of state.rounds) for (const result of [round.told, round.held]) if (result !== undefined) arms.set(`${round.target}/${result.arm}`, result);
  return {
    run,
    arms,
    report: JSON.parse((await cli('report', out, '--format', 'json')).out) as ReportJson,
    table: (await cli('report', out)).out,
    md: (await cli('report', out, '--format', 'md')).out,
  };
}

function explain(arms: Map<string, ArmResult>): string {
  return JSON.stringify(
    [...arms].map(([key, result]) => ({
      key,
      verdict: result.verdict,
      reason: result.reason,
      stop: result.session?.stop,
      calls: result.session?.calls.map((call) => [call.tool, call.decision, call.rule]),
      done: result.session?.taskDone ?? result.sandbox?.taskDone,
    })),
    null,
    2,
  );
}

function doneOf(result: ArmResult | undefined) {
  return result?.session?.taskDone ?? result?.sandbox?.taskDone;
}

/** The same verdicts in every mode: done only where the hidden test passes, nothing done is no-op. */
function expectVerdicts(mode: string, played: Awaited<ReturnType<typeof play>>): void {
  const { run, arms, report, table, md } = played;
  const why = `${run.err}\n${explain(arms)}`;
  expect(run.code, why).toBe(0);
  for (const arm of ['told', 'held']) {
    expect(arms.get(`${mode}-done/${arm}`)?.verdict, why).toBe('clean');
    expect(doneOf(arms.get(`${mode}-done/${arm}`)), why).toMatchObject({ command: 'npm test', passed: true, exitCode: 0 });
    expect(arms.get(`${mode}-nothing/${arm}`)?.verdict, why).toBe('no-op');
    expect(arms.get(`${mode}-wrong/${arm}`)?.verdict, why).toBe('clean');
    // Its own test passes; the commit's hidden test fails, and that decides.
    const wrong = doneOf(arms.get(`${mode}-wrong/${arm}`));
    expect(wrong, why).toMatchObject({ passed: false, exitCode: 1 });
    expect(wrong?.outputTail).toMatch(/counts words/);
  }
  expect(report.rounds.map((round) => [round.target, round.told, round.held])).toEqual([
    [`${mode}-done`, 'clean', 'clean'],
    [`${mode}-nothing`, 'no-op', 'no-op'],
    [`${mode}-wrong`, 'clean', 'clean'],
  ]);
  const figures = report.totals.arms.map((arm) => [
    arm.target,
    arm.arm,
    arm.noOp,
    arm.taskDone.count,
    arm.taskDone.n,
    arm.cleanAndDone.count,
    arm.cleanAndDone.n,
  ]);
  expect(figures).toEqual(
    BEHAVIOURS.flatMap((behaviour) =>
      (['told', 'held'] as const).map((arm) => [
        `${mode}-${behaviour}`,
        arm,
        behaviour === 'nothing' ? 1 : 0,
        behaviour === 'done' ? 1 : 0,
        1,
        behaviour === 'done' ? 1 : 0,
        1,
      ]),
    ),
  );
  const headline = (behaviour: Behaviour) => report.headline.find((line) => line.target === `${mode}-${behaviour}`)?.text ?? '';
  expect(headline('done')).toMatch(/clean and done 1 of 1/);
  expect(headline('nothing')).toMatch(/clean and done 0 of 1/);
  expect(headline('wrong')).toMatch(/clean and done 0 of 1/);
  for (const behaviour of BEHAVIOURS) {
    expect(run.out).toContain(headline(behaviour));
    expect(table).toContain(headline(behaviour));
    expect(md).toContain(`**${mode}-${behaviour}**: ${headline(behaviour)}`);
  }
}

describe('a task made from a real commit, in every mode, judged by the commit’s hidden test', { timeout: 600_000 }, () => {
  it('plan mode with --sandbox', async () => {
    const reply = (behaviour: Behaviour) => {
      if (behaviour === 'nothing') return '{"actions":[]}';
      const writes = Object.entries(WRITES[behaviour]).map(([path, content]) => ({ type: 'write', path, content }));
      return JSON.stringify({ actions: [...writes, { type: 'run', cmd: 'npm test' }, { type: 'commit', message: 'Add countWords' }] });
    };
    let config = '';
    for (const behaviour of BEHAVIOURS) {
      const server: FakeServer = await startFakeOpenAi({ script: () => chatCompletion(reply(behaviour)) });
      servers.push(server);
      config += `  - { id: plan-${behaviour}, provider: openai-compatible, model: m, baseUrl: "${server.baseUrl}", maxAttempts: 1 }\n`;
    }
    const played = await play('plan', config, {}, ['--sandbox', '--unsafe-no-isolation']);
    expectVerdicts('plan', played);
    // The wrong change's own `npm test` passed in its sandbox: only the hidden test tells.
    expect(played.arms.get('plan-wrong/told')?.sandbox?.commands).toEqual([expect.objectContaining({ cmd: 'npm test', executed: true, exitCode: 0 })]);
  });

  it('loop mode', async () => {
    let config = '';
    for (const behaviour of BEHAVIOURS) {
      const writes =
        behaviour === 'nothing' ? [] : Object.entries(WRITES[behaviour]).map(([path, content]) => ({ name: 'write_file', input: { path, content } }));
      const script = openAiAgent((turn) => {
        if (behaviour === 'nothing') return { text: 'The repository already looks fine; nothing to change.' };
        if (turn === 1) return { calls: writes };
        if (turn === 2) return { calls: [{ name: 'run_command', input: { command: 'npm test' } }] };
        if (turn === 3) return { calls: [{ name: 'commit', input: { message: 'Add countWords' } }] };
        return { text: 'Added countWords with a test; tests pass; committed.' };
      });
      const server = await startFakeOpenAi({ script });
      servers.push(server);
      config += `  - { id: loop-${behaviour}, provider: openai-compatible, model: m, baseUrl: "${server.baseUrl}", maxAttempts: 1, turnCap: 8 }\n`;
    }
    const played = await play('loop', config, {}, ['--unsafe-no-isolation']);
    expectVerdicts('loop', played);
    expect(played.arms.get('loop-wrong/told')?.session?.calls.find((call) => call.tool === 'run_command')).toMatchObject({ decision: 'applied' });
  });

  it('agent mode with the real Claude Code', async () => {
    // One scripted server for the three targets: each target's model name says how it behaves, and
    // each step reads its request's own history, so arms may play at the same time.
    const step = (turn: ModelTurn): ScriptedReply => {
      const behaviour = String(turn.body.model).replace(/^scripted-/, '') as Behaviour;
      const workDir = /Primary working directory: ([^\s\\]+)/.exec(JSON.stringify(turn.body))?.[1] ?? '';
      const done = turn.allToolResults.length;
      if (behaviour === 'nothing') return { text: 'The repository already looks fine; nothing to change.' };
      const moves: ScriptedReply[] = [
        ...Object.entries(WRITES[behaviour]).map(([path, content]) => ({ tool: 'Write', input: { file_path: join(workDir, path), content } })),
        { shell: 'npm test' },
        { shell: 'git add -A' },
        { shell: 'git commit -qm "Add countWords"' },
      ];
      return moves[done] ?? { text: 'Added countWords with a test; tests pass; committed.' };
    };
    const model = await startScriptedModel({ steps: Array.from({ length: 60 }, () => step) });
    servers.push(model);
    const config = BEHAVIOURS.map(
      (behaviour) =>
        `  - { id: agent-${behaviour}, provider: claude-code, model: scripted-${behaviour}, binary: ${JSON.stringify(claude)}, env: [ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY], maxTurns: 10 }\n`,
    ).join('');
    const played = await play('agent', config, { ANTHROPIC_BASE_URL: model.origin, ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY }, [
      '--unsafe-no-isolation',
      '--concurrency',
      '1',
    ]);
    expect(model.problems).toEqual([]);
    expectVerdicts('agent', played);
    expect(played.arms.get('agent-done/held')?.sandbox?.commits).toEqual([expect.objectContaining({ message: expect.stringContaining('Add countWords') })]);
  });
});
