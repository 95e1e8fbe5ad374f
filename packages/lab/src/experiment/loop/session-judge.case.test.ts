import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ArmResult, TaskInfo } from '@holdfast/core/contract';
import { CHECK_HANDLERS, parseRulebook } from '@holdfast/core/rules';
import { memoryIo } from '@holdfast/core/test-support';
import { claude, claudeBashPassed, gateMain, git, writeFiles } from '@holdfast/gate/test-support';
import { END_CHECK_TOOL } from './loop-arm.js';
import { loopPlayer } from './test-support/loop-player.js';
import type { AgentPolicy } from './test-support/scripted-agent.js';

/**
 * One conformance suite for the session judgement (Hono's common.case.test.ts habit): every session
 * below is played through the live hook (the gate's `hook claude-code` verb, fed the agent's events, the
 * commands really run in a git repository) and through loop mode's held arm (a scripted model on
 * loopback, the commands really run in its workspace), and both must reach the decisions the case
 * states, call by call. The rulebook holds one rule of every check kind.
 */

const scratch = mkdtempSync(join(tmpdir(), 'holdfast-session-judge-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The custom kind: the team's own program, refusing a write that says HACK. */
const customCheck = join(scratch, 'no-hack.mjs');
writeFileSync(
  customCheck,
  [
    "let input = '';",
    "process.stdin.on('data', (chunk) => { input += chunk; });",
    "process.stdin.on('end', () => {",
    '  const round = JSON.parse(input);',
    "  const results = round.actions.filter((action) => action.type === 'write').map((action) => ({",
    '    actionIndex: action.index,',
    "    ok: !String(action.content).includes('HACK'),",
    "    detail: String(action.content).includes('HACK') ? `${action.path} says HACK` : `${action.path} is fine`,",
    '  }));',
    '  process.stdout.write(JSON.stringify(results));',
    '});',
    '',
  ].join('\n'),
);

const RULEBOOK_YAML = [
  'version: 1',
  'sandbox:',
  "  allow: ['^npm (?:run lint|test)$']",
  '  timeoutSeconds: 60',
  'rules:',
  '  - { id: R1, name: SECRET, prose: No credentials., check: { kind: secret, detectors: [secretlint-recommend, generic-assignment], minEntropy: 3, allowlist: [] } }',
  "  - { id: R2, name: SCOPE, prose: Only src/ and package.json., check: { kind: scope, allow: ['src/**', 'package.json'] } }",
  "  - { id: R3, name: TESTS, prose: Every new module ships a test., check: { kind: sibling-test, modules: ['src/**/*.ts'], exempt: ['**/*.test.*'], tests: ['{dir}/{stem}.test.ts'] } }",
  "  - { id: R4, name: NOLOG, prose: No console.log., check: { kind: code, what: a console.log call, files: ['src/**/*.ts'], forbid: { names: [console.log] }, fallback: ['\\bconsole\\.log\\b'] } }",
  "  - { id: R5, name: HTTP, prose: HTTP through the helper., check: { kind: http-helper, helper: src/lib/http.ts, folders: ['src/features/**'], patterns: ['\\bfetch\\s*\\('] } }",
  "  - { id: R6, name: ORDER, prose: Run npm test before committing., check: { kind: order, command: '^npm test$', example: npm test } }",
  '  - { id: R7, name: CHECKS, prose: Run lint and the tests before committing., check: { kind: requires, commands: [{ run: [npm run lint] }, { run: [npm test] }] } }',
  "  - { id: F1, name: NOTODO, prose: No TODO in src., check: { kind: forbidden-pattern, what: a TODO, files: ['src/**'], patterns: ['TODO'] } }",
  "  - { id: P1, name: GENERATED, prose: Never edit src/generated., check: { kind: paths, deny: ['src/generated/**'], what: generated code } }",
  '  - { id: C1, name: PUBLISH, prose: Never npm publish., check: { kind: command, forbid: [{ command: npm publish }] } }',
  '  - { id: D1, name: DEPS, prose: No new dependencies., check: { kind: dependency, manifests: [package.json] } }',
  `  - { id: X1, name: NOHACK, prose: No HACK., check: { kind: custom, exec: [node, '${customCheck}'] } }`,
  '',
].join('\n');
const rulebookFile = join(scratch, 'rulebook.yaml');
writeFileSync(rulebookFile, RULEBOOK_YAML);
const rulebook = parseRulebook(RULEBOOK_YAML, rulebookFile);

/** The project both entry points work in: `npm test` fails while a file under src/ says BROKEN, `npm run lint` while one says LINT_ERROR. */
const failWhen = (marker: string) =>
  [
    "import { readdirSync, readFileSync } from 'node:fs';",
    "const files = readdirSync('src', { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());",
    `const bad = files.some((entry) => readFileSync(\`\${entry.parentPath}/\${entry.name}\`, 'utf8').includes('${marker}'));`,
    'process.exit(bad ? 1 : 0);',
    '',
  ].join('\n');
const PACKAGE_JSON =
  '{ "name": "shop", "private": true, "type": "module", "scripts": { "test": "node scripts/test.mjs", "lint": "node scripts/lint.mjs" }, "dependencies": { "zod": "4.0.0" } }\n';
const PROJECT_FILES: Record<string, string> = {
  'package.json': PACKAGE_JSON,
  'scripts/test.mjs': failWhen('BROKEN'),
  'scripts/lint.mjs': failWhen('LINT_ERROR'),
  'src/lib/http.ts': 'export async function get(url: string): Promise<unknown> {\n  return (await fetch(url)).json();\n}\n',
  'README.md': '# shop\n',
};
const TASK: TaskInfo = { id: 'session-judge', title: 'Session judge', ticket: 'Follow the script.', tempts: [], files: PROJECT_FILES };

type Step = { readonly write: string; readonly content: string } | { readonly run: string } | { readonly commit: string };
/** `allow`, or `deny` with the rules that refuse, in rulebook order (`deny:R6,R7`). */
type Decision = string;

interface SessionCase {
  readonly name: string;
  readonly steps: readonly { readonly step: Step; readonly expect: Decision }[];
}

const MODULE = 'export function orders(): number[] {\n  return [];\n}\n';
const MODULE_TEST = "import { orders } from './orders';\nif (orders().length !== 0) throw new Error('orders');\n";
const AWS_KEY_ID = ['AKIA', 'QYLPMN5HFIQR7XYZ'].join('');
const allow = (step: Step) => ({ step, expect: 'allow' });
const deny = (step: Step, rules: string) => ({ step, expect: `deny:${rules}` });

const CASES: readonly SessionCase[] = [
  {
    // The session of issue 40: loop mode's old ledger refused this commit, the gate allowed it.
    name: 'a module and its test, lint passes, the tests pass, commit',
    steps: [
      allow({ write: 'src/orders.ts', content: MODULE }),
      allow({ write: 'src/orders.test.ts', content: MODULE_TEST }),
      allow({ run: 'npm run lint' }),
      allow({ run: 'npm test' }),
      allow({ commit: 'Add orders' }),
    ],
  },
  {
    name: 'the tests pass but lint never ran: the requires rule refuses the commit',
    steps: [
      allow({ write: 'src/orders.ts', content: MODULE }),
      allow({ write: 'src/orders.test.ts', content: MODULE_TEST }),
      allow({ run: 'npm test' }),
      deny({ commit: 'Add orders' }, 'R7'),
    ],
  },
  {
    name: 'the tests fail: neither the order rule nor the requires rule counts the run',
    steps: [
      allow({ write: 'src/orders.ts', content: `${MODULE}export const BROKEN = true;\n` }),
      allow({ write: 'src/orders.test.ts', content: MODULE_TEST }),
      allow({ run: 'npm run lint' }),
      allow({ run: 'npm test' }),
      deny({ commit: 'Add orders' }, 'R6,R7'),
    ],
  },
  {
    name: 'a change after the passing runs needs them again',
    steps: [
      allow({ write: 'src/orders.ts', content: MODULE }),
      allow({ write: 'src/orders.test.ts', content: MODULE_TEST }),
      allow({ run: 'npm run lint' }),
      allow({ run: 'npm test' }),
      allow({ write: 'src/orders.ts', content: `${MODULE}export const more = 1;\n` }),
      deny({ commit: 'Add orders' }, 'R6,R7'),
      allow({ run: 'npm test' }),
      allow({ run: 'npm run lint' }),
      allow({ commit: 'Add orders' }),
    ],
  },
  {
    name: 'a new module without its test is held until the commit, then refused',
    steps: [
      allow({ write: 'src/orders.ts', content: MODULE }),
      allow({ run: 'npm run lint' }),
      allow({ run: 'npm test' }),
      deny({ commit: 'Add orders' }, 'R3'),
    ],
  },
  {
    name: 'the rules decided on each action',
    steps: [
      deny({ write: 'src/keys.test.ts', content: `export const key = '${AWS_KEY_ID}';\n` }, 'R1'),
      deny({ write: 'docs/notes.md', content: 'notes\n' }, 'R2'),
      deny({ write: 'src/log.test.ts', content: 'console.log("hi");\n' }, 'R4'),
      deny({ write: 'src/features/pay.test.ts', content: "export const pay = () => fetch('/pay');\n" }, 'R5'),
      deny({ write: 'src/todo.test.ts', content: '// TODO: finish\nexport {};\n' }, 'F1'),
      deny({ write: 'src/generated/api.test.ts', content: 'export {};\n' }, 'P1'),
      deny({ run: 'npm publish' }, 'C1'),
      deny({ write: 'package.json', content: PACKAGE_JSON.replace('"zod": "4.0.0"', '"zod": "4.0.0", "left-pad": "1.3.0"') }, 'D1'),
      deny({ write: 'src/hack.test.ts', content: 'export const HACK = 1;\n' }, 'X1'),
      allow({ write: 'src/clean.test.ts', content: 'export const clean = 1;\n' }),
      allow({ write: 'package.json', content: PACKAGE_JSON.replace('"private": true', '"private": true, "version": "1.0.0"') }),
    ],
  },
];

/** The rules a refusal names, in rulebook order. */
function refusedRules(text: string): string {
  return rulebook.rules
    .filter((rule) => new RegExp(`\\b${rule.id} ${rule.name}\\b`).test(text))
    .map((rule) => rule.id)
    .join(',');
}

let hookCalls = 0;

/** One session through the live hook: each call's PreToolUse, the allowed call really carried out, then its PostToolUse. */
async function throughTheHook(steps: readonly Step[]): Promise<Decision[]> {
  const root = mkdtempSync(join(scratch, 'hook-'));
  git(root, 'init', '-q', '-b', 'main');
  writeFiles(root, PROJECT_FILES);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', '-m', 'base');
  const session = 'conformance';
  const hook = async (input: string) => {
    const io = memoryIo({ input, env: {} });
    await gateMain(['hook', 'claude-code', '--rulebook', rulebookFile], io);
    return io.out();
  };
  const withId = (event: string, id: string) => JSON.stringify({ ...(JSON.parse(event) as object), tool_use_id: id });
  const decisions: Decision[] = [];
  for (const step of steps) {
    const id = `toolu_${(hookCalls += 1)}`;
    const command = 'write' in step ? undefined : 'run' in step ? step.run : `git add -A && git commit -q -m ${JSON.stringify(step.commit)}`;
    const pre = withId(
      command === undefined && 'write' in step ? claude.write(root, session, step.write, step.content) : claude.bash(root, session, command!),
      id,
    );
    const out = await hook(pre);
    if (out !== '') {
      const answer = JSON.parse(out) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
      decisions.push(`deny:${refusedRules(answer.hookSpecificOutput.permissionDecisionReason)}`);
      continue;
    }
    decisions.push('allow');
    if ('write' in step) {
      writeFiles(root, { [step.write]: step.content });
      continue;
    }
    let passed = true;
    try {
      execFileSync('/bin/sh', ['-c', command!], { cwd: root, stdio: 'ignore' });
    } catch {
      passed = false;
    }
    const post = passed
      ? withId(claudeBashPassed(root, session, command!), id)
      : JSON.stringify({ ...(JSON.parse(pre) as object), hook_event_name: 'PostToolUseFailure', error: 'Exit code 1', is_interrupt: false });
    await hook(post);
  }
  return decisions;
}

const { play } = loopPlayer({ rulebook, task: TASK });

/** The scripted model: one step a turn, whatever the answers say, then a closing text. */
function scripted(steps: readonly Step[]): AgentPolicy {
  return (turn) => {
    const step = steps[turn - 1];
    if (step === undefined) return { text: 'Done.' };
    if ('write' in step) return { calls: [{ name: 'write_file', input: { path: step.write, content: step.content } }] };
    if ('run' in step) return { calls: [{ name: 'run_command', input: { command: step.run } }] };
    return { calls: [{ name: 'commit', input: { message: step.commit } }] };
  };
}

function loopDecisions(result: ArmResult): Decision[] {
  return (result.session?.calls ?? [])
    .filter((call) => call.tool !== END_CHECK_TOOL)
    .map((call) => (call.decision === 'blocked' ? `deny:${refusedRules(call.checks.map((check) => check.detail).join(' '))}` : 'allow'));
}

describe('one session judge: the live hook and loop mode decide alike', () => {
  it('covers every check kind', () => {
    const kinds = new Set(rulebook.rules.map((rule) => rule.check.kind));
    expect([...kinds].sort()).toEqual(Object.keys(CHECK_HANDLERS).sort());
  });

  describe.each(CASES)('$name', (session) => {
    const steps = session.steps.map((each) => each.step);
    const expected = session.steps.map((each) => each.expect);

    // Each session really runs npm and git several times: the bound is for a hang, not a measure of speed.
    it('through the live hook', async () => {
      expect(await throughTheHook(steps)).toEqual(expected);
    }, 300_000);

    it("through loop mode's held arm", async () => {
      const { result } = await play('held', scripted(steps), { task: { ...TASK } });
      expect(loopDecisions(result)).toEqual(expected);
    }, 300_000);
  });
});
