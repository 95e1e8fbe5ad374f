import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookAnswer } from '../decide/hook-answer.js';
import { AGENT_EVENTS } from '../install/install.js';
import { loadRulesEngine } from '../decide/rules-engine.js';
import { answerAgentHook } from './run-hook.js';
import type { AgentHook } from './run-hook.js';
import { claudeEvent, codexEvent } from '../test-support/payloads.js';
import { CLAUDE_FILE_TOOLS, CLAUDE_READ_ONLY_TOOLS } from './claude-code/pre-tool-use.js';
import { AGENT_ADAPTERS } from './agents.js';

const isOpaqueTool = (agent: AgentHook, tool: string): boolean => AGENT_ADAPTERS[agent].isOpaqueTool(tool);

const T0 = new Date('2026-11-30T12:00:00.000Z');
const LOGGED = "export const y = () => { console.log('y'); };\n";

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-opaque-'));
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'greet.ts'), 'export const greet = () => "hi";\n');
  return root;
}

function hook(agent: AgentHook, input: string): Promise<HookAnswer> {
  return answerAgentHook(agent, input, { env: {}, now: () => T0, rulebookFile: undefined, loadEngine: loadRulesEngine, caseInsensitive: false });
}

/** The same call's PostToolUse: the PreToolUse payload under the after event's name. */
function after(preEvent: string, eventName = 'PostToolUse'): string {
  return JSON.stringify({ ...(JSON.parse(preEvent) as object), hook_event_name: eventName, tool_response: { content: [{ type: 'text', text: 'ok' }] } });
}

function blockReason(answer: HookAnswer): string {
  const parsed = JSON.parse(answer.stdout) as { decision: string; reason: string };
  expect(parsed.decision).toBe('block');
  return parsed.reason;
}

/** Claude Code tests a regex matcher against the tool's name and each of its old names (2.1.197). */
function claudeMatches(event: string, tool: string, aliases: readonly string[] = []): boolean {
  const entry = AGENT_EVENTS['claude-code'].find((each) => each.event === event);
  const pattern = new RegExp(entry?.matcher ?? '');
  return [tool, ...aliases].some((name) => pattern.test(name));
}

describe('tools the gate cannot read, judged after the call', () => {
  it('puts back what an MCP file tool wrote against a rule, and tells the model (Claude Code)', async () => {
    const root = project();
    const pre = claudeEvent(root, 's1', 'mcp__files__write_file', { path: 'src/y.ts', content: LOGGED });
    expect((await hook('claude-code', pre)).stdout).toBe('');
    writeFileSync(join(root, 'src', 'y.ts'), LOGGED);
    const reason = blockReason(await hook('claude-code', after(pre)));
    expect(reason).toMatch(/src\/y\.ts: deleted \(the command created it\)\. R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'y.ts'))).toBe(false);
    expect(readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')).toMatch(/"tool":"mcp__files__write_file".*"decision":"reverted"/);
  });

  it('restores a file an MCP tool changed, when the call is reported failed (PostToolUseFailure)', async () => {
    const root = project();
    const pre = claudeEvent(root, 's1', 'mcp__files__edit', { path: 'src/greet.ts' });
    await hook('claude-code', pre);
    writeFileSync(join(root, 'src', 'greet.ts'), LOGGED);
    const answer = await hook('claude-code', after(pre, 'PostToolUseFailure'));
    const parsed = JSON.parse(answer.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(parsed.hookSpecificOutput.additionalContext).toMatch(/src\/greet\.ts: restored .* R4 NOLOG/);
    expect(readFileSync(join(root, 'src', 'greet.ts'), 'utf8')).toBe('export const greet = () => "hi";\n');
  });

  it('keeps a clean write of an MCP tool and says nothing (Codex)', async () => {
    const root = project();
    const pre = codexEvent(root, 's1', 'mcp__files__write_file', { path: 'src/z.ts' });
    expect((await hook('codex', pre)).stdout).toBe('');
    writeFileSync(join(root, 'src', 'z.ts'), 'export const z = 1;\n');
    expect((await hook('codex', after(pre))).stdout).toBe('');
    expect(readFileSync(join(root, 'src', 'z.ts'), 'utf8')).toBe('export const z = 1;\n');
  });

  it('puts back what a Codex MCP tool wrote against a rule', async () => {
    const root = project();
    const pre = codexEvent(root, 's1', 'mcp__files__write_file', { path: 'src/y.ts' });
    await hook('codex', pre);
    writeFileSync(join(root, 'src', 'y.ts'), LOGGED);
    expect(blockReason(await hook('codex', after(pre)))).toMatch(/R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'y.ts'))).toBe(false);
  });

  it('says the call went unchecked when an MCP tool had no snapshot before it (an install without the new matchers)', async () => {
    const root = project();
    const pre = claudeEvent(root, 's1', 'mcp__files__write_file', { path: 'src/y.ts' });
    expect(blockReason(await hook('claude-code', after(pre)))).toMatch(/could not check what this command changed/);
  });

  it('takes no snapshot for a read-only tool', async () => {
    const root = project();
    expect((await hook('claude-code', claudeEvent(root, 's1', 'Read', { file_path: join(root, 'src', 'greet.ts') }))).stdout).toBe('');
    expect(existsSync(join(root, '.holdfast'))).toBe(false);
  });
});

describe('which tools the installed matchers send', () => {
  it('Claude Code: PreToolUse gets every tool but the read-only ones, by any of their names', () => {
    for (const tool of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'mcp__files__write_file', 'mcp__plugin_x_y__z', 'SomeNewTool']) {
      expect(claudeMatches('PreToolUse', tool), tool).toBe(true);
    }
    expect(claudeMatches('PreToolUse', 'Read')).toBe(false);
    expect(claudeMatches('PreToolUse', 'Grep')).toBe(false);
    expect(claudeMatches('PreToolUse', 'Agent', ['Task'])).toBe(false);
    expect(claudeMatches('PreToolUse', 'TaskStop', ['KillShell', 'KillBash'])).toBe(false);
    expect(claudeMatches('PreToolUse', 'TaskOutput', ['AgentOutputTool', 'BashOutputTool', 'AgentOutput', 'BashOutput'])).toBe(false);
  });

  it('Claude Code: the events after a call skip the file-editing tools, which were judged before', () => {
    for (const event of ['PostToolUse', 'PostToolUseFailure']) {
      for (const tool of CLAUDE_FILE_TOOLS) expect(claudeMatches(event, tool), `${event} ${tool}`).toBe(false);
      expect(claudeMatches(event, 'Bash')).toBe(true);
      expect(claudeMatches(event, 'mcp__files__write_file')).toBe(true);
      expect(claudeMatches(event, 'WebFetch')).toBe(false);
    }
  });

  it('the hook judges after the call exactly the tools it neither reads nor knows to be read-only', () => {
    expect(CLAUDE_READ_ONLY_TOOLS.some((tool) => isOpaqueTool('claude-code', tool))).toBe(false);
    expect(isOpaqueTool('claude-code', 'Bash')).toBe(false);
    expect(isOpaqueTool('claude-code', 'Write')).toBe(false);
    expect(isOpaqueTool('claude-code', 'mcp__files__write_file')).toBe(true);
    expect(isOpaqueTool('codex', 'apply_patch')).toBe(false);
    expect(isOpaqueTool('codex', 'update_plan')).toBe(false);
    expect(isOpaqueTool('codex', 'mcp__files__write_file')).toBe(true);
  });
});
