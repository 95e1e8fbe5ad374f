import type { ScriptedOutput, ToolResult } from './script.js';
import { textOf } from './script.js';

/** One Server-Sent Event: `event:` and `data:` lines, as the Messages API streams them. */
function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

interface NativeBlock {
  readonly kind: 'text' | 'tool_use';
  readonly text?: string;
  readonly name?: string;
  readonly input?: unknown;
}

function nativeBlock(output: ScriptedOutput, cwd: string): NativeBlock {
  if ('text' in output) return { kind: 'text', text: output.text };
  if ('shell' in output) return { kind: 'tool_use', name: 'Bash', input: { command: output.shell, description: 'Run a command' } };
  const absolute = (path: string) => (path.startsWith('/') || cwd === '' ? path : `${cwd}/${path}`);
  if ('writeFile' in output)
    return { kind: 'tool_use', name: 'Write', input: { file_path: absolute(output.writeFile.path), content: output.writeFile.content } };
  if ('editFile' in output) {
    const { path, oldText, newText } = output.editFile;
    return { kind: 'tool_use', name: 'Edit', input: { file_path: absolute(path), old_string: oldText, new_string: newText, replace_all: false } };
  }
  return { kind: 'tool_use', name: output.tool, input: output.input };
}

/**
 * A streamed Messages API answer: message_start, one content block per output (text deltas, or a
 * tool_use whose input arrives as input_json_delta chunks), message_delta with the stop reason
 * (`tool_use` when any tool is called, else `end_turn`), message_stop.
 */
export function messagesStream(
  outputs: readonly ScriptedOutput[],
  options: { model: string; id: string; cwd: string; inputTokens: number },
): { sse: string; callIds: string[] } {
  const blocks = outputs.map((output) => nativeBlock(output, options.cwd));
  const outputTokens = 5 + blocks.length * 10;
  let body = event('message_start', {
    message: {
      id: options.id,
      type: 'message',
      role: 'assistant',
      model: options.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: options.inputTokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  });
  const callIds: string[] = [];
  blocks.forEach((block, index) => {
    if (block.kind === 'text') {
      body += event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      body += event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text ?? '' } });
    } else {
      const json = JSON.stringify(block.input ?? {});
      const half = Math.floor(json.length / 2);
      const id = `toolu_${options.id}_${index}`;
      callIds.push(id);
      body += event('content_block_start', { index, content_block: { type: 'tool_use', id, name: block.name, input: {} } });
      // Two chunks, so the client's partial-JSON assembly runs as it does against the real API.
      body += event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } });
      body += event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } });
    }
    body += event('content_block_stop', { index });
  });
  const stopReason = blocks.some((block) => block.kind === 'tool_use') ? 'tool_use' : 'end_turn';
  body += event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
  body += event('message_stop', {});
  return { sse: body, callIds };
}

/** A non-streamed Messages API answer (side calls that ask for one). */
export function messagesJson(text: string, options: { model: string; id: string; inputTokens: number }): Record<string, unknown> {
  return {
    id: options.id,
    type: 'message',
    role: 'assistant',
    model: options.model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: options.inputTokens, output_tokens: 3 },
  };
}

type Block = Record<string, unknown>;

function blocksOf(message: unknown): Block[] {
  if (typeof message !== 'object' || message === null) return [];
  const content = (message as { content?: unknown }).content;
  return Array.isArray(content) ? (content.filter((block) => typeof block === 'object' && block !== null) as Block[]) : [];
}

function toolResultsOf(message: unknown): ToolResult[] {
  return blocksOf(message)
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({ callId: String(block.tool_use_id), text: textOf(block.content), isError: block.is_error === true }));
}

/** Every tool result in the request's history, oldest first. */
export function messagesToolResults(body: Record<string, unknown>): ToolResult[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.flatMap(toolResultsOf);
}

export function messagesToolNames(body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return tools.map((tool: { name?: unknown }) => String(tool.name));
}

/** A rough input size, so the usage the client reports grows with the conversation. */
export function approximateTokens(rawBody: string): number {
  return Math.max(1, Math.round(rawBody.length / 4));
}
