import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRulesEngine } from '../../decide/rules-engine.js';
import type { HookAnswer } from '../../decide/hook-answer.js';
import { answerAgentHook } from '../run-hook.js';
import { safeParseHookEvent, readPreToolUse } from '../hook-event.js';
import { QWEN_CODE } from './index.js';
import { qwenShellOutcome } from './post-tool-use.js';

/**
 * What the real Qwen Code 0.24.4 (on Node 24) sent its hooks (fixtures/traffic/qwen-code-0.24.4,
 * recorded with a scripted OpenAI-compatible server on 127.0.0.1), read by the adapter, and the same
 * events answered by the gate.
 */
const SCENARIO = fileURLToPath(new URL('../../../../../fixtures/traffic/qwen-code-0.24.4/write-denied-shell-put-back/hooks', import.meta.url));
const T0 = new Date('2026-12-07T05:00:00.000Z');

function recorded(): Record<string, unknown>[] {
  return readdirSync(SCENARIO)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(SCENARIO, name), 'utf8')) as Record<string, unknown>);
}

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-qwen-'));
  made.push(root);
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  return root;
}

/**
 * A recorded event moved into `root`: its `cwd`, and the run's folder inside the write's absolute
 * `file_path`, are the new project's; its other bytes are kept.
 */
function at(root: string, event: Record<string, unknown>, input?: Record<string, unknown>): string {
  const from = String(event.cwd);
  const moved = JSON.parse(
    JSON.stringify(input ?? event.tool_input ?? {})
      .split(from)
      .join(root),
  ) as Record<string, unknown>;
  return JSON.stringify({ ...event, cwd: root, ...(event.tool_input !== undefined || input !== undefined ? { tool_input: moved } : {}) });
}

function hook(input: string): Promise<HookAnswer> {
  return answerAgentHook('qwen-code', input, { env: {}, now: () => T0, rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false });
}

describe('Qwen Code 0.24.4, recorded hook payloads', () => {
  const events = recorded();
  const [write, shell, shellFailed, stop] = events;
  if (write === undefined || shell === undefined || shellFailed === undefined || stop === undefined)
    throw new Error(`expected four recorded events in ${SCENARIO}`);

  it('names each event as the flow steps it: PreToolUse, PreToolUse, PostToolUseFailure, Stop (no PostToolUse after a denied call)', () => {
    expect(events.map((event) => event.hook_event_name)).toEqual(['PreToolUse', 'PreToolUse', 'PostToolUseFailure', 'Stop']);
    expect(QWEN_CODE.steps).toMatchObject({ PreToolUse: 'before-call', PostToolUse: 'after-call', PostToolUseFailure: 'after-call', Stop: 'turn-end' });
  });

  it('reads write_file (an absolute path) and run_shell_command as the actions they take', () => {
    const [writeCall, shellCall] = [write, shell].map((event) => {
      const parsed = safeParseHookEvent(JSON.stringify(event), 'Qwen Code');
      if (!parsed.ok) throw parsed.error;
      const pre = readPreToolUse(parsed.value.raw, 'Qwen Code');
      if (!pre.ok) throw pre.error;
      return QWEN_CODE.readToolCall(pre.value, pre.value.cwd, () => undefined);
    });
    expect(writeCall?.actions).toEqual([{ type: 'write', path: 'src/debug.ts', content: "console.log('debug');\n" }]);
    expect(JSON.stringify(shellCall?.actions)).toContain('src/x.ts');
    expect(QWEN_CODE.isShellTool('run_shell_command')).toBe(true);
    expect(QWEN_CODE.isOpaqueTool('read_file')).toBe(false);
    expect(QWEN_CODE.isOpaqueTool('mcp__files__write')).toBe(true);
    // Its subagents may be other CLIs (Claude Code, Codex) whose calls Qwen Code's hooks never see.
    expect(QWEN_CODE.isOpaqueTool('agent')).toBe(true);
  });

  it('reads how the shell call ended from PostToolUseFailure: the last "Exit Code" line is the tool\'s', () => {
    const failed = safeParseHookEvent(JSON.stringify(shellFailed), 'Qwen Code');
    if (!failed.ok) throw failed.error;
    expect(qwenShellOutcome(failed.value)).toEqual({ failed: true, ending: 'exit code 1' });
    expect(qwenShellOutcome({ name: 'PostToolUse', raw: {} })).toEqual({ failed: false });
    const imitation = { name: 'PostToolUseFailure', raw: { error: 'Output: Exit Code: 0\nExit Code: 2\nSignal: (none)' } };
    expect(qwenShellOutcome(imitation)).toEqual({ failed: true, ending: 'exit code 2' });
    expect(qwenShellOutcome({ name: 'PostToolUseFailure', raw: { error: 'aborted' } })).toEqual({ failed: true, ending: 'it failed' });
  });

  it('denies the recorded write_file of a console.log with the rule in the reason, as a permission decision', async () => {
    const root = project();
    const answer = await hook(at(root, write));
    expect(answer.exitCode).toBe(0);
    const parsed = JSON.parse(answer.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(parsed.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(parsed.hookSpecificOutput.permissionDecisionReason).toMatch(/R4 NOLOG/);
  });

  it('puts back what the recorded shell call wrote against a rule, and tells the model in additionalContext', async () => {
    const root = project();
    expect((await hook(at(root, shell))).stdout).toBe('');
    writeFileSync(join(root, 'src', 'x.ts'), 'console.log(1);\n');
    const answer = await hook(at(root, shellFailed));
    const told = JSON.parse(answer.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(told.hookSpecificOutput.hookEventName).toBe('PostToolUseFailure');
    expect(told.hookSpecificOutput.additionalContext).toMatch(/R4 NOLOG/);
    expect(readdirSync(join(root, 'src'))).toEqual(['a.ts']);
  });

  it('holds the turn at Stop while a module the session created has no test, then lets it end', async () => {
    const root = project();
    const module = { file_path: join(root, 'src', 'sum.ts'), content: 'export const sum = (a: number, b: number) => a + b;\n' };
    expect((await hook(at(root, write, module))).stdout).toBe('');
    writeFileSync(module.file_path, module.content);
    const held = JSON.parse((await hook(at(root, stop))).stdout) as { decision: string; reason: string };
    expect(held.decision).toBe('block');
    expect(held.reason).toMatch(/src\/sum\.ts/);
    const test = { file_path: join(root, 'src', 'sum.test.ts'), content: "import { sum } from './sum';\nexport const checked = sum(1, 2);\n" };
    expect((await hook(at(root, write, test))).stdout).toBe('');
    writeFileSync(test.file_path, test.content);
    expect((await hook(at(root, stop))).stdout).toBe('');
  });
});
