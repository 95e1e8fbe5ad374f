import { isAbsolute, join } from 'node:path';
import type { ScriptedOutput, ToolResult } from './script.js';
import { textOf } from './script.js';

/** Tool names the client declared (`tools[].function.name`). */
export function chatToolNames(body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Record<string, unknown>[]) : [];
  return tools.flatMap((tool) => {
    const declared = tool.function as Record<string, unknown> | undefined;
    return typeof declared === 'object' && declared !== null && typeof declared.name === 'string' ? [declared.name] : [];
  });
}

/**
 * Every `role: "tool"` message in the request, oldest first. Qwen Code sends a result's text as
 * `content: [{type: "text", text}]` and marks no error (fixtures/traffic/qwen-code-0.24.4/…/requests).
 */
export function chatToolResults(body: Record<string, unknown>): ToolResult[] {
  const messages = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
  return messages
    .filter((message) => message.role === 'tool')
    .map((message) => ({ callId: String(message.tool_call_id), text: textOf(message.content), isError: false }));
}

/** Qwen Code's, Copilot CLI's and OpenCode's file tools take absolute paths: a script's repository-relative path is made absolute against the run's folder. */
function absolute(cwd: string, path: string): string {
  return isAbsolute(path) || cwd === '' ? path : join(cwd, path);
}

/**
 * A shorthand as the client's own tool: Copilot CLI's (`bash`, `create`, `edit`, told apart by the tools it
 * declared) or Qwen Code's (`run_shell_command`, `write_file`, `edit`).
 */
function call(output: Exclude<ScriptedOutput, { text: string }>, cwd: string, toolNames: readonly string[]): { name: string; input: unknown } {
  if (toolNames.includes('create') && toolNames.includes('bash')) {
    if ('shell' in output) return { name: 'bash', input: { command: output.shell, description: 'scripted', mode: 'sync' } };
    if ('writeFile' in output) return { name: 'create', input: { path: absolute(cwd, output.writeFile.path), file_text: output.writeFile.content } };
    if ('editFile' in output) {
      return { name: 'edit', input: { path: absolute(cwd, output.editFile.path), old_str: output.editFile.oldText, new_str: output.editFile.newText } };
    }
  }
  // OpenCode (`write`, `edit`, `bash`, camelCase fields; fixtures/traffic/opencode-1.18.33).
  if (toolNames.includes('write') && toolNames.includes('bash')) {
    if ('shell' in output) return { name: 'bash', input: { command: output.shell, description: 'scripted' } };
    if ('writeFile' in output) return { name: 'write', input: { filePath: absolute(cwd, output.writeFile.path), content: output.writeFile.content } };
    if ('editFile' in output) {
      return {
        name: 'edit',
        input: { filePath: absolute(cwd, output.editFile.path), oldString: output.editFile.oldText, newString: output.editFile.newText },
      };
    }
  }
  if ('shell' in output) return { name: 'run_shell_command', input: { command: output.shell, description: 'scripted' } };
  if ('writeFile' in output) return { name: 'write_file', input: { file_path: absolute(cwd, output.writeFile.path), content: output.writeFile.content } };
  if ('editFile' in output) {
    return {
      name: 'edit',
      input: { file_path: absolute(cwd, output.editFile.path), old_string: output.editFile.oldText, new_string: output.editFile.newText },
    };
  }
  return { name: output.tool, input: output.input };
}

/**
 * A streamed chat completion (`stream: true`, usage in the last chunk as `stream_options.include_usage`
 * asks): one chunk with the text and the tool calls, one with the finish reason and usage, `[DONE]`.
 */
export function chatStream(
  outputs: readonly ScriptedOutput[],
  options: { model: string; id: string; cwd: string; inputTokens: number; toolNames: readonly string[] },
): { sse: string; callIds: string[] } {
  const text = outputs.flatMap((output) => ('text' in output ? [output.text] : [])).join('');
  const calls = outputs.flatMap((output, index) => {
    if ('text' in output) return [];
    const { name, input } = call(output, options.cwd, options.toolNames);
    return [
      { index, id: `call_${options.id}_${index}`, type: 'function', function: { name, arguments: typeof input === 'string' ? input : JSON.stringify(input) } },
    ];
  });
  const base = { id: `chatcmpl-${options.id}`, object: 'chat.completion.chunk', created: 0, model: options.model };
  const delta = {
    role: 'assistant',
    ...(text !== '' ? { content: text } : {}),
    ...(calls.length > 0 ? { tool_calls: calls.map((each, index) => ({ ...each, index })) } : {}),
  };
  const outputTokens = 5 + outputs.length * 10;
  const chunks = [
    { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
    {
      ...base,
      choices: [{ index: 0, delta: {}, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: options.inputTokens, completion_tokens: outputTokens, total_tokens: options.inputTokens + outputTokens },
    },
  ];
  const sse = `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
  return { sse, callIds: calls.map((each) => each.id) };
}

/** The same answer unstreamed, for a request without `stream: true`. */
export function chatJson(text: string, options: { model: string; id: string; inputTokens: number }): Record<string, unknown> {
  return {
    id: `chatcmpl-${options.id}`,
    object: 'chat.completion',
    created: 0,
    model: options.model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: options.inputTokens, completion_tokens: 5, total_tokens: options.inputTokens + 5 },
  };
}
