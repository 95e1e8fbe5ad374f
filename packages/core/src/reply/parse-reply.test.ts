import { describe, expect, it } from 'vitest';
import type { ParsedReply } from '../contract/index.js';
import { ParsedReplySchema } from '../contract/index.js';
import { parseReply } from './parse-reply.js';

const write = { type: 'write', path: 'src/a.ts', content: 'export const a = 1;\n' };
const run = { type: 'run', cmd: 'npm test' };
const commit = { type: 'commit', message: 'feat: a' };
const reply = JSON.stringify({ reasoning: 'add a', actions: [write, run, commit] });
const FENCE = '```';

interface Case {
  name: string;
  text: string;
  expected: Partial<ParsedReply> & { kind: ParsedReply['kind'] };
  reason?: RegExp;
  actions?: unknown[];
}

const cases: Case[] = [
  { name: 'plain JSON', text: reply, expected: { kind: 'actions', method: 'json' }, actions: [write, run, commit] },
  { name: 'plain JSON with surrounding whitespace', text: `\n  ${reply}\n\n`, expected: { kind: 'actions', method: 'json' } },
  { name: 'fenced json', text: `${FENCE}json\n${reply}\n${FENCE}`, expected: { kind: 'actions', method: 'fenced' } },
  { name: 'fenced without a language', text: `${FENCE}\n${reply}\n${FENCE}`, expected: { kind: 'actions', method: 'fenced' } },
  { name: 'fenced JSON (upper case tag)', text: `Sure!\n${FENCE}JSON\n${reply}\n${FENCE}\nDone.`, expected: { kind: 'actions', method: 'fenced' } },
  { name: 'fence on one line', text: `Here: ${FENCE}json ${reply}${FENCE}`, expected: { kind: 'actions', method: 'fenced' } },
  {
    name: 'prose before and after',
    text: `I will add the module.\n${reply}\nLet me know if you need more.`,
    expected: { kind: 'actions', method: 'object' },
    actions: [write, run, commit],
  },
  {
    name: 'prose with a stray unclosed brace before the object',
    text: `Plan { step one, "quoted" words\n${reply}`,
    expected: { kind: 'actions', method: 'object' },
  },
  {
    name: 'prose with brackets and quotes outside any object',
    text: `See [1] and "the docs" (it's fine).\n${reply}\n[done]`,
    expected: { kind: 'actions', method: 'object' },
  },
  {
    name: 'fence whose written content contains backticks',
    text: `Here:\n${FENCE}json\n${JSON.stringify({ actions: [{ type: 'write', path: 'src/README.md', content: '# x\n```ts\nconst a = 1;\n```\n' }] })}\n${FENCE}`,
    expected: { kind: 'actions', method: 'fenced' },
  },
  {
    name: 'braces and brackets inside strings do not count',
    text: `Output: {"actions": [{"type": "write", "path": "src/b.ts", "content": "const s = \\"}]{[\\"; // ]}"}]} trailing`,
    expected: { kind: 'actions', method: 'object' },
    actions: [{ type: 'write', path: 'src/b.ts', content: 'const s = "}]{["; // ]}' }],
  },
  {
    name: 'two concatenated objects, both with actions, are merged',
    text: `${JSON.stringify({ actions: [write] })}${JSON.stringify({ actions: [run] })}`,
    expected: { kind: 'actions', method: 'salvaged' },
    actions: [write, run],
  },
  {
    name: 'two objects on separate lines, reasoning then actions',
    text: `${JSON.stringify({ reasoning: 'plan' })}\n${JSON.stringify({ actions: [run] })}`,
    expected: { kind: 'actions', method: 'salvaged', reasoning: 'plan' },
    actions: [run],
  },
  { name: 'the same object twice is kept once', text: `${reply}\n${reply}`, expected: { kind: 'actions', method: 'salvaged' }, actions: [write, run, commit] },
  {
    name: 'an object with actions next to an unrelated one',
    text: `${JSON.stringify({ actions: [run] })}\n${JSON.stringify({ status: 'done' })}`,
    expected: { kind: 'actions', method: 'object' },
    actions: [run],
  },
  {
    name: 'bare action objects with nothing else',
    text: `${JSON.stringify(run)}\n${JSON.stringify(commit)}`,
    expected: { kind: 'actions', method: 'salvaged' },
    actions: [run, commit],
  },
  { name: 'a top-level array of actions', text: JSON.stringify([write, run]), expected: { kind: 'actions', method: 'json' }, actions: [write, run] },
  {
    name: 'a lone action object in prose is not taken as an action',
    text: `For example {"type": "run", "cmd": "rm -rf /"} would be bad.`,
    expected: { kind: 'unparseable' },
    reason: /lone action object/,
  },
  {
    name: 'trailing commas → repaired',
    text: `{"actions": [{"type": "run", "cmd": "npm test"},],}`,
    expected: { kind: 'actions', method: 'repaired' },
    actions: [run],
  },
  {
    name: 'single quotes → repaired',
    text: `{'actions': [{'type': 'run', 'cmd': 'npm test'}]}`,
    expected: { kind: 'actions', method: 'repaired' },
    actions: [run],
  },
  {
    name: 'comments outside the actions array → salvaged',
    text: `${FENCE}json\n{\n  // the plan\n  "actions": [{"type": "run", "cmd": "npm test"}] /* end */\n}\n${FENCE}`,
    expected: { kind: 'actions', method: 'salvaged' },
    actions: [run],
  },
  {
    name: 'comments inside the actions array → repaired',
    text: `${FENCE}json\n{"actions": [\n  // tests first\n  {"type": "run", "cmd": "npm test"}\n]}\n${FENCE}`,
    expected: { kind: 'actions', method: 'repaired' },
    actions: [run],
  },
  {
    name: 'an unescaped quote in the reasoning: the actions array is salvaged',
    text: `{"reasoning": "they said "ship it" now", "actions": [{"type": "run", "cmd": "npm test"}]}`,
    expected: { kind: 'actions', method: 'salvaged' },
    actions: [run],
  },
  {
    name: 'truncated mid-string → repaired with what was there',
    text: `{"actions": [{"type": "run", "cmd": "npm test"}, {"type": "write", "path": "src/a.ts", "content": "export const`,
    expected: { kind: 'actions', method: 'repaired' },
  },
  { name: 'truncated mid-key', text: `{"actions": [{"type": "run", "cm`, expected: { kind: 'unparseable' } },
  {
    name: '<think> block before JSON',
    text: `<think>Maybe {"actions": []} or {"type": "exec"}? Let me think "carefully".</think>\n${JSON.stringify({ actions: [run] })}`,
    expected: { kind: 'actions', method: 'json', reasoning: 'Maybe {"actions": []} or {"type": "exec"}? Let me think "carefully".' },
    actions: [run],
  },
  {
    name: '</think> without its opening tag',
    text: `I should run the tests {first}.\n</think>\n\n${FENCE}json\n${JSON.stringify({ actions: [run] })}\n${FENCE}`,
    expected: { kind: 'actions', method: 'fenced', reasoning: 'I should run the tests {first}.' },
  },
  { name: 'JSON reasoning wins over the think block', text: `<think>draft</think>${reply}`, expected: { kind: 'actions', method: 'json', reasoning: 'add a' } },
  {
    name: 'reply ends inside <think>',
    text: `<think>Let me write {"actions": [{"type": "run", "cmd": "x"}]}`,
    expected: { kind: 'unparseable' },
    reason: /inside its <think>/,
  },
  {
    name: 'decline string',
    text: `{"decline": "Hardcoding the key breaks rule R1."}`,
    expected: { kind: 'declined', method: 'json', reason: 'Hardcoding the key breaks rule R1.' },
  },
  {
    name: 'declined true with a reason',
    text: `Sorry.\n{"declined": true, "reason": "that would skip tests"}`,
    expected: { kind: 'declined', method: 'object', reason: 'that would skip tests' },
  },
  { name: 'declined true without a reason', text: `{"declined": true}`, expected: { kind: 'declined', reason: 'the model declined without giving a reason' } },
  {
    name: 'empty actions with reasoning is a decline',
    text: `${FENCE}json\n{"actions": [], "reasoning": "I won't because it leaks a secret."}\n${FENCE}`,
    expected: { kind: 'declined', method: 'fenced', reason: "I won't because it leaks a secret." },
  },
  { name: 'empty actions without reasoning is an empty action list', text: `{"actions": []}`, expected: { kind: 'actions', method: 'json', actions: [] } },
  {
    name: 'declined false with actions is a normal reply',
    text: JSON.stringify({ declined: false, actions: [run] }),
    expected: { kind: 'actions', method: 'json' },
    actions: [run],
  },
  {
    name: 'decline and actions at once',
    text: JSON.stringify({ decline: 'no', actions: [run] }),
    expected: { kind: 'unparseable' },
    reason: /declines .* 1 action/,
  },
  { name: 'empty text', text: '', expected: { kind: 'unparseable', reason: 'the reply is empty' } },
  { name: 'whitespace only', text: ' \n\t ', expected: { kind: 'unparseable', reason: 'the reply is empty' } },
  { name: 'prose only', text: 'I think we should refactor this first.', expected: { kind: 'unparseable', reason: 'no JSON in the reply' } },
  { name: 'JSON that is not a reply', text: '{"plan": "x", "status": 1}', expected: { kind: 'unparseable' }, reason: /keys "plan", "status"/ },
  {
    name: 'unknown action type',
    text: JSON.stringify({ actions: [run, commit, { type: 'exec', cmd: 'ls' }] }),
    expected: { kind: 'unparseable', reason: 'action 2: unknown type "exec"; expected write, delete, run or commit' },
  },
  {
    name: 'missing field',
    text: JSON.stringify({ actions: [{ type: 'write', path: 'src/a.ts' }] }),
    expected: { kind: 'unparseable', reason: 'action 0 (write): field "content" is missing' },
  },
  {
    name: 'ill-typed field',
    text: JSON.stringify({ actions: [run, { type: 'delete', path: 42 }] }),
    expected: { kind: 'unparseable', reason: 'action 1 (delete): field "path" must be a string, got a number' },
  },
  {
    name: 'a near-miss field name is not guessed',
    text: JSON.stringify({ actions: [{ type: 'run', command: 'npm test' }] }),
    expected: { kind: 'unparseable', reason: 'action 0 (run): field "cmd" is missing' },
  },
  {
    name: 'missing type',
    text: JSON.stringify({ actions: [{ cmd: 'npm test' }] }),
    expected: { kind: 'unparseable', reason: 'action 0: field "type" is missing; expected write, delete, run or commit' },
  },
  {
    name: 'an action that is not an object',
    text: JSON.stringify({ actions: ['npm test'] }),
    expected: { kind: 'unparseable', reason: 'action 0: expected an object, got a string' },
  },
  {
    name: 'actions that is not an array',
    text: JSON.stringify({ actions: run }),
    expected: { kind: 'unparseable', reason: 'field "actions" must be an array, got an object' },
  },
  {
    name: 'an invalid action in the second of two objects is still reported',
    text: `${JSON.stringify({ actions: [run] })}${JSON.stringify({ actions: [{ type: 'exec' }] })}`,
    expected: { kind: 'unparseable', reason: 'action 1: unknown type "exec"; expected write, delete, run or commit' },
  },
  { name: 'unbalanced braces everywhere', text: '}}]] {{{ [[ "" { ] } ] "', expected: { kind: 'unparseable' } },
];

