import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRulesEngine } from '../../decide/rules-engine.js';
import type { HookAnswer } from '../../decide/hook-answer.js';
import { answerAgentHook } from '../run-hook.js';
import { readPreToolUse } from '../hook-event.js';
import { COPILOT_CLI } from './index.js';
import { readCopilotPayload } from './payload.js';
import { copilotShellOutcome } from './post-tool-use.js';

/**
 * What the real Copilot CLI 1.0.102 sent its hooks (fixtures/traffic/copilot-1.0.102, recorded offline
 * with a scripted OpenAI-compatible server on 127.0.0.1), read by the adapter, and the same events
 * answered by the gate. test/e2e/agents-copilot-cli.test.ts drives the real binary with the gate installed.
 */
const SCENARIO = fileURLToPath(new URL('../../../../../fixtures/traffic/copilot-1.0.102/create-bash-exit-status/hooks', import.meta.url));
const T0 = new Date('2026-12-07T09:00:00.000Z');

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
  const root = mkdtempSync(join(tmpdir(), 'holdfast-copilot-'));
  made.push(root);
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  return root;
}

/** A recorded event moved into `root`: the run's folder is replaced wherever it appears (cwd, absolute paths); other bytes kept. */
function at(root: string, event: Record<string, unknown>, toolArgs?: Record<string, unknown>): string {
  const moved = JSON.parse(JSON.stringify(event).split(String(event.cwd)).join(root)) as Record<string, unknown>;
  return JSON.stringify(toolArgs === undefined ? moved : { ...moved, toolArgs });
}

function hook(input: string): Promise<HookAnswer> {
  return answerAgentHook('copilot-cli', input, { env: {}, now: () => T0, rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false });
}

function read(event: Record<string, unknown>) {
  const payload = readCopilotPayload(event);
  if (!payload.ok) throw payload.error;
  return payload.value;
}

