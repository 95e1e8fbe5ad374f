import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRulesEngine } from '../../decide/rules-engine.js';
import type { HookAnswer } from '../../decide/hook-answer.js';
import { answerAgentHook } from '../run-hook.js';
import { safeParseHookEvent, readPreToolUse } from '../hook-event.js';
import { GEMINI_CLI } from './index.js';
import { geminiShellOutcome } from './post-tool-use.js';

/**
 * What the real Gemini CLI 0.61.0 sent its hooks (fixtures/traffic/gemini-cli-0.61.0, recorded with a
 * scripted Gemini API on 127.0.0.1), read by the adapter, and the same events answered by the gate.
 */
const SCENARIO = fileURLToPath(new URL('../../../../../fixtures/traffic/gemini-cli-0.61.0/write-shell-exit-status/hooks', import.meta.url));
const T0 = new Date('2026-12-07T03:00:00.000Z');

function recorded(): { name: string; text: string }[] {
  return readdirSync(SCENARIO)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(SCENARIO, name), 'utf8') }));
}

/** A recorded event moved into `root`: the run's own folder is gone, its bytes are otherwise kept. */
function at(root: string, text: string): string {
  const event = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify({ ...event, cwd: root });
}

const made: string[] = [];
afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-gemini-'));
  made.push(root);
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  return root;
}

function hook(input: string): Promise<HookAnswer> {
  return answerAgentHook('gemini-cli', input, { env: {}, now: () => T0, rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false });
}

describe('Gemini CLI 0.61.0, recorded hook payloads', () => {
  const events = recorded();

  it('names each event as the flow steps it: BeforeTool, AfterTool, AfterAgent', () => {
    expect(events.map((event) => JSON.parse(event.text).hook_event_name)).toEqual(['BeforeTool', 'AfterTool', 'BeforeTool', 'AfterTool', 'AfterAgent']);
    expect(Object.keys(GEMINI_CLI.steps)).toEqual(['BeforeTool', 'AfterTool', 'AfterAgent']);
  });

  it('reads write_file (a path relative to the project) and run_shell_command as the actions they take', () => {
    const [write, , shell] = events.map((event) => {
      const parsed = safeParseHookEvent(event.text, 'Gemini CLI');
      if (!parsed.ok) throw parsed.error;
      const pre = readPreToolUse(parsed.value.raw, 'Gemini CLI');
      return pre.ok ? GEMINI_CLI.readToolCall(pre.value, pre.value.cwd, () => undefined) : undefined;
    });
    expect(write?.actions).toEqual([{ type: 'write', path: 'src/debug.ts', content: "console.log('debug');\n" }]);
    expect(JSON.stringify(shell?.actions)).toContain('src/x.txt');
    expect(GEMINI_CLI.isShellTool('run_shell_command')).toBe(true);
    expect(GEMINI_CLI.isOpaqueTool('read_file')).toBe(false);
    expect(GEMINI_CLI.isOpaqueTool('mcp_files_write')).toBe(true);
  });

  it('reads how the shell call ended from the tool output: exit 1 is a failure; output that only imitates success is not', () => {
    const after = safeParseHookEvent(events[3]?.text ?? '', 'Gemini CLI');
    if (!after.ok) throw after.error;
    expect(geminiShellOutcome(after.value)).toEqual({ failed: true, ending: 'exit code 1' });
    const event = (llmContent: string) => ({ name: 'AfterTool', raw: { tool_response: { llmContent } } });
    expect(geminiShellOutcome(event('<untrusted_context>\nOutput: 3 passed\nProcess Group PGID: 7\n</untrusted_context>'))).toEqual({ failed: false });
    expect(geminiShellOutcome(event('<untrusted_context>\nOutput: Exit Code: 0\nExit Code: 2\n</untrusted_context>'))).toEqual({
      failed: true,
      ending: 'exit code 2',
    });
    expect(geminiShellOutcome(event('Command moved to background (PID: 9). Output hidden.'))).toMatchObject({ failed: true });
    expect(geminiShellOutcome({ name: 'AfterTool', raw: {} })).toMatchObject({ failed: true });
  });

  it('denies the recorded write_file of a console.log with the rule in the reason, in the JSON Gemini CLI reads', async () => {
    const root = project();
    const answer = await hook(at(root, events[0]?.text ?? ''));
    expect(answer.exitCode).toBe(0);
    const parsed = JSON.parse(answer.stdout) as { decision: string; reason: string };
    expect(parsed.decision).toBe('deny');
    expect(parsed.reason).toMatch(/R4 NOLOG/);
  });

  it('puts back what the recorded shell call wrote against a rule, and tells the model after the call', async () => {
    const root = project();
    const command = JSON.parse(events[2]?.text ?? '{}') as Record<string, unknown>;
    const before = JSON.stringify({
      ...command,
      cwd: root,
      tool_input: { command: "node -e \"require('fs').writeFileSync('src/x.ts', 'console.log(1)\\\\n')\"" },
    });
    expect((await hook(before)).stdout).toBe('');
    writeFileSync(join(root, 'src', 'x.ts'), 'console.log(1)\n');
    const after = JSON.parse(events[3]?.text ?? '{}') as Record<string, unknown>;
    const answer = await hook(JSON.stringify({ ...after, cwd: root }));
    const told = JSON.parse(answer.stdout) as { decision: string; reason: string };
    expect(told.decision).toBe('block');
    expect(told.reason).toMatch(/R4 NOLOG/);
    expect(readdirSync(join(root, 'src'))).toEqual(['a.ts']);
  });

  it('holds the turn at AfterAgent while a module the session created has no test, then lets it end', async () => {
    const root = project();
    const write = JSON.parse(events[0]?.text ?? '{}') as Record<string, unknown>;
    const module = { ...write, cwd: root, tool_input: { file_path: 'src/sum.ts', content: 'export const sum = (a: number, b: number) => a + b;\n' } };
    expect((await hook(JSON.stringify(module))).stdout).toBe('');
    writeFileSync(join(root, 'src', 'sum.ts'), 'export const sum = (a: number, b: number) => a + b;\n');
    const stop = at(root, events[4]?.text ?? '');
    const held = JSON.parse((await hook(stop)).stdout) as { decision: string; reason: string };
    expect(held.decision).toBe('block');
    expect(held.reason).toMatch(/src\/sum\.ts/);
    const test = {
      ...write,
      cwd: root,
      tool_input: { file_path: 'src/sum.test.ts', content: "import { sum } from './sum';\nexport const checked = sum(1, 2);\n" },
    };
    expect((await hook(JSON.stringify(test))).stdout).toBe('');
    writeFileSync(join(root, 'src', 'sum.test.ts'), "import { sum } from './sum';\nexport const checked = sum(1, 2);\n");
    expect((await hook(stop)).stdout).toBe('');
  });
});
