import { describe, expect, it } from 'vitest';
import { readClaudeCodeResult } from './claude-code/index.js';
import { createCodexEventReader } from './codex/index.js';
import { readQwenCodeResult } from './qwen-code/index.js';

// Output lines as Claude Code 2.1.197 (`-p --output-format json`) and Codex 0.171.0 (`exec --json`) printed them.
const CLAUDE_RESULT =
  '{"type":"result","subtype":"success","is_error":false,"api_error_status":null,"duration_ms":1334,"num_turns":3,"result":"done","stop_reason":"end_turn","session_id":"297694a8","total_cost_usd":0.288275,"usage":{"input_tokens":57430,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":45},"permission_denials":[{"tool_name":"Write","tool_use_id":"toolu_1","tool_input":{}}],"terminal_reason":"completed"}';
const CODEX_EVENTS = [
  '{"type":"thread.started","thread_id":"01a22d41"}',
  '{"type":"turn.started"}',
  '{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc \'echo hi > a.txt\'","aggregated_output":"","exit_code":0,"status":"completed"}}',
  '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"done"}}',
  '{"type":"turn.completed","usage":{"input_tokens":28849,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":45,"reasoning_output_tokens":0}}',
];

describe('what the real clients printed', () => {
  it('Claude Code: turns, tokens, cost, the hook denials and the final text', () => {
    expect(readClaudeCodeResult(`${CLAUDE_RESULT}\n`)).toEqual({
      turns: 3,
      inputTokens: 57430,
      cachedInputTokens: 0,
      outputTokens: 45,
      costUsd: 0.288275,
      deniedCalls: 1,
      ending: 'success',
      finalMessage: 'done',
      sessionId: '297694a8',
    });
  });

  it('Codex: its command and its answer as turns, tokens and the last agent message; no cost', () => {
    const reader = createCodexEventReader();
    for (const line of CODEX_EVENTS) reader.push(line);
    expect(reader.report()).toEqual({
      turns: 2,
      inputTokens: 28849,
      cachedInputTokens: 0,
      outputTokens: 45,
      ending: 'turn.completed',
      finalMessage: 'done',
      sessionId: '01a22d41',
    });
  });
});

describe('readQwenCodeResult', () => {
  it('reads turns, tokens, the denials and the final text from the result at the end of its JSON array; no cost', () => {
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
        session_id: 's',
      },
    ]);
    expect(readQwenCodeResult(printed)).toEqual({
      turns: 3,
      inputTokens: 30,
      outputTokens: 15,
      deniedCalls: 0,
      ending: 'success',
      finalMessage: 'Done.',
      sessionId: 's',
    });
  });

  it('says an error ended it, and is empty when there is no result (a crash, a kill)', () => {
    expect(readQwenCodeResult(JSON.stringify([{ type: 'result', subtype: 'error_max_turns', is_error: true }]))).toEqual({ ending: 'error: error_max_turns' });
    expect(readQwenCodeResult('')).toEqual({});
    expect(readQwenCodeResult('[{"type":"system"}]')).toEqual({});
  });
});

describe('readClaudeCodeResult', () => {
  it('reads turns, tokens (cache included), cost, ending and the final message from the JSON result', () => {
    const stdout = [
      'a warning line',
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        num_turns: 5,
        result: 'Done.',
        session_id: 's-1',
        total_cost_usd: 0.0123,
        usage: { input_tokens: 100, cache_creation_input_tokens: 20, cache_read_input_tokens: 300, output_tokens: 40 },
      }),
      '',
    ].join('\n');
    expect(readClaudeCodeResult(stdout)).toEqual({
      turns: 5,
      inputTokens: 420,
      cachedInputTokens: 300,
      outputTokens: 40,
      costUsd: 0.0123,
      ending: 'success',
      finalMessage: 'Done.',
      sessionId: 's-1',
    });
  });

  it('says the turn cap ended it, and is empty when there is no result (a crash, a kill)', () => {
    expect(readClaudeCodeResult(JSON.stringify({ type: 'result', subtype: 'error_max_turns', num_turns: 3 }))).toEqual({ turns: 3, ending: 'error_max_turns' });
    expect(readClaudeCodeResult('{"type":"result","num_turns":')).toEqual({});
    expect(readClaudeCodeResult('')).toEqual({});
  });
});

describe('createCodexEventReader', () => {
  it('counts tool calls plus the answer as turns, sums usage and keeps the last message', () => {
    const reader = createCodexEventReader();
    const events = [
      { type: 'thread.started', thread_id: 't-1' },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'a', type: 'file_change', status: 'completed' } },
      { type: 'item.completed', item: { id: 'b', type: 'command_execution', command: 'npm test', exit_code: 0 } },
      { type: 'item.completed', item: { id: 'c', type: 'reasoning', text: 'thinking' } },
      { type: 'item.completed', item: { id: 'd', type: 'agent_message', text: 'Done.' } },
      { type: 'turn.completed', usage: { input_tokens: 900, cached_input_tokens: 400, output_tokens: 50 } },
    ];
    for (const event of events) reader.push(JSON.stringify(event));
    reader.push('not json');
    expect(reader.turns()).toBe(3);
    expect(reader.report()).toEqual({
      turns: 3,
      inputTokens: 900,
      cachedInputTokens: 400,
      outputTokens: 50,
      ending: 'turn.completed',
      finalMessage: 'Done.',
      sessionId: 't-1',
    });
  });

  it('records a failed turn with its message', () => {
    const reader = createCodexEventReader();
    reader.push(JSON.stringify({ type: 'turn.failed', error: { message: 'stream disconnected' } }));
    expect(reader.report()).toEqual({ ending: 'turn.failed: stream disconnected' });
  });
});
