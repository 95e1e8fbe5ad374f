import type { ScriptedOutput, ToolResult } from './script.js';
import { addFilePatch, textOf, updateFilePatch } from './script.js';

function event(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** How the client declared a tool: `function` tools take JSON arguments, `custom` (freeform) ones raw text. */
export type ToolKinds = ReadonlyMap<string, 'function' | 'custom'>;

export function responsesToolKinds(body: Record<string, unknown>): ToolKinds {
  const kinds = new Map<string, 'function' | 'custom'>();
  for (const tool of Array.isArray(body.tools) ? body.tools : []) {
    if (typeof tool !== 'object' || tool === null) continue;
    const { type, name } = tool as { type?: unknown; name?: unknown };
    if (typeof name === 'string' && (type === 'function' || type === 'custom')) kinds.set(name, type);
  }
  return kinds;
}

function nativeItem(output: ScriptedOutput, kinds: ToolKinds, id: string): Record<string, unknown> {
  if ('text' in output) {
    return { type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: output.text, annotations: [] }] };
  }
  let name: string;
  let input: unknown;
  if ('shell' in output) {
    name = 'exec_command';
    input = { cmd: output.shell };
  } else if ('writeFile' in output) {
    name = 'apply_patch';
    input = addFilePatch(output.writeFile.path, output.writeFile.content);
  } else if ('editFile' in output) {
    name = 'apply_patch';
    input = updateFilePatch(output.editFile.path, output.editFile.oldText, output.editFile.newText);
  } else {
    name = output.tool;
    input = output.input;
  }
  const callId = `call_${id}`;
  if (kinds.get(name) === 'custom') {
    return {
      type: 'custom_tool_call',
      id: `ctc_${id}`,
      call_id: callId,
      name,
      input: typeof input === 'string' ? input : JSON.stringify(input),
      status: 'completed',
    };
  }
  return {
    type: 'function_call',
    id: `fc_${id}`,
    call_id: callId,
    name,
    arguments: typeof input === 'string' ? input : JSON.stringify(input),
    status: 'completed',
  };
}

/**
 * A streamed Responses API answer: response.created, output_item.added and .done for each item
 * (a message, a function_call with JSON arguments, or a custom_tool_call with freeform input, by how
 * the client declared the tool), then response.completed with usage.
 */
export function responsesStream(
  outputs: readonly ScriptedOutput[],
  options: { model: string; id: string; kinds: ToolKinds; inputTokens: number },
): { sse: string; callIds: string[] } {
  const items = outputs.map((output, index) => nativeItem(output, options.kinds, `${options.id}_${index}`));
  const response = { id: `resp_${options.id}`, object: 'response', created_at: 0, status: 'in_progress', model: options.model, output: [] as unknown[] };
  let body = event('response.created', { response });
  items.forEach((item, index) => {
    const opened = item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : { ...item, status: 'in_progress' };
    body += event('response.output_item.added', { output_index: index, item: opened });
    if (item.type === 'message') {
      const text = textOf(item.content);
      body += event('response.output_text.delta', { item_id: item.id, output_index: index, content_index: 0, delta: text });
      body += event('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text });
    }
    body += event('response.output_item.done', { output_index: index, item });
  });
  const outputTokens = 5 + items.length * 10;
  body += event('response.completed', {
    response: {
      ...response,
      status: 'completed',
      output: items,
      usage: {
        input_tokens: options.inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: options.inputTokens + outputTokens,
      },
    },
  });
  const callIds = items.flatMap((item) => (typeof item.call_id === 'string' ? [item.call_id] : []));
  return { sse: body, callIds };
}

const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);

/** Every tool output in the request's history, oldest first. */
export function responsesToolResults(body: Record<string, unknown>): ToolResult[] {
  const input = Array.isArray(body.input) ? (body.input as Record<string, unknown>[]) : [];
  return input
    .filter((item) => OUTPUT_TYPES.has(String(item.type)))
    .map((item) => ({ callId: String(item.call_id), text: textOf(item.output), isError: false }));
}