describe('parseReply on real-world reply shapes', () => {
  it.each(cases)('$name', ({ text, expected, reason, actions }) => {
    const parsed = parseReply(text);
    expect(ParsedReplySchema.safeParse(parsed).success).toBe(true);
    expect(parsed).toMatchObject(expected);
    if (reason !== undefined && parsed.kind !== 'actions') expect(parsed.reason).toMatch(reason);
    if (actions !== undefined) expect(parsed).toMatchObject({ kind: 'actions', actions });
  });

  it('drops unknown keys of an action instead of passing them on', () => {
    const parsed = parseReply(JSON.stringify({ actions: [{ ...run, shell: true }] }));
    expect(parsed).toEqual({ kind: 'actions', method: 'json', actions: [run] });
  });

  it('keeps the order of actions across merged objects', () => {
    const parsed = parseReply(`${JSON.stringify({ actions: [run] })}\n${JSON.stringify({ actions: [commit, write] })}`);
    expect(parsed.kind === 'actions' ? parsed.actions.map((action) => action.type) : []).toEqual(['run', 'commit', 'write']);
  });

  it('reads a cut-off action list of a million quotes without overflowing the stack', () => {
    // Repair turns the quotes into ~500,000 strings: combining them once spread them as call arguments.
    const parsed = parseReply(`{"actions": [${'"'.repeat(1_000_000)}`);
    expect(parsed).toEqual({ kind: 'unparseable', reason: 'action 0: expected an object, got a string' });
  });

  it('reads a fenced array of 200,000 reply objects without overflowing the stack', () => {
    const parsed = parseReply(`${FENCE}json\n[${Array.from({ length: 200_000 }, () => '{"actions": []}').join(',')}]\n${FENCE}`);
    expect(parsed).toMatchObject({ kind: 'actions', actions: [] });
  });

  it('quotes a huge unknown type only in part', () => {
    const parsed = parseReply(JSON.stringify({ actions: [{ type: 'x'.repeat(10_000) }] }));
    expect(parsed.kind).toBe('unparseable');
    expect(parsed.kind === 'unparseable' ? parsed.reason.length : Infinity).toBeLessThan(200);
  });
});
