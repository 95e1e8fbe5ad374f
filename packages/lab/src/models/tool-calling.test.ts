import { describe, expect, it } from 'vitest';
import { anthropicMessages } from './anthropic.js';
import { chatMessages, readChatToolCalls } from './openai-compatible.js';
import { readToolInput } from './tool-calling.js';
import type { ConversationMessage } from './tool-calling.js';

describe('tool calling', () => {
  it('reads arguments sent as a JSON string, as an object (Ollama), empty, or broken', () => {
    expect(readToolInput('{"path":"a"}')).toEqual({ input: { path: 'a' }, rawInput: '{"path":"a"}' });
    expect(readToolInput({ path: 'a' })).toEqual({ input: { path: 'a' }, rawInput: '{"path":"a"}' });
    expect(readToolInput('')).toEqual({ input: {}, rawInput: '' });
    expect(readToolInput('{"path":')).toMatchObject({ input: undefined, inputError: 'the arguments are not valid JSON' });
    expect(readToolInput('[1]')).toMatchObject({ input: undefined, inputError: 'the arguments are not a JSON object' });
  });

  it('a chat completion whose tool call has no id gets one from its position', () => {
    const body = { choices: [{ message: { content: null, tool_calls: [{ function: { name: 'list_files', arguments: { path: 'src' } } }] } }] };
    expect(readChatToolCalls(body, 'http://x', [])).toEqual([{ id: 'call_0', name: 'list_files', input: { path: 'src' }, rawInput: '{"path":"src"}' }]);
  });

  const conversation: ConversationMessage[] = [
    { role: 'system', content: 'Be careful.' },
    { role: 'user', content: 'Fix it.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'write_file', input: { path: 'x' }, rawInput: '{"path":"x"}' }] },
    { role: 'tool', results: [{ callId: 'c1', name: 'write_file', content: 'Refused: R2 SCOPE', isError: true }] },
  ];

  it('writes the conversation as Chat Completions messages', () => {
    expect(chatMessages(conversation)).toEqual([
      { role: 'system', content: 'Be careful.' },
      { role: 'user', content: 'Fix it.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'write_file', arguments: '{"path":"x"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Refused: R2 SCOPE' },
    ]);
  });

  it('writes the conversation as Messages API turns, the system prompt apart', () => {
    expect(anthropicMessages(conversation)).toEqual({
      system: 'Be careful.',
      messages: [
        { role: 'user', content: 'Fix it.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'write_file', input: { path: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'Refused: R2 SCOPE', is_error: true }] },
      ],
    });
  });
});
