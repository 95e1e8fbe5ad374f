import type { ScriptedOutput, ToolResult } from './script.js';
import { textOf } from './script.js';

/** Tool names Gemini CLI declared (`tools[].functionDeclarations[].name`). */
export function geminiToolNames(body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Record<string, unknown>[]) : [];
  return tools.flatMap((tool) =>
    (Array.isArray(tool.functionDeclarations) ? (tool.functionDeclarations as Record<string, unknown>[]) : []).flatMap((declaration) =>
      typeof declaration.name === 'string' ? [declaration.name] : [],
    ),
  );
}

/**
 * Every `functionResponse` in the request's `contents`, oldest first. Gemini CLI sends a result as
 * `response.output` and a refused or failed call as `response.error`
 * (fixtures/traffic/gemini-cli-0.61.0/…/requests).
 */
export function geminiToolResults(body: Record<string, unknown>): ToolResult[] {
  const contents = Array.isArray(body.contents) ? (body.contents as Record<string, unknown>[]) : [];
  return contents.flatMap((content) =>
    (Array.isArray(content.parts) ? (content.parts as Record<string, unknown>[]) : []).flatMap((part) => {
      const call = part.functionResponse as Record<string, unknown> | undefined;
      if (typeof call !== 'object' || call === null) return [];
      const response = (typeof call.response === 'object' && call.response !== null ? call.response : {}) as Record<string, unknown>;
      const isError = 'error' in response;
      return [{ callId: String(call.id ?? call.name), text: textOf(isError ? response.error : response.output), isError }];
    }),
  );
}

function part(output: ScriptedOutput, id: string): Record<string, unknown> {
  if ('text' in output) return { text: output.text };
  if ('shell' in output) return { functionCall: { id, name: 'run_shell_command', args: { command: output.shell, description: 'scripted' } } };
  if ('writeFile' in output) return { functionCall: { id, name: 'write_file', args: { file_path: output.writeFile.path, content: output.writeFile.content } } };
  if ('editFile' in output) {
    return {
      functionCall: {
        id,
        name: 'replace',
        args: { file_path: output.editFile.path, old_string: output.editFile.oldText, new_string: output.editFile.newText },
      },
    };
  }
  return { functionCall: { id, name: output.tool, args: output.input } };
}

/**
 * One Gemini API answer (`:streamGenerateContent?alt=sse` as one SSE chunk, or `:generateContent`
 * as JSON): a candidate whose parts are text or function calls, and usage metadata.
 */
export function geminiAnswer(
  outputs: readonly ScriptedOutput[],
  options: { id: string; model: string; inputTokens: number },
): { json: Record<string, unknown>; callIds: string[] } {
  const parts = outputs.map((output, index) => part(output, `${options.id}_${index}`));
  const json = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: options.inputTokens,
      candidatesTokenCount: 5 + parts.length * 10,
      totalTokenCount: options.inputTokens + 5 + parts.length * 10,
    },
    modelVersion: options.model,
  };
  const callIds = parts.flatMap((each) => (typeof each.functionCall === 'object' ? [String((each.functionCall as { id: string }).id)] : []));
  return { json, callIds };
}
