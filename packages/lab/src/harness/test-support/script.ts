/**
 * What a scripted model says in one turn, in a form that does not depend on the wire protocol:
 * text, a named tool call with the client's own tool name and input, or one of two shorthands the
 * server maps to each client's native tool (`shell` → Claude Code `Bash` / Codex `exec_command`;
 * `writeFile` → Claude Code `Write` / Codex `apply_patch` with an Add File hunk; `editFile` → Claude
 * Code `Edit` / Codex `apply_patch` with an Update File hunk). Paths are relative to the repository.
 */
export type ScriptedOutput =
  | { readonly text: string }
  | { readonly tool: string; readonly input: unknown }
  | { readonly shell: string }
  | { readonly writeFile: { readonly path: string; readonly content: string } }
  | { readonly editFile: { readonly path: string; readonly oldText: string; readonly newText: string } };

export type ScriptedReply = ScriptedOutput | readonly ScriptedOutput[];

export type WireProtocol = 'anthropic-messages' | 'openai-responses' | 'gemini-generate' | 'openai-chat';

/** A tool's result as the client sent it back to the model, flattened to text. */
export interface ToolResult {
  readonly callId: string;
  readonly text: string;
  /** Claude Code marks refused and failed calls with `is_error`; Codex has no such flag (always false). */
  readonly isError: boolean;
}

/** One main-loop model request, as a script step sees it. */
export interface ModelTurn {
  readonly protocol: WireProtocol;
  /** 0 for the first main-loop request of the run, then 1, 2, … */
  readonly turn: number;
  /** The request body as the client sent it. */
  readonly body: Record<string, unknown>;
  /** Tool results carried by this request's newest input (the previous turn's calls), in order. */
  readonly toolResults: readonly ToolResult[];
  /** Every tool result anywhere in this request's history, oldest first. */
  readonly allToolResults: readonly ToolResult[];
  /** The tool names the client declared (`Bash`, `Write`, … or `exec_command`, `apply_patch`, …). */
  readonly toolNames: readonly string[];
}

export type ScriptStep = ScriptedReply | ((turn: ModelTurn) => ScriptedReply);

/** What the model says when the script has no step left: it stops, and the run records why. */
export const SCRIPT_EXHAUSTED = 'scripted model: no step left in the script';

export function repliesOf(reply: ScriptedReply): readonly ScriptedOutput[] {
  return Array.isArray(reply) ? (reply as readonly ScriptedOutput[]) : [reply as ScriptedOutput];
}

/** The apply_patch envelope that adds one file, the way Codex models write it. */
export function addFilePatch(path: string, content: string): string {
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return ['*** Begin Patch', `*** Add File: ${path}`, ...lines.map((line) => `+${line}`), '*** End Patch', ''].join('\n');
}

/** The apply_patch envelope that replaces lines of one file (whole lines: `oldText` as it stands in the file). */
export function updateFilePatch(path: string, oldText: string, newText: string): string {
  const lines = (text: string, sign: string) => (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n').map((line) => `${sign}${line}`);
  return ['*** Begin Patch', `*** Update File: ${path}`, '@@', ...lines(oldText, '-'), ...lines(newText, '+'), '*** End Patch', ''].join('\n');
}

export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('');
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.text === 'string') return record.text;
    if ('content' in record) return textOf(record.content);
    if ('output' in record) return textOf(record.output);
  }
  return '';
}
