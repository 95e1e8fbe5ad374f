import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateMain as main } from '../test-support/gate-main.js';
import { memoryIo } from '@holdfast/core/test-support';
import { defaultRulebookPath } from '@holdfast/core/rules';
import { sessionMirrorFolder, sessionStatePath } from '../state/session-state.js';
import { claude, claudeBashPassed, codex, codexBashPassed } from '../test-support/payloads.js';

/** A key id the secret rule recognises (built in pieces so this file does not hold one). */
const AWS_KEY_ID = ['AKIA', 'QYLPMN5HFIQR7XYZ'].join('');

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-gate-'));
  mkdirSync(join(root, 'src'), { recursive: true });
  return root;
}

async function hook(agent: string, input: string, env: NodeJS.ProcessEnv = {}) {
  const io = memoryIo({ input, env });
  const code = await main(['hook', agent, '--rulebook', defaultRulebookPath()], io);
  return { code, out: io.out(), err: io.err() };
}

function denial(out: string): string | undefined {
  if (out === '') return undefined;
  const parsed = JSON.parse(out) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  expect(parsed.hookSpecificOutput.permissionDecision).toBe('deny');
  return parsed.hookSpecificOutput.permissionDecisionReason;
}

function auditLines(root: string): { decision: string; rule: string | null; tool: string }[] {
  return readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('holdfast hook claude-code', () => {
  it('denies a console.log with the rule detail, and audits it', async () => {
    const root = project();
    const result = await hook('claude-code', claude.write(root, 's', 'src/orders.test.ts', 'console.log("hi");\n'));
    expect(result.code).toBe(0);
    expect(denial(result.out)).toMatch(/R4 NOLOG/);
    expect(auditLines(root)).toMatchObject([{ decision: 'deny', rule: 'R4', tool: 'Write' }]);
  });

  it('denies a write outside src/, judged relative to the project root', async () => {
    const root = project();
    expect(denial((await hook('claude-code', claude.write(root, 's', 'docs/notes.md', 'hello\n'))).out)).toMatch(/R2 SCOPE.*docs\/notes\.md/);
    expect(denial((await hook('claude-code', claude.write(root, 's', '../elsewhere/src/a.ts', 'x\n'))).out)).toMatch(/R2 SCOPE/);
  });

  it('allows a clean write silently', async () => {
    const root = project();
    const result = await hook('claude-code', claude.write(root, 's', 'src/orders.test.ts', 'export {};\n'));
    expect(result).toEqual({ code: 0, out: '', err: '' });
    expect(auditLines(root)).toMatchObject([{ decision: 'allow', rule: null }]);
  });

  it('judges an Edit by the content it leaves on disk', async () => {
    const root = project();
    writeFileSync(join(root, 'src', 'cart.ts'), 'export const total = 1;\n');
    expect(denial((await hook('claude-code', claude.edit(root, 's', 'src/cart.ts', 'total = 1', 'total = 1; console.log(total)'))).out)).toMatch(/R4 NOLOG/);
    expect((await hook('claude-code', claude.edit(root, 's', 'src/cart.ts', 'total = 1', 'total = 2'))).out).toBe('');
  });

  it('judges MultiEdit edits in sequence and NotebookEdit cell sources', async () => {
    const root = project();
    writeFileSync(join(root, 'src', 'cart.ts'), 'const a = 1;\n');
    const edits = [
      { old_string: 'const a = 1;', new_string: 'const a = 2;' },
      { old_string: 'const a = 2;', new_string: 'const a = 2; console.log(a);' },
    ];
    expect(denial((await hook('claude-code', claude.multiEdit(root, 's', 'src/cart.ts', edits))).out)).toMatch(/R4 NOLOG/);
    expect(denial((await hook('claude-code', claude.notebookEdit(root, 's', 'notebooks/a.ipynb', 'x = 1'))).out)).toMatch(/R2 SCOPE/);
  });

  it('lets tools it does not judge through without an audit line', async () => {
    const root = project();
    expect(await hook('claude-code', claude.read(root, 's', 'README.md'))).toEqual({ code: 0, out: '', err: '' });
  });

  it.each([['git commit --no-verify -m x'], ['git commit -n -m x'], ['git -c core.hooksPath=/dev/null commit -m x']])(
    'denies %s as a bypass of the git gate',
    async (command) => {
      const root = project();
      expect(denial((await hook('claude-code', claude.bash(root, 's', command))).out)).toMatch(
        /GATE BYPASS: `git [^`]+` (skips the pre-commit and commit-msg hooks|points git at a different hooks folder)/,
      );
    },
  );

  it.each([
    ["printf 'export const y = 1;\\nconsole.log(y);\\n' > src/y.test.ts", /R4 NOLOG/],
    [`echo '{"aws":"${AWS_KEY_ID}"}' > src/keys.test.ts`, /R1 SECRET/],
    [`cat > src/key.test.ts <<EOF\nexport const key = '${AWS_KEY_ID}';\nEOF`, /R1 SECRET/],
    ['echo hi > ../outside.txt', /R2 SCOPE/],
    ["bash -c 'git add -A && git commit -qm x'", /R6 ORDER/],
    ["sh -c 'git commit -n -m x'", /skips the pre-commit/],
    ['(cd src && git commit --no-veri -m x)', /skips the pre-commit/],
    ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/dev/null git commit -m x', /different hooks folder/],
  ])('judges what the Bash command %j does', async (command, reason) => {
    const root = project();
    expect(denial((await hook('claude-code', claude.bash(root, 's', command))).out)).toMatch(reason);
  });

  it('keeps R3 and R6 across tool calls of one session', async () => {
    const root = project();
    const session = 'session-r3-r6';
    const module = 'export function orders(): number[] {\n  return [];\n}\n';
    // A new module is not refused for its missing test at the write: R3 is judged at the commit and the turn's end.
    expect((await hook('claude-code', claude.write(root, session, 'src/orders.ts', module))).out).toBe('');
    writeFileSync(join(root, 'src', 'orders.ts'), module);
    expect((await hook('claude-code', claude.write(root, session, 'src/orders.test.ts', 'import { orders } from "./orders";\n'))).out).toBe('');
    writeFileSync(join(root, 'src', 'orders.test.ts'), 'import { orders } from "./orders";\n');
    expect((await hook('claude-code', claude.bash(root, session, 'npm test'))).out).toBe('');
    await hook('claude-code', claudeBashPassed(root, session, 'npm test'));
    expect((await hook('claude-code', claude.bash(root, session, 'git add -A && git commit -m "orders"'))).out).toBe('');
    // A write after the last test run, then a commit: refused by R6.
    expect((await hook('claude-code', claude.edit(root, session, 'src/orders.ts', 'return [];', 'return [1];'))).out).toBe('');
    expect(denial((await hook('claude-code', claude.bash(root, session, 'git commit -am "more"'))).out)).toMatch(/R6 ORDER/);
    // Another session has its own state: its commit has no test run either.
    expect(denial((await hook('claude-code', claude.bash(root, 'other', 'git commit -m x'))).out)).toMatch(/R6 ORDER/);
  });

  it('counts a test run for R6 only when it did not fail: Claude Code PostToolUseFailure, Codex by its session log', async () => {
    const root = project();
    const after = (pre: string, event: string, fields: Record<string, unknown>) =>
      JSON.stringify({ ...(JSON.parse(pre) as object), hook_event_name: event, ...fields });
    const testRun = claude.bash(root, 'cc', 'npm test');
    expect((await hook('claude-code', testRun)).out).toBe('');
    await hook('claude-code', after(testRun, 'PostToolUseFailure', { error: 'Exit code 1\n1 test failed', is_interrupt: false }));
    expect(denial((await hook('claude-code', claude.bash(root, 'cc', 'git commit -m x'))).out)).toMatch(/R6 ORDER.*did not pass: exit code 1/);
    expect((await hook('claude-code', testRun)).out).toBe('');
    await hook('claude-code', after(testRun, 'PostToolUse', { tool_response: { stdout: 'ok', stderr: '', interrupted: false } }));
    expect((await hook('claude-code', claude.bash(root, 'cc', 'git commit -m x'))).out).toBe('');

    // Codex tells its hooks no exit status; its session log has it (the record's shape as recorded from Codex 0.171.0).
    const log = join(root, 'rollout.jsonl');
    const completed = (id: string, exitCode: number) =>
      `${JSON.stringify({ type: 'event_msg', payload: { type: 'item_completed', item: { type: 'CommandExecution', id, command: ['/bin/bash', '-lc', 'npm test'], status: exitCode === 0 ? 'completed' : 'failed', exit_code: exitCode } } })}\n`;
    const codexRun = (id: string) => JSON.stringify({ ...(JSON.parse(codex.bash(root, 'cx', 'npm test')) as object), tool_use_id: id, transcript_path: log });
    const codexAfter = (id: string) => after(codexRun(id), 'PostToolUse', { tool_response: 'output' });
    const codexCommit = async () => (await hook('codex', codex.bash(root, 'cx', 'git commit -m x'))).err;
    writeFileSync(log, completed('call_1', 1));
    expect((await hook('codex', codexRun('call_1'))).code).toBe(0);
    await hook('codex', codexAfter('call_1'));
    expect(await codexCommit()).toMatch(/R6 ORDER.*did not pass: exit code 1/);
    expect((await hook('codex', codexRun('call_2'))).code).toBe(0);
    await hook('codex', codexAfter('call_2'));
    expect(await codexCommit()).toMatch(/R6 ORDER.*did not pass: its exit status is not in Codex's session log/);
    writeFileSync(log, completed('call_3', 0), { flag: 'a' });
    expect((await hook('codex', codexRun('call_3'))).code).toBe(0);
    await hook('codex', codexAfter('call_3'));
    expect(await codexCommit()).toBe('');
  });

  it('records a snapshot for a shell call only when the call goes ahead', async () => {
    const root = project();
    const calls = join(root, '.holdfast', 'snapshots.git', 'calls');
    expect(denial((await hook('claude-code', claude.bash(root, 'snap', 'npm run build && git commit -m x'))).out)).toMatch(/R6 ORDER/);
    expect(existsSync(calls) ? readdirSync(calls) : []).toEqual([]);
    expect((await hook('claude-code', claude.bash(root, 'snap', 'npm run build'))).out).toBe('');
    expect(readdirSync(calls)).toEqual(['t-toolu_Bash_01.index', 't-toolu_Bash_01.json']);
  });

  it('puts back a session record a command corrupted from its mirror, and without the mirror counts tests as not run', async () => {
    const root = project();
    expect((await hook('claude-code', claude.bash(root, 'c', 'npm test'))).out).toBe('');
    await hook('claude-code', claudeBashPassed(root, 'c', 'npm test'));
    writeFileSync(sessionStatePath(root, 'c'), '{"version":1,"created":[');
    expect((await hook('claude-code', claude.bash(root, 'c', 'git commit -m x'))).out).toBe('');
    expect(readFileSync(sessionStatePath(root, 'c'), 'utf8')).toContain('npm test');
    rmSync(join(sessionMirrorFolder(root), 'c.json'));
    writeFileSync(sessionStatePath(root, 'c'), JSON.stringify({ version: 1, created: [], runs: [{ cmd: 'npm test' }] }));
    const reason = denial((await hook('claude-code', claude.bash(root, 'c', 'git commit -m x'))).out);
    expect(reason).toMatch(/R6 ORDER/);
    expect(reason).toMatch(/not one the gate wrote/);
  });

  it('fails closed on a hook event it cannot read', async () => {
    const result = await hook('claude-code', 'not json');
    expect(result.code).toBe(0);
    expect(denial(result.out)).toMatch(/holdfast internal error \[E_HOOK_PAYLOAD\].*fails closed/);
  });

  it('fails closed when the rulebook cannot be loaded, and audits the refusal', async () => {
    const root = project();
    const io = memoryIo({ input: claude.write(root, 's', 'src/a.test.ts', 'export {};\n') });
    expect(await main(['hook', 'claude-code', '--rulebook', 'missing.yaml'], io)).toBe(0);
    expect(denial(io.out())).toMatch(/holdfast internal error \[E_RULEBOOK_READ\]/);
    expect(auditLines(root)).toMatchObject([{ decision: 'deny', rule: 'INTERNAL' }]);
  });

  it('has no off switch: HOLDFAST_GATE=off changes nothing', async () => {
    const root = project();
    const reason = denial((await hook('claude-code', claude.write(root, 's', 'docs/a.md', 'x'), { HOLDFAST_GATE: 'off' })).out);
    expect(reason).toMatch(/R2 SCOPE/);
    expect(auditLines(root)).toMatchObject([{ decision: 'deny', rule: 'R2' }]);
  });
});

describe('holdfast hook codex', () => {
  it('denies an apply_patch that adds a console.log with exit 2 and a non-empty stderr', async () => {
    const root = project();
    const patch = '*** Begin Patch\n*** Add File: src/a.test.ts\n+console.log(1);\n*** End Patch\n';
    const result = await hook('codex', codex.applyPatch(root, 's', patch));
    expect(result.code).toBe(2);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/R4 NOLOG/);
  });

  it('judges an Update File by applying its hunks to the file on disk', async () => {
    const root = project();
    writeFileSync(join(root, 'src', 'cart.ts'), 'const a = 1;\nconst b = 2;\n');
    const clean = '*** Begin Patch\n*** Update File: src/cart.ts\n@@\n const a = 1;\n-const b = 2;\n+const b = 3;\n*** End Patch\n';
    expect(await hook('codex', codex.applyPatch(root, 's', clean))).toEqual({ code: 0, out: '', err: '' });
    const moved = '*** Begin Patch\n*** Update File: src/cart.ts\n*** Move to: lib/cart.ts\n@@\n-const b = 2;\n+const b = 3;\n*** End Patch\n';
    expect((await hook('codex', codex.applyPatch(root, 's', moved))).err).toMatch(/R2 SCOPE.*lib\/cart\.ts/);
  });

  it('reads shell commands, argv form included, and refuses a commit without a test run', async () => {
    const root = project();
    expect((await hook('codex', codex.bash(root, 's', 'git commit -m x'))).code).toBe(2);
    expect(await hook('codex', codex.bash(root, 't', ['bash', '-lc', 'npm test']))).toEqual({ code: 0, out: '', err: '' });
    await hook('codex', codexBashPassed(root, 't', ['bash', '-lc', 'npm test'], join(mkdtempSync(join(tmpdir(), 'codex-log-')), 'rollout.jsonl')));
    const committed = await hook('codex', codex.bash(root, 't', ['bash', '-lc', 'git commit -m x']));
    expect(committed.code, committed.err + readFileSync(join(root, '.holdfast', 'sessions', 't.json'), 'utf8')).toBe(0);
  });

  it('fails closed with exit 2 on an unreadable event', async () => {
    const result = await hook('codex', '{}');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/internal error/);
  });
});

describe('the after-the-fact check of a Claude Code Bash call', () => {
  function after(root: string, command: string): string {
    const event = JSON.parse(claude.bash(root, 's', command)) as Record<string, unknown>;
    return JSON.stringify({ ...event, hook_event_name: 'PostToolUse', tool_response: { stdout: '', stderr: '', interrupted: false } });
  }

  it('takes no snapshot for a read-only command, its PostToolUse stays silent, and a later command is still snapshotted', async () => {
    const root = project();
    expect((await hook('claude-code', claude.bash(root, 's', 'git status --short && ls src | head -5'))).out).toBe('');
    const calls = readdirSync(join(root, '.holdfast', 'snapshots.git', 'calls'));
    // Each record is sealed: its first line is the seal (state-seal.ts), the rest the record.
    const record = (name: string) => readFileSync(join(root, '.holdfast', 'snapshots.git', 'calls', name), 'utf8').replace(/^[0-9a-f]{64}\n/, '');
    expect(calls.map((name) => JSON.parse(record(name)) as { readOnly?: boolean })).toEqual([expect.objectContaining({ readOnly: true })]);
    expect(await hook('claude-code', after(root, 'git status --short && ls src | head -5'))).toEqual({ code: 0, out: '', err: '' });
    expect((await hook('claude-code', claude.bash(root, 's', 'node scripts/gen.js'))).out).toBe('');
    writeFileSync(join(root, 'src', 'generated.test.ts'), 'console.log("made by the script");\n');
    expect(JSON.parse((await hook('claude-code', after(root, 'node scripts/gen.js'))).out)).toMatchObject({
      decision: 'block',
      reason: expect.stringMatching(/R4 NOLOG/),
    });
  });

  it('snapshots a command whose effects are unknown, and puts back the console.log it wrote', async () => {
    const root = project();
    const command = 'node scripts/gen.js';
    expect((await hook('claude-code', claude.bash(root, 's', command))).out).toBe('');
    expect(existsSync(join(root, '.holdfast', 'snapshots.git', 'objects'))).toBe(true);
    writeFileSync(join(root, 'src', 'generated.test.ts'), 'console.log("made by the script");\n');
    const answer = await hook('claude-code', after(root, command));
    expect(JSON.parse(answer.out)).toMatchObject({ decision: 'block', reason: expect.stringMatching(/R4 NOLOG/) });
    expect(existsSync(join(root, 'src', 'generated.test.ts'))).toBe(false);
  });
});