describe('Copilot CLI 1.0.102, recorded hook payloads', () => {
  const events = recorded();
  const [create, createAfter, passing, passingAfter, failing, failingAfter, stop] = events;
  if ([create, createAfter, passing, passingAfter, failing, failingAfter, stop].some((event) => event === undefined))
    throw new Error(`expected seven recorded events in ${SCENARIO}`);

  it("tells each event from its fields (Copilot CLI names none) and reads it in the flow's names", () => {
    expect(events.map((event) => read(event).name)).toEqual([
      'preToolUse',
      'postToolUse',
      'preToolUse',
      'postToolUse',
      'preToolUse',
      'postToolUse',
      'agentStop',
    ]);
    expect(Object.keys(COPILOT_CLI.steps)).toEqual(['preToolUse', 'postToolUse', 'postToolUseFailure', 'agentStop']);
    expect(read({ sessionId: 's', cwd: '/p', toolName: 'edit', toolArgs: {}, error: 'old_str not found' }).name).toBe('postToolUseFailure');
    expect(read(create as Record<string, unknown>).raw).toMatchObject({ session_id: create?.sessionId, tool_name: 'create', tool_input: create?.toolArgs });
    // GitHub's hook reference shows toolArgs as JSON text: read the same; anything else is refused.
    expect(read({ sessionId: 's', cwd: '/p', toolName: 'bash', toolArgs: '{"command":"ls"}' }).raw.tool_input).toEqual({ command: 'ls' });
    expect(readCopilotPayload({ sessionId: 's', cwd: '/p', toolName: 'bash', toolArgs: 'ls' }).ok).toBe(false);
  });

  it('reads create (an absolute path) and bash as the actions they take; a background bash is a bypass', () => {
    const call = (event: Record<string, unknown>) => {
      const pre = readPreToolUse(read(event).raw, 'Copilot CLI');
      if (!pre.ok) throw pre.error;
      return COPILOT_CLI.readToolCall(pre.value, pre.value.cwd, () => undefined);
    };
    expect(call(create as Record<string, unknown>).actions).toEqual([{ type: 'write', path: 'src/answer.ts', content: 'export const answer = 41;\n' }]);
    expect(call(passing as Record<string, unknown>).actions).toEqual([{ type: 'run', cmd: "echo 'tests: 3 passed'" }]);
    const background = {
      ...(passing as Record<string, unknown>),
      toolArgs: { command: `node -e "require('fs').writeFileSync('src/x.ts', '')"`, mode: 'async' },
    };
    expect(call(background).bypasses).toHaveLength(1);
    expect(COPILOT_CLI.isShellTool('bash')).toBe(true);
    expect(COPILOT_CLI.isOpaqueTool('view')).toBe(false);
    expect(COPILOT_CLI.isOpaqueTool('github-mcp-server-create_or_update_file')).toBe(true);
    // A background agent or a running shell acts while other calls go on: judged after it ran.
    for (const tool of ['task', 'write_agent', 'write_bash']) expect(COPILOT_CLI.isOpaqueTool(tool)).toBe(true);
  });

  it('reads how a bash call ended from the last "<shellId: N completed with exit code C>" (exit 3 is still resultType success)', () => {
    expect(copilotShellOutcome(read(passingAfter as Record<string, unknown>))).toEqual({ failed: false });
    expect(copilotShellOutcome(read(failingAfter as Record<string, unknown>))).toEqual({ failed: true, ending: 'exit code 3' });
    const text = (textResultForLlm: string) => ({ name: 'postToolUse', raw: { tool_response: { resultType: 'success', textResultForLlm } } });
    expect(copilotShellOutcome(text('<shellId: 0 completed with exit code 0>\nboom\n<shellId: 0 completed with exit code 1>'))).toEqual({
      failed: true,
      ending: 'exit code 1',
    });
    expect(copilotShellOutcome(text('still running'))).toMatchObject({ failed: true });
    expect(copilotShellOutcome({ name: 'postToolUseFailure', raw: {} })).toMatchObject({ failed: true });
  });

  it('denies a recorded create of a console.log with the rule in the reason, as a permission decision', async () => {
    const root = project();
    const answer = await hook(at(root, create as Record<string, unknown>, { path: join(root, 'src', 'debug.ts'), file_text: "console.log('debug');\n" }));
    expect(answer.exitCode).toBe(0);
    const parsed = JSON.parse(answer.stdout) as { permissionDecision: string; permissionDecisionReason: string };
    expect(parsed.permissionDecision).toBe('deny');
    expect(parsed.permissionDecisionReason).toMatch(/R4 NOLOG/);
  });

  it('refuses a create into .github/hooks/ or .github/copilot/ as tamper, and puts back what a bash call wrote there', async () => {
    const root = project();
    for (const place of [join('.github', 'hooks', 'off.json'), join('.github', 'copilot', 'settings.json')]) {
      const answer = JSON.parse(
        (await hook(at(root, create as Record<string, unknown>, { path: join(root, place), file_text: '{"disableAllHooks":true}' }))).stdout,
      );
      expect(answer.permissionDecision).toBe('deny');
      expect(answer.permissionDecisionReason).toMatch(/GATE TAMPER/);
    }
    const command = `node -e "require('fs').mkdirSync('.github/hooks',{recursive:true})"`;
    expect((await hook(at(root, passing as Record<string, unknown>, { command, mode: 'sync' }))).stdout).toBe('');
    mkdirSync(join(root, '.github', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.github', 'hooks', 'off.json'), '{"disableAllHooks":true}');
    const after = JSON.parse((await hook(at(root, { ...(passingAfter as Record<string, unknown>), toolArgs: { command, mode: 'sync' } }))).stdout);
    expect(after.decision).toBe('block');
    expect(after.reason).toMatch(/GATE TAMPER/);
    expect(readdirSync(join(root, '.github', 'hooks'))).toEqual([]);
  });

  it('puts back what a bash call wrote against a rule, and replaces the tool result with the reason', async () => {
    const root = project();
    const command = `node -e "require('fs').writeFileSync('src/x.ts', 'console.log(1);\\\\n')"`;
    expect((await hook(at(root, passing as Record<string, unknown>, { command, mode: 'sync' }))).stdout).toBe('');
    writeFileSync(join(root, 'src', 'x.ts'), 'console.log(1);\n');
    const answer = JSON.parse((await hook(at(root, { ...(passingAfter as Record<string, unknown>), toolArgs: { command, mode: 'sync' } }))).stdout);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toMatch(/R4 NOLOG/);
    expect(readdirSync(join(root, 'src'))).toEqual(['a.ts']);
  });

  it('holds the turn at agentStop while a module the session created has no test, then lets it end', async () => {
    const root = project();
    const module = { path: join(root, 'src', 'sum.ts'), file_text: 'export const sum = (a: number, b: number) => a + b;\n' };
    expect((await hook(at(root, create as Record<string, unknown>, module))).stdout).toBe('');
    writeFileSync(module.path, module.file_text);
    const held = JSON.parse((await hook(at(root, stop as Record<string, unknown>))).stdout) as { decision: string; reason: string };
    expect(held.decision).toBe('block');
    expect(held.reason).toMatch(/src\/sum\.ts/);
    const test = { path: join(root, 'src', 'sum.test.ts'), file_text: "import { sum } from './sum';\nexport const checked = sum(1, 2);\n" };
    expect((await hook(at(root, create as Record<string, unknown>, test))).stdout).toBe('');
    writeFileSync(test.path, test.file_text);
    expect((await hook(at(root, stop as Record<string, unknown>))).stdout).toBe('');
  });
});
