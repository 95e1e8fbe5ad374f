import { resolve } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import { inputString } from '../hook-event.js';
import type { PreToolUseEvent } from '../hook-event.js';
import { readBackgroundableShell } from '../background-shell.js';
import { opaqueEffect } from '../tool-kinds.js';
import { applyEdit } from '../apply-edit.js';
import { toRepoPath } from '../../io/index.js';
import type { ReadText } from '../../io/index.js';
import type { HookAnswer, ToolCall } from '../../decide/index.js';
import type { BeforeCallProtocol } from '../agent-adapter.js';

/**
 * Copilot CLI's tools that change no project file (the tools 1.0.102 declared to the model:
 * fixtures/traffic/copilot-1.0.102). `sql` writes the session's own database under ~/.copilot, which
 * the hook's tamper places cover; `stop_bash` only ends a shell session. `task`, `write_agent` and
 * `write_bash` are not here: a background agent or a running shell acts on files while other calls
 * go on, so each is judged after it ran, like a tool the gate does not know (an MCP server's).
 */
const COPILOT_READ_ONLY_TOOLS: readonly string[] = [
  'view',
  'grep',
  'glob',
  'read_bash',
  'list_bash',
  'stop_bash',
  'read_agent',
  'list_agents',
  'fetch_copilot_cli_documentation',
  'skill',
  'sql',
  'session_store_sql',
  'report_intent',
];

/** Copilot CLI's file-editing tools: judged before they run, from their input. */
const COPILOT_FILE_TOOLS: readonly string[] = ['create', 'edit'];

const COPILOT_SHELL_TOOL = 'bash';

function isCopilotOpaqueTool(tool: string): boolean {
  return tool !== COPILOT_SHELL_TOOL && !COPILOT_FILE_TOOLS.includes(tool) && !COPILOT_READ_ONLY_TOOLS.includes(tool);
}

/**
 * One Copilot CLI preToolUse event as the actions it would perform. File paths are absolute; `edit`
 * replaces exactly one occurrence of `old_str`. `bash` runs in a shell session that outlives the call
 * (a `cd` stays for the next call of that session), so the command is read from the project root and
 * judged again after it ran; `mode: "async"` or `detach` returns before the command ends.
 */
function readCopilotToolCall(event: PreToolUseEvent, readText: ReadText, root: string = event.cwd): ToolCall {
  const base = { agent: 'copilot-cli' as const, session: event.session_id, cwd: root, tool: event.tool_name };
  const write = (filePath: string, content: string): Action => ({ type: 'write', path: toRepoPath(root, filePath), content });
  switch (event.tool_name) {
    case 'create':
      return { ...base, actions: [write(inputString(event, 'path'), inputString(event, 'file_text'))], bypasses: [], unknownEffects: [] };
    case 'edit': {
      const filePath = inputString(event, 'path');
      const before = readText(resolve(root, filePath)) ?? '';
      const edit = { old_string: inputString(event, 'old_str'), new_string: inputString(event, 'new_str', { optional: true }), replace_all: false };
      return { ...base, actions: [write(filePath, applyEdit(before, edit))], bypasses: [], unknownEffects: [] };
    }
    case COPILOT_SHELL_TOOL: {
      const background = event.tool_input.mode === 'async' || event.tool_input.detach === true;
      return { ...base, ...readBackgroundableShell(inputString(event, 'command'), '', background, { root, readText }) };
    }
    default:
      return { ...base, actions: [], bypasses: [], unknownEffects: isCopilotOpaqueTool(event.tool_name) ? [opaqueEffect(event.tool_name)] : [] };
  }
}

/** Copilot CLI reads `permissionDecision: "deny"` on stdout (exit 0): the call does not run and the model reads "Denied by preToolUse hook: <reason>". */
function deny(reason: string): HookAnswer {
  return { stdout: `${JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: reason })}\n`, stderr: '', exitCode: 0 };
}

/**
 * A warning: no permission decision (an "allow" would skip the person's own approval of the call) and
 * `additionalContext`, which Copilot CLI adds to what the model reads of the call.
 */
function warn(message: string): HookAnswer {
  return { stdout: `${JSON.stringify({ additionalContext: message })}\n`, stderr: '', exitCode: 0 };
}

export const COPILOT_BEFORE_CALL: BeforeCallProtocol = {
  readToolCall: (event, root, readText) => readCopilotToolCall(event, readText, root),
  deny,
  warn,
  isShellTool: (tool) => tool === COPILOT_SHELL_TOOL,
  isOpaqueTool: isCopilotOpaqueTool,
};
