import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grantAllowance, allowancePath } from '../state/allowance.js';
import type { AuditEntry } from '../decide/audit.js';
import type { HookAnswer } from '../decide/hook-answer.js';
import { loadRulesEngine } from '../decide/rules-engine.js';
import { answerAgentHook } from './run-hook.js';
import type { AgentHook, HookOptions } from './run-hook.js';
import { loadSessionState, sessionMirrorFolder } from '../state/session-state.js';
import { claude, claudeBashPassed, claudeEvent, codex } from '../test-support/payloads.js';

// Built at run time so the repository never holds a literal that secret scanners flag.
const awsKeyId = ['AKIA', 'QYLPMN5HFIQR7XYZ'].join('');
const stripeKey = ['sk_live_', '4eC39HqLyjWDarjtT1zdp7dc'].join('');
const password = ['Zt9', 'kLm2Qw8', 'vX4pRn7'].join('');

const T0 = new Date('2026-11-30T12:00:00.000Z');

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-runtime-'));
  mkdirSync(join(root, 'src', 'features'), { recursive: true });
  return root;
}

/** Every answer the tests saw, to check afterwards that none names an off switch. */
const answers: HookAnswer[] = [];

async function hook(agent: AgentHook, input: string, options: Partial<HookOptions> = {}): Promise<HookAnswer> {
  const answer = await answerAgentHook(agent, input, {
    env: {},
    now: () => T0,
    rulebookFile: undefined,
    loadEngine: loadRulesEngine,
    caseInsensitive: false,
    ...options,
  });
  answers.push(answer);
  return answer;
}

function denial(answer: HookAnswer): string | undefined {
  if (answer.stdout === '') return undefined;
  const parsed = JSON.parse(answer.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  expect(parsed.hookSpecificOutput.permissionDecision).toBe('deny');
  return parsed.hookSpecificOutput.permissionDecisionReason;
}

function stopBlock(answer: HookAnswer): string | undefined {
  if (answer.stdout === '') return undefined;
  const parsed = JSON.parse(answer.stdout) as { decision: string; reason: string };
  expect(parsed.decision).toBe('block');
  expect(answer.exitCode).toBe(0);
  return parsed.reason;
}

function auditLog(root: string): AuditEntry[] {
  const path = join(root, '.holdfast', 'audit.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditEntry);
}

function stopEvent(root: string, session: string, active = false): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: null,
    cwd: root,
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: active,
    last_assistant_message: 'done',
  });
}

const MODULE = 'export function refunds(): number[] {\n  return [];\n}\n';

describe('one denial names every broken rule', () => {
  it('lists R1, R4 and R5 of one write together (Claude Code), and audits every rule id', async () => {
    const root = project();
    const content = `const apiKey = "${password}";\nexport async function load() {\n  console.log(apiKey);\n  return fetch('/api');\n}\n`;
    const reason = denial(await hook('claude-code', claude.write(root, 's', 'src/features/load.test.ts', content)));
    expect(reason).toMatch(/breaks 3 rules/);
    expect(reason).toMatch(/- R1 SECRET: .*\n- R4 NOLOG: .*\n- R5 HTTP: /);
    expect(reason).not.toContain(password);
    expect(auditLog(root)).toMatchObject([{ decision: 'deny', rule: 'R1', rules: ['R1', 'R4', 'R5'] }]);
  });

  it('lists scope and tampering together for a write into .claude/ (Codex, exit 2)', async () => {
    const root = project();
    const patch = '*** Begin Patch\n*** Add File: .claude/settings.json\n+{"disableAllHooks": true}\n*** End Patch\n';
    const answer = await hook('codex', codex.applyPatch(root, 's', patch));
    expect(answer.exitCode).toBe(2);
    expect(answer.stderr).toMatch(/GATE TAMPER: .*\.claude\/settings\.json/);
    expect(answer.stderr).toMatch(/R2 SCOPE/);
  });

  it('lists every bypass and every broken rule of one shell command', async () => {
    const root = project();
    const reason = denial(await hook('claude-code', claude.bash(root, 's', 'git -c core.hooksPath=/dev/null commit --no-verify -m x')));
    expect(reason).toMatch(/GATE BYPASS/);
    expect(reason).toMatch(/R6 ORDER/);
  });
});

