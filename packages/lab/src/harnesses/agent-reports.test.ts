import { describe, expect, it } from 'vitest';
import { readClaudeReport } from './run-claude-code.js';
import { codexConfig, readCodexReport } from './run-codex.js';
import { readQwenReport } from './run-qwen-code.js';

// Output lines as Claude Code 2.1.197 (`-p --output-format json`) and Codex 0.171.0 (`exec --json`) printed them.
const CLAUDE_RESULT =
  '{"type":"result","subtype":"success","is_error":false,"api_error_status":null,"duration_ms":1334,"num_turns":3,"result":"done","stop_reason":"end_turn","session_id":"297694a8","total_cost_usd":0.288275,"usage":{"input_tokens":57430,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":45},"permission_denials":[{"tool_name":"Write","tool_use_id":"toolu_1","tool_input":{}}],"terminal_reason":"completed"}';
const CODEX_EVENTS = [
  '{"type":"thread.started","thread_id":"01a22d41"}',
  '{"type":"turn.started"}',
  '{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc \'echo hi > a.txt\'","aggregated_output":"","exit_code":0,"status":"completed"}}',
  '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"done"}}',
  '{"type":"turn.completed","usage":{"input_tokens":28849,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":45,"reasoning_output_tokens":0}}',
].join('\n');

describe('what the harnesses report', () => {
  it('reads Claude Code turns, tokens, cost and final text', () => {
    expect(readClaudeReport(`${CLAUDE_RESULT}\n`)).toEqual({
      turns: 3,
      inputTokens: 57430,
      outputTokens: 45,
      costUsd: 0.288275,
      deniedCalls: 1,
      finalText: 'done',
      isError: false,
    });
    expect(readClaudeReport('')).toBeUndefined();
    expect(readClaudeReport('{"type":"result"')).toBeUndefined();
  });

  it('reads Qwen Code turns, tokens and final text from the result at the end of its JSON array; no cost', () => {
    // As Qwen Code 0.24.4 (`-p --output-format json`) printed it, shortened.
    const printed = JSON.stringify([
      { type: 'system', subtype: 'init', session_id: 's' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'Done.' }] } },
      {
        type: 'result',
        subtype: 'success',
        is_error: false,
        num_turns: 3,
        result: 'Done.',
        usage: { input_tokens: 30, output_tokens: 15 },
        permission_denials: [],
      },
    ]);
    expect(readQwenReport(printed)).toEqual({
      turns: 3,
      inputTokens: 30,
      outputTokens: 15,
      costUsd: undefined,
      deniedCalls: 0,
      finalText: 'Done.',
      isError: false,
    });
    expect(readQwenReport('')).toBeUndefined();
    expect(readQwenReport('[{"type":"system"}]')).toBeUndefined();
  });

  it('reads Codex turns, tokens and the last agent message; no cost', () => {
    expect(readCodexReport(CODEX_EVENTS)).toEqual({
      turns: 1,
      inputTokens: 28849,
      outputTokens: 45,
      costUsd: undefined,
      deniedCalls: undefined,
      finalText: 'done',
      isError: false,
    });
    expect(readCodexReport(`${CODEX_EVENTS}\n{"type":"turn.failed","error":{"message":"x"}}\n{"type":"item.comp`)).toMatchObject({ isError: true });
    expect(readCodexReport('WARNING: something\n')).toBeUndefined();
  });

  it('points Codex at the scripted provider and trusts the project', () => {
    const config = codexConfig({ baseUrl: 'http://127.0.0.1:5/v1', cwd: '/tmp/repo "x"' });
    expect(config).toContain('model_provider = "holdfast-scripted"');
    expect(config).toContain('base_url = "http://127.0.0.1:5/v1"');
    expect(config).toContain('wire_api = "responses"');
    expect(config).toContain('[projects."/tmp/repo \\"x\\""]\ntrust_level = "trusted"');
  });
});
