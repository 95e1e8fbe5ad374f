import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookAnswer } from '../decide/hook-answer.js';
import { loadRulesEngine } from '../decide/rules-engine.js';
import { answerAgentHook } from '../hook/run-hook.js';
import type { AgentHook } from '../hook/run-hook.js';
import { claude } from '../test-support/payloads.js';

const T0 = new Date('2026-11-30T12:00:00.000Z');
const LOGGED = "export const late = () => { console.log('late'); };\n";

function repository(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-between-'));
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'greet.ts'), 'export const greet = () => "hi";\n');
  writeFileSync(join(root, 'src', 'greet.test.ts'), 'export {};\n');
  writeFileSync(join(root, '.gitignore'), '.holdfast/\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.email=a@b.test', '-c', 'user.name=a', 'commit', '-q', '-m', 'start');
  return root;
}

function hook(agent: AgentHook, input: string): Promise<HookAnswer> {
  return answerAgentHook(agent, input, { env: {}, now: () => T0, rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false });
}

function stop(root: string, session = 's1'): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: null,
    cwd: root,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'done',
  });
}

/** One checked shell call that changes nothing (a script: judged after it ran), as the session's checks go. */
async function shellCall(root: string, id: string, session = 's1'): Promise<HookAnswer> {
  const pre = JSON.parse(claude.bash(root, session, 'node -e 0')) as Record<string, unknown>;
  await hook('claude-code', JSON.stringify({ ...pre, tool_use_id: id }));
  return hook('claude-code', JSON.stringify({ ...pre, tool_use_id: id, hook_event_name: 'PostToolUse' }));
}

function stopReason(answer: HookAnswer): string {
  const parsed = JSON.parse(answer.stdout) as { decision: string; reason: string };
  expect(parsed.decision).toBe('block');
  return parsed.reason;
}

describe('changes made after the last checked call, at the end of the turn', () => {
  it('keeps the turn from ending while a file something else wrote breaks a rule, and lets it end once the file follows the rules', async () => {
    const root = repository();
    expect((await shellCall(root, 'toolu_1')).stdout).toBe('');
    // A process the call left running (it may have detached itself) writes after the check.
    writeFileSync(join(root, 'src', 'late.ts'), LOGGED);
    const reason = stopReason(await hook('claude-code', stop(root)));
    expect(reason).toMatch(/the turn cannot end yet: files changed against the rulebook after the last checked call/);
    expect(reason).toMatch(/src\/late\.ts: left in place .*R4 NOLOG/);
    expect(reason).not.toMatch(/HOLDFAST_GATE|bypass/i);
    expect(existsSync(join(root, 'src', 'late.ts'))).toBe(true);
    // Still there at the next attempt to stop, though nothing changed since.
    expect(stopReason(await hook('claude-code', stop(root)))).toMatch(/src\/late\.ts: left in place/);
    writeFileSync(join(root, 'src', 'late.ts'), 'export const late = () => 1;\n');
    expect((await hook('claude-code', stop(root))).stdout).toBe('');
    const audit = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit.filter((entry) => entry.tool === 'Stop')).toMatchObject([
      { decision: 'deny', rule: 'R4', action: 'changed outside any call: src/late.ts' },
      { decision: 'deny', rule: 'R4', action: 'changed outside any call: src/late.ts' },
    ]);
  });

  it("puts back a session's own file rewritten against a rule after the last check, and says so", async () => {
    const root = repository();
    expect((await shellCall(root, 'toolu_1')).stdout).toBe('');
    const write = claude.write(root, 's1', 'src/made.ts', 'export const made = 1;\n');
    expect((await hook('claude-code', write)).stdout).toBe('');
    writeFileSync(join(root, 'src', 'made.ts'), 'export const made = 1;\n');
    writeFileSync(join(root, 'src', 'made.test.ts'), 'export {};\n');
    await hook('claude-code', claude.write(root, 's1', 'src/made.test.ts', 'export {};\n'));
    expect((await shellCall(root, 'toolu_2')).stdout).toBe('');
    writeFileSync(join(root, 'src', 'made.ts'), LOGGED);
    const reason = stopReason(await hook('claude-code', stop(root)));
    expect(reason).toMatch(/src\/made\.ts: restored to its content at the last check .*R4 NOLOG/);
    expect(readFileSync(join(root, 'src', 'made.ts'), 'utf8')).toBe('export const made = 1;\n');
    expect((await hook('claude-code', stop(root))).stdout).toBe('');
  });

  it('judges nothing for a session that had no checked call (a person may be editing)', async () => {
    const root = repository();
    expect((await shellCall(root, 'toolu_1', 'other')).stdout).toBe('');
    writeFileSync(join(root, 'src', 'late.ts'), LOGGED);
    expect((await hook('claude-code', stop(root, 's2'))).stdout).toBe('');
  });
});
