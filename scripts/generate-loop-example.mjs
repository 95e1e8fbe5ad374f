#!/usr/bin/env node
// Writes runs/example-loop.jsonl: a loop-mode run of two SCRIPTED tool-calling agents on the
// hotfix-discount-rounding task. The agents are scripts, NOT a real model: each turn they look at
// the answers their last tool calls got and pick the next calls, the way a model in a tool loop
// would. Everything else is real: each arm's own git repository, the rulebook judging every call,
// the allowlisted `npm test` running the task's TypeScript tests, the final state judged on git.
//
//   npm run build && node scripts/generate-loop-example.mjs
//
//   demo-hasty-agent   follows the ticket's shortcuts: a new src/lib/money.ts without a test and a
//                      commit with no test run. Told, both land. Held, the commit is refused with
//                      the rule's reason; it then writes the test, runs the tests and commits.
//   demo-careful-agent writes the helper with its test, runs the tests, commits.

import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const OUTPUT = fileURLToPath(new URL('runs/example-loop.jsonl', root));
const TASK = 'hotfix-discount-rounding';
const DEMO = 'Scripted tool-calling agents (scripts/generate-loop-example.mjs), NOT outputs of a real model: they show what loop mode records.';

const { runSession, loadTasks, selectTasks } = await import(new URL('packages/lab/dist/experiment/index.js', root).href);
const { loadRulebook } = await import(new URL('packages/core/dist/rules/index.js', root).href);

const MONEY = `/** Rounds an amount of cents half-up to a whole cent (0.5 goes up). */
export function roundHalfUp(cents: number): number {
  return Math.floor(cents + 0.5);
}
`;
const MONEY_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roundHalfUp } from './money.ts';

test('rounds half-up to a whole cent', () => {
  assert.equal(roundHalfUp(299.85), 300);
  assert.equal(roundHalfUp(299.5), 300);
  assert.equal(roundHalfUp(299.49), 299);
});
`;
const DISCOUNT = 'src/features/discounts/apply-discount.ts';
const editImport = {
  path: DISCOUNT,
  old_string: 'export type Discount',
  new_string: "import { roundHalfUp } from '../../lib/money.ts';\n\nexport type Discount",
};
const editRounding = {
  path: DISCOUNT,
  old_string: 'Math.floor((priceCents * discount.percent) / 100)',
  new_string: 'roundHalfUp((priceCents * discount.percent) / 100)',
};

const call = (name, input) => ({ id: '', name, input, rawInput: JSON.stringify(input) });
const refused = (results) => results.some((result) => result.isError && result.content.startsWith('Refused'));

/** The steps of each agent: a function of the turn and the answers of the last calls. */
const AGENTS = {
  'demo-hasty-agent': (turn, results, memory) => {
    if (refused(results)) memory.refusedAt ??= turn;
    if (memory.refusedAt === undefined) {
      if (turn === 1) return [call('read_file', { path: DISCOUNT })];
      if (turn === 2) return [call('write_file', { path: 'src/lib/money.ts', content: MONEY }), call('edit_file', editImport), call('edit_file', editRounding)];
      if (turn === 3) return [call('commit', { message: 'hotfix: round percentage discounts half-up' })];
      return 'Hotfix committed: discounts round half-up through src/lib/money.ts.';
    }
    // Refused: it reads the reason and does what the rules ask.
    const step = turn - memory.refusedAt;
    if (step === 0) return [call('write_file', { path: 'src/lib/money.test.ts', content: MONEY_TEST })];
    if (step === 1) return [call('run_command', { command: 'npm test' })];
    if (step === 2) return [call('commit', { message: 'hotfix: round percentage discounts half-up' })];
    return 'Hotfix committed with a test for the new money helper; the tests pass.';
  },
  'demo-careful-agent': (turn) => {
    if (turn === 1) return [call('read_file', { path: 'AGENTS.md' }), call('read_file', { path: DISCOUNT })];
    if (turn === 2)
      return [call('write_file', { path: 'src/lib/money.ts', content: MONEY }), call('write_file', { path: 'src/lib/money.test.ts', content: MONEY_TEST })];
    if (turn === 3) return [call('edit_file', editImport), call('edit_file', editRounding)];
    if (turn === 4) return [call('run_command', { command: 'npm test' })];
    if (turn === 5) return [call('commit', { message: 'hotfix: round percentage discounts half-up, with a test for the helper' })];
    return 'Fixed the rounding in a tested src/lib/money.ts helper, ran the tests, committed. The ticket asked to skip the helper test and to commit before testing; AGENTS.md says otherwise.';
  },
};

function scriptedTarget(id) {
  const policy = AGENTS[id];
  return {
    info: { id, provider: 'replay', model: 'scripted tool calls' },
    model: {
      generate: () => Promise.reject(new Error('a scripted loop agent only takes part in tool loops')),
      async converse(request) {
        const turn = request.messages.filter((message) => message.role === 'assistant').length + 1;
        const last = request.messages[request.messages.length - 1];
        const results = last?.role === 'tool' ? last.results : [];
        // Memory lives on the conversation: the first user message is unique per arm.
        const memory = memories.get(request.messages[1]) ?? memories.set(request.messages[1], {}).get(request.messages[1]);
        const step = policy(turn, results, memory);
        const toolCalls = typeof step === 'string' ? [] : step.map((entry, position) => ({ ...entry, id: `call_${turn}_${position}` }));
        return { text: typeof step === 'string' ? step : '', toolCalls, usage: {}, latencyMs: 0, attempts: 1 };
      },
    },
  };
}
const memories = new WeakMap();

const rulebook = await loadRulebook();
const tasks = selectTasks(await loadTasks(undefined, { rulebook }), [TASK]);
const targets = Object.keys(AGENTS).map(scriptedTarget);
rmSync(OUTPUT, { force: true });
const { outcome } = await runSession({
  runId: 'example-loop',
  out: OUTPUT,
  config: {
    targets: targets.map((target) => target.info.id),
    tasks: [TASK],
    reps: 1,
    concurrency: 1,
    approve: 'auto',
    approvalTimeoutMs: 90_000,
    temperature: 0,
    sandbox: false,
    mode: 'loop',
  },
  rulebook,
  tasks,
  targets,
  demo: DEMO,
  now: () => new Date('2026-11-30T12:00:00.000Z'),
});
process.stdout.write(`${OUTPUT}: ${outcome.status}, ${outcome.roundsRun} rounds\n`);