describe('R3 over the session', () => {
  it('lets a module land before its test, sends the agent back at the end of the turn, and lets it stop once the test exists', async () => {
    const root = project();
    expect(await hook('claude-code', claude.write(root, 'turn', 'src/features/refunds.ts', MODULE))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    writeFileSync(join(root, 'src', 'features', 'refunds.ts'), MODULE);
    expect(auditLog(root).at(-1)?.detail).toMatch(/Pending until the commit or the end of the turn: R3 TESTS/);
    const reason = stopBlock(await hook('claude-code', stopEvent(root, 'turn')));
    expect(reason).toMatch(/R3 TESTS: write to "src\/features\/refunds\.ts" creates a new module with no test; write "src\/features\/refunds\.test\.ts"/);
    expect(auditLog(root).at(-1)).toMatchObject({ event: 'Stop', decision: 'deny', rule: 'R3' });
    expect(await hook('claude-code', claude.write(root, 'turn', 'src/features/refunds.test.ts', 'import "./refunds";\n'))).toMatchObject({ stdout: '' });
    writeFileSync(join(root, 'src', 'features', 'refunds.test.ts'), 'import "./refunds";\n');
    expect(await hook('claude-code', stopEvent(root, 'turn', true))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('refuses the commit of a session whose new module has no test, and allows it once the test is written', async () => {
    const root = project();
    await hook('claude-code', claude.write(root, 'c', 'src/features/refunds.ts', MODULE));
    writeFileSync(join(root, 'src', 'features', 'refunds.ts'), MODULE);
    await hook('claude-code', claude.bash(root, 'c', 'npm test'));
    await hook('claude-code', claudeBashPassed(root, 'c', 'npm test'));
    const reason = denial(await hook('claude-code', claude.bash(root, 'c', 'git add -A && git commit -m refunds')));
    expect(reason).toMatch(/R3 TESTS: write to "src\/features\/refunds\.ts" creates a new module with no test.*committing without it/);
    await hook('claude-code', claude.write(root, 'c', 'src/features/refunds.test.ts', 'import "./refunds";\n'));
    await hook('claude-code', claude.bash(root, 'c', 'npm test'));
    await hook('claude-code', claudeBashPassed(root, 'c', 'npm test'));
    expect((await hook('claude-code', claude.bash(root, 'c', 'git add -A && git commit -m refunds'))).stdout).toBe('');
    expect(loadSessionState(root, 'c').state.created).toEqual([]);
  });

  it('forgets a module the session deletes again, whichever agent deletes it', async () => {
    const root = project();
    await hook('claude-code', claude.write(root, 'd', 'src/features/tmp.ts', MODULE));
    expect(stopBlock(await hook('claude-code', stopEvent(root, 'd')))).toMatch(/tmp\.ts/);
    const patch = '*** Begin Patch\n*** Delete File: src/features/tmp.ts\n*** End Patch\n';
    expect((await hook('codex', codex.applyPatch(root, 'd', patch))).exitCode).toBe(0);
    expect(await hook('codex', stopEvent(root, 'd'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('counts a test that existed before and the session edits as written in the same change', async () => {
    const root = project();
    writeFileSync(join(root, 'src', 'features', 'refunds.test.ts'), 'export {};\n');
    await hook('claude-code', claude.write(root, 'e', 'src/features/refunds.ts', MODULE));
    writeFileSync(join(root, 'src', 'features', 'refunds.ts'), MODULE);
    expect(stopBlock(await hook('claude-code', stopEvent(root, 'e')))).toMatch(/refunds\.test\.ts/);
    await hook('claude-code', claude.edit(root, 'e', 'src/features/refunds.test.ts', 'export {};', 'import "./refunds";'));
    expect(await hook('claude-code', stopEvent(root, 'e'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('answers Codex Stop with the same JSON block', async () => {
    const root = project();
    await hook('codex', codex.applyPatch(root, 'x', '*** Begin Patch\n*** Add File: src/features/a.ts\n+export const a = 1;\n*** End Patch\n'));
    expect(stopBlock(await hook('codex', stopEvent(root, 'x')))).toMatch(/src\/features\/a\.test\.ts/);
  });

  it('lets a turn with nothing pending end without loading anything or writing the audit log', async () => {
    const root = project();
    expect(await hook('claude-code', stopEvent(root, 'nothing'), { loadEngine: () => Promise.reject(new Error('not needed')) })).toEqual({
      stdout: '',
      stderr: '',
      exitCode: 0,
    });
    expect(auditLog(root)).toEqual([]);
  });

  it('passes events it does not judge', async () => {
    const root = project();
    const start = JSON.stringify({ session_id: 's', cwd: root, hook_event_name: 'SessionStart', source: 'startup' });
    expect(await hook('claude-code', start)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});

describe('tampering', () => {
  const home = mkdtempSync(join(tmpdir(), 'holdfast-home-'));

  it.each([
    '.claude/settings.json',
    '.claude/settings.local.json',
    '.codex/hooks.json',
    '.git/hooks/pre-commit',
    '.git/config',
    '.holdfast/allow.json',
    '.holdfast/sessions/s.json',
    'src/rules.yaml',
    'src/hooks-link/pre-commit',
    'src/up/.holdfast/allow.json',
  ])('refuses a Write to %s as GATE TAMPER', async (path) => {
    const root = project();
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, 'src', 'rules.yaml'), readFileSync(new URL('../../../../rulebooks/default.yaml', import.meta.url)));
    symlinkSync('../.git/hooks', join(root, 'src', 'hooks-link'));
    symlinkSync('..', join(root, 'src', 'up'));
    const reason = denial(await hook('claude-code', claude.write(root, 's', path, '{}\n'), { rulebookFile: 'src/rules.yaml', env: { HOME: home } }));
    expect(reason).toMatch(/GATE TAMPER/);
    expect(reason).not.toMatch(/HOLDFAST_GATE|bypass the gate/i);
  });

  it('refuses an Edit of .git/config, a Codex delete of the pre-commit hook, and a write to the user-level Claude settings', async () => {
    const root = project();
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[core]\n\tbare = false\n');
    const edit = denial(await hook('claude-code', claude.edit(root, 's', '.git/config', '[core]', '[core]\n\thooksPath = /dev/null')));
    expect(edit).toMatch(/GATE TAMPER: write to "\.git\/config" would change git's configuration/);
    const removal = await hook('codex', codex.applyPatch(root, 's', '*** Begin Patch\n*** Delete File: .git/hooks/pre-commit\n*** End Patch\n'));
    expect(removal.stderr).toMatch(/GATE TAMPER: delete to "\.git\/hooks\/pre-commit"/);
    const user = denial(
      await hook('claude-code', claudeEvent(root, 's', 'Write', { file_path: join(home, '.claude', 'settings.json'), content: '{}' }), { env: { HOME: home } }),
    );
    expect(user).toMatch(/GATE TAMPER: .*Claude Code's user settings/);
  });

  it("refuses the agent running the person's override", async () => {
    const root = project();
    for (const command of ['holdfast allow --once', 'npx holdfast allow --once --rule R2', `script -qc "node bin/holdfast.js allow --once" /dev/null`]) {
      expect(denial(await hook('claude-code', claude.bash(root, 's', command)))).toMatch(/GATE BYPASS: `holdfast allow` is an override for the person/);
    }
  });
});

// Shell commands are read as file changes by the shell analysis (shell/shell-command.ts); until it
// reports redirections as writes, these cases have nothing to judge and are skipped.
const probeRoot = project();
await answerAgentHook('claude-code', claude.bash(probeRoot, 'probe', 'echo x > src/probe.txt'), {
  env: {},
  now: () => T0,
  rulebookFile: undefined,
  loadEngine: loadRulesEngine,
});
const shellWritesKnown = auditLog(probeRoot).some((entry) => entry.action.includes('write src/probe.txt'));

describe.runIf(shellWritesKnown)('tampering through the shell', () => {
  it.each([
    'echo \'{"disableAllHooks":true}\' > .claude/settings.json',
    'rm .git/hooks/pre-commit',
    'rm -rf .holdfast',
    'printf x >> .git/config',
    'cp /dev/null .codex/hooks.json',
  ])('refuses %s as GATE TAMPER', async (command) => {
    const root = project();
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\n');
    expect(denial(await hook('claude-code', claude.bash(root, 's', command)))).toMatch(/GATE TAMPER/);
  });
});

describe('symlinks', () => {
  it('refuses a Write through src/up -> .. as a write to package.json, and says where it lands', async () => {
    const root = project();
    symlinkSync('..', join(root, 'src', 'up'));
    const reason = denial(await hook('claude-code', claude.write(root, 's', 'src/up/package.json', '{}\n')));
    expect(reason).toMatch(/R2 SCOPE: write to "package\.json" is outside the allowed paths/);
    expect(reason).toMatch(/"src\/up\/package\.json" is "package\.json" on disk/);
  });

  it('refuses a write through a link that leaves the project', async () => {
    const root = project();
    const outside = mkdtempSync(join(tmpdir(), 'holdfast-outside-'));
    symlinkSync(outside, join(root, 'src', 'away'));
    const answer = await hook('codex', codex.applyPatch(root, 's', '*** Begin Patch\n*** Add File: src/away/a.ts\n+export {};\n*** End Patch\n'));
    expect(answer.stderr).toMatch(/R2 SCOPE: write to "\.\.\/.*a\.ts" is refused: the path climbs out of the repository/);
  });
});

describe('holdfast allow --once, as the agent hook sees it', () => {
  const clean = (root: string) => claude.write(root, 's', 'docs/notes.md', 'hello\n');

  it('lets the next refused call through once, audited with the reason, then refuses again', async () => {
    const root = project();
    grantAllowance(root, { rule: undefined, reason: 'docs are fine this once', now: T0 });
    expect(await hook('claude-code', clean(root), { now: () => new Date(T0.getTime() + 60_000) })).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(existsSync(allowancePath(root))).toBe(false);
    expect(auditLog(root)).toMatchObject([{ decision: 'allowed-by-person', rule: 'R2', reason: 'docs are fine this once' }]);
    expect(denial(await hook('claude-code', clean(root)))).toMatch(/R2 SCOPE/);
  });

  it('is not used by a call the gate allows anyway', async () => {
    const root = project();
    grantAllowance(root, { rule: undefined, reason: 'r', now: T0 });
    expect((await hook('claude-code', claude.write(root, 's', 'src/a.test.ts', 'export {};\n'))).stdout).toBe('');
    expect(existsSync(allowancePath(root))).toBe(true);
  });

  it('expires after 10 minutes on the gate clock', async () => {
    const root = project();
    grantAllowance(root, { rule: undefined, reason: 'r', now: T0 });
    expect(denial(await hook('claude-code', clean(root), { now: () => new Date(T0.getTime() + 10 * 60_000) }))).toMatch(/R2 SCOPE/);
    expect(existsSync(allowancePath(root))).toBe(false);
  });

  it('covers only its rule: a call that breaks another one is refused and the allowance kept', async () => {
    const root = project();
    grantAllowance(root, { rule: 'R4', reason: 'r', now: T0 });
    expect(denial(await hook('claude-code', clean(root)))).toMatch(/R2 SCOPE/);
    expect(existsSync(allowancePath(root))).toBe(true);
    expect((await hook('claude-code', claude.write(root, 's', 'src/a.test.ts', 'console.log(1);\n'))).stdout).toBe('');
    expect(auditLog(root).at(-1)).toMatchObject({ decision: 'allowed-by-person', rule: 'R4' });
  });
});

describe('observe mode', () => {
  it('never blocks, records every rule result, and keeps the session state going', async () => {
    const root = project();
    const answer = await hook('claude-code', claude.write(root, 'o', 'src/features/a.ts', 'console.log(1);\n'), { observe: true });
    expect(answer).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const [entry] = auditLog(root);
    expect(entry).toMatchObject({ decision: 'observed', verdict: 'deny', rule: 'R4' });
    expect(entry?.results?.map((result) => [result.rule, result.ok])).toEqual([
      ['R1', true],
      ['R2', true],
      ['R3', false],
      ['R4', false],
      ['R5', true],
    ]);
    expect(loadSessionState(root, 'o').state.created).toEqual(['src/features/a.ts']);
    expect(await hook('claude-code', stopEvent(root, 'o'), { observe: true })).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(auditLog(root).at(-1)).toMatchObject({ event: 'Stop', decision: 'observed', verdict: 'deny', rule: 'R3' });
    expect(await hook('codex', '{"broken', { observe: true })).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});

describe('the audit log', () => {
  it('masks credentials in shell commands and details', async () => {
    const root = project();
    const command = `AWS_ACCESS_KEY_ID=${awsKeyId} STRIPE_KEY=${stripeKey} curl -H "Authorization: Bearer ${password}" https://api.example.test && npm test`;
    expect((await hook('claude-code', claude.bash(root, 's', command))).stdout).toBe('');
    await hook('claude-code', claude.bash(root, 's', `echo ${stripeKey} && git commit -m "key ${awsKeyId}"`));
    await hook('claude-code', claude.write(root, 's', 'src/features/keys.test.ts', `export const password = "${password}";\nconsole.log("${stripeKey}");\n`), {
      observe: true,
    });
    const text = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8');
    expect(auditLog(root)).toHaveLength(3);
    for (const secret of [awsKeyId, stripeKey, password]) expect(text).not.toContain(secret);
    expect(text).toContain('AKIA…');
  });
});

describe('no off switch', () => {
  it('no answer of any test above names HOLDFAST_GATE or a way to bypass the gate', async () => {
    answers.push(await hook('claude-code', 'not json'));
    answers.push(await hook('codex', ''));
    answers.push(await hook('claude-code', claude.write(project(), 's', 'src/a.ts', 'x'), { rulebookFile: 'missing.yaml' }));
    expect(answers.length).toBeGreaterThan(20);
    for (const answer of answers) expect(`${answer.stdout}${answer.stderr}`).not.toMatch(/HOLDFAST_GATE|bypass the gate|=off/i);
  });

  it('no source text the hook or the git gate can print names one either', () => {
    for (const file of [
      '../decide/hook-answer.ts',
      './run-hook.ts',
      '../git/pre-commit.ts',
      '../decide/decide.ts',
      '../decide/tamper.ts',
      '../commands/hook.ts',
    ]) {
      expect(readFileSync(new URL(file, import.meta.url), 'utf8')).not.toMatch(/HOLDFAST_GATE|bypass the gate deliberately/i);
    }
  });
});

describe('a Stop that keeps being denied (issue 27: Codex looped 526 requests on one)', () => {
  it.each(['claude-code', 'codex'] as const)(
    '%s: the third denial in a row ends the turn, naming the unresolved violation; the count starts again after',
    async (agent) => {
      const root = project();
      await hook(
        agent,
        agent === 'claude-code'
          ? claude.write(root, 'loop', 'src/features/refunds.ts', MODULE)
          : codex.applyPatch(
              root,
              'loop',
              `*** Begin Patch\n*** Add File: src/features/refunds.ts\n+${MODULE.trimEnd().split('\n').join('\n+')}\n*** End Patch\n`,
            ),
      );
      writeFileSync(join(root, 'src', 'features', 'refunds.ts'), MODULE);
      expect(stopBlock(await hook(agent, stopEvent(root, 'loop')))).toMatch(/R3 TESTS/);
      expect(stopBlock(await hook(agent, stopEvent(root, 'loop', true)))).toMatch(/R3 TESTS/);
      const third = await hook(agent, stopEvent(root, 'loop', true));
      expect(third.exitCode).toBe(0);
      const ended = JSON.parse(third.stdout) as { continue: boolean; stopReason: string; decision?: string };
      expect(ended.continue).toBe(false);
      expect(ended.decision).toBeUndefined();
      expect(ended.stopReason).toMatch(/R3 TESTS: write to "src\/features\/refunds\.ts"[\s\S]*ends unresolved after 3 refusals/);
      // A new turn gets its tries again.
      expect(stopBlock(await hook(agent, stopEvent(root, 'loop')))).toMatch(/R3 TESTS/);
    },
  );
});

describe('a shell call whose check never finished (issue 46)', () => {
  /** The call's PreToolUse, then the command itself (a real shell); its PostToolUse never comes (its hook was killed). */
  async function interrupted(root: string, session: string, id: string, script: string): Promise<void> {
    const pre = JSON.parse(claude.bash(root, session, 'node scripts/gen.mjs')) as Record<string, unknown>;
    expect(await hook('claude-code', JSON.stringify({ ...pre, tool_use_id: id }))).toMatchObject({ stdout: '' });
    execFileSync('sh', ['-c', script], { cwd: root });
  }

  it('is judged before the turn may end: Stop puts its violation back and holds the turn', async () => {
    const root = project();
    await interrupted(root, 'k', 'toolu_gen', `printf 'console.log(1);\\n' > src/features/gen.ts`);
    const reason = stopBlock(await hook('claude-code', stopEvent(root, 'k')));
    expect(reason).toMatch(/check after an earlier command of this session did not finish/);
    expect(reason).toMatch(/src\/features\/gen\.ts: deleted \(the command created it\)\. R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'features', 'gen.ts'))).toBe(false);
    // Judged once: the next Stop has nothing left to finish.
    expect(await hook('claude-code', stopEvent(root, 'k', true))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it("is judged at the session's next call once its checking process is gone, and that call is refused until it is run again", async () => {
    const root = project();
    await interrupted(root, 'k', 'toolu_gen', `printf 'console.log(1);\\n' > src/features/gen.ts`);
    // The call's PostToolUse started its check (its mark), then was killed: the mark names a process that is gone.
    const gone = spawnSync('true').pid;
    const calls = join(sessionMirrorFolder(root), 'calls');
    const record = readdirSync(calls).find((name) => name.endsWith('.json'));
    expect(record).toBeDefined();
    writeFileSync(join(calls, `${record}.after`), `${JSON.stringify({ session: 'k', pid: gone, time: T0.toISOString() })}\n`);
    const reason = denial(await hook('claude-code', claude.write(root, 'k', 'src/features/other.ts', 'export const other = 1;\n')));
    expect(reason).toMatch(/did not finish.*src\/features\/gen\.ts: deleted.*This call was not run; run it again\./s);
    expect(existsSync(join(root, 'src', 'features', 'gen.ts'))).toBe(false);
    expect(await hook('claude-code', claude.write(root, 'k', 'src/features/other.ts', 'export const other = 1;\n'))).toMatchObject({ stdout: '' });
  });
});
