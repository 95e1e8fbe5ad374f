import { describe, expect, it } from 'vitest';
import { createCodexEventReader, readClaudeCodeResult } from './harness-report.js';

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
