import { afterEach, describe, expect, it } from 'vitest';
import { SCRIPT_EXHAUSTED } from './script.js';
import type { ModelTurn } from './script.js';
import { startScriptedModel } from './scripted-model-server.js';
import type { ScriptedModelServer } from './scripted-model-server.js';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(path: string, body: unknown): Promise<{ status: number; type: string | null; text: string }> {
  if (server === undefined) throw new Error('no server');
  const response = await fetch(`${server.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The `data:` objects of an SSE body, in order. */
function events(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

const claudeTools = [{ name: 'Bash' }, { name: 'Write' }];
const codexTools = [
  { type: 'function', name: 'exec_command' },
  { type: 'custom', name: 'apply_patch' },
];

describe('the scripted model server', () => {
  it('streams an Anthropic tool_use with its input in input_json_delta chunks and stop_reason tool_use', async () => {
    server = await startScriptedModel({ cwd: '/repo', steps: [{ writeFile: { path: 'src/a.ts', content: 'x' } }] });
    const answer = await post('/v1/messages?beta=true', { model: 'm', stream: true, tools: claudeTools, messages: [{ role: 'user', content: 'go' }] });
    expect(answer.type).toBe('text/event-stream');
    const stream = events(answer.text);
    expect(stream.map((event) => event.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(stream[1]).toMatchObject({ content_block: { type: 'tool_use', name: 'Write' } });
    const json = stream
      .filter((event) => event.type === 'content_block_delta')
      .map((event) => (event.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ file_path: '/repo/src/a.ts', content: 'x' });
    expect(stream[5]).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('shows each step the tool results of its own previous calls, and answers side calls without using a step', async () => {
    const seen: ModelTurn[] = [];
    const answerAfterLooking = (turn: ModelTurn) => {
      seen.push(turn);
      return { text: 'done' };
    };
    server = await startScriptedModel({ steps: [{ shell: 'ls' }, answerAfterLooking] });
    const first = events((await post('/v1/messages', { model: 'm', stream: true, tools: claudeTools, messages: [] })).text);
    const id = (first[1]?.content_block as { id: string }).id;
    const side = await post('/v1/messages', { model: 'haiku', max_tokens: 10, messages: [{ role: 'user', content: 'title?' }] });
    expect(JSON.parse(side.text)).toMatchObject({ type: 'message', content: [{ type: 'text' }] });
    const history = [
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'older', content: 'old' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: 'denied: R4' }], is_error: true }] },
    ];
    const last = events((await post('/v1/messages', { model: 'm', stream: true, tools: claudeTools, messages: history })).text);
    expect(last.at(-2)).toMatchObject({ delta: { stop_reason: 'end_turn' } });
    expect(seen[0]?.toolResults).toEqual([{ callId: id, text: 'denied: R4', isError: true }]);
    expect(seen[0]?.allToolResults).toHaveLength(2);
    expect(server.turns).toHaveLength(2);
  });

  it('answers Codex with a custom_tool_call for a freeform tool and a function_call for a JSON one', async () => {
    server = await startScriptedModel({ steps: [[{ writeFile: { path: 'a.ts', content: 'x\n' } }, { shell: 'npm test' }]] });
    const stream = events((await post('/v1/responses', { model: 'gpt-5.5', stream: true, tools: codexTools, input: [] })).text);
    const done = stream.filter((event) => event.type === 'response.output_item.done').map((event) => event.item);
    expect(done).toEqual([
      expect.objectContaining({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: a.ts\n+x\n*** End Patch\n' }),
      expect.objectContaining({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm test' }) }),
    ]);
    expect(stream.at(-1)).toMatchObject({ type: 'response.completed', response: { status: 'completed', usage: { output_tokens: 25 } } });
  });

  it('answers Qwen Code in OpenAI chat completions: its own tool names, absolute paths, tool results from role "tool" messages', async () => {
    const seen: ModelTurn[] = [];
    const steps = [
      [{ writeFile: { path: 'src/a.ts', content: 'x\n' } }, { shell: 'npm test' }],
      (turn: ModelTurn) => {
        seen.push(turn);
        return { text: 'Done.' };
      },
    ];
    server = await startScriptedModel({ steps, cwd: '/repo' });
    const tools = [
      { type: 'function', function: { name: 'write_file' } },
      { type: 'function', function: { name: 'run_shell_command' } },
    ];
    const chat = async (messages: unknown[]) => {
      const { text } = await post('/v1/chat/completions', { model: 'm', stream: true, tools, messages });
      expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
      return events(text.slice(0, -'data: [DONE]\n\n'.length));
    };
    const first = await chat([]);
    const calls =
      (first[0] as { choices: { delta: { tool_calls: { id: string; function: { name: string; arguments: string } }[] } }[] }).choices[0]?.delta.tool_calls ??
      [];
    expect(calls.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ['write_file', { file_path: '/repo/src/a.ts', content: 'x\n' }],
      ['run_shell_command', { command: 'npm test', description: 'scripted' }],
    ]);
    expect(first[1]).toMatchObject({ choices: [{ finish_reason: 'tool_calls' }], usage: { completion_tokens: 25 } });
    const results = calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: [{ type: 'text', text: `ran ${call.function.name}` }] }));
    const second = await chat(results);
    expect(second[0]).toMatchObject({ choices: [{ delta: { content: 'Done.' } }] });
    expect(seen[0]?.toolResults.map((result) => result.text)).toEqual(['ran write_file', 'ran run_shell_command']);
    expect(seen[0]?.protocol).toBe('openai-chat');
  });

  it('records an exhausted script and an unknown path as problems, and still answers', async () => {
    server = await startScriptedModel({ steps: [] });
    const stream = events((await post('/v1/responses', { model: 'gpt-5.5', stream: true, tools: codexTools, input: [] })).text);
    expect(JSON.stringify(stream)).toContain(SCRIPT_EXHAUSTED);
    expect((await post('/v1/other', {})).status).toBe(404);
    expect(server.problems).toEqual([expect.stringContaining(SCRIPT_EXHAUSTED), 'unexpected request: POST /v1/other']);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/other']);
  });
});
