import { resolve } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import { inputEdits, inputString, safeParsePreToolUse } from '../hook-event.js';
import type { PreToolUseEvent, SafeParse } from '../hook-event.js';
import { readShellCommand } from '../../shell/index.js';
import { opaqueEffect } from '../tool-kinds.js';
import { applyEdit } from '../apply-edit.js';
import { toRepoPath } from '../../io/index.js';
import type { ReadText } from '../../io/index.js';
import type { HookAnswer, ToolCall } from '../../decide/index.js';
import type { BeforeCallProtocol } from '../agent-adapter.js';

/**
 * Claude Code's tools that change no file, by every name a hook matcher is tested against (a tool's
 * old names stay aliases: `Task` for `Agent`, `KillShell` for `TaskStop`). The hooks never see them,
 * so they cost nothing. A subagent (`Agent`) is not watched as a whole: its own tool calls are
 * hooked one by one. Every tool not named here, and not a file-editing tool judged before it runs,
 * is judged after the fact like a shell command: an MCP server's tools, and any tool a later release adds.
 */
export const CLAUDE_READ_ONLY_TOOLS: readonly string[] = [
  'Read',
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'TodoRead',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'ExitPlanMode',
  'EnterPlanMode',
  'AskUserQuestion',
  'Agent',
  'Task',
  'TaskOutput',
  'BashOutput',
  'BashOutputTool',
  'AgentOutput',
  'AgentOutputTool',
  'TaskStop',
  'KillShell',
  'KillBash',
  'ListMcpResourcesTool',
  'ListMcpResources',
  'ReadMcpResourceTool',
  'ReadMcpResource',
  'ReadMcpResourceDirTool',
  'ReadMcpResourceDir',
  'ToolSearch',
  'Skill',
  'SlashCommand',
  'ListAgents',
  'ListPeers',
  'SendUserMessage',
  'Brief',
  'LSP',
];

/** Claude Code's file-editing tools: judged before they run, from their input. */
export const CLAUDE_FILE_TOOLS: readonly string[] = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'];

/** Claude Code's PreToolUse input (hooks reference): common fields, then the tool and its arguments. */
export type ClaudePreToolUse = PreToolUseEvent;
export type { SafeParse } from '../hook-event.js';

export function safeParseClaudeEvent(text: string): SafeParse<ClaudePreToolUse> {
  return safeParsePreToolUse(text, 'Claude Code');
}

/**
 * Turns one Claude Code PreToolUse event into the actions it would perform. `root` is the project
 * root (CLAUDE_PROJECT_DIR); the event's `cwd` is where the Bash tool currently is, which moves with `cd`.
 */
export function readClaudeToolCall(event: ClaudePreToolUse, readText: ReadText, root: string = event.cwd): ToolCall {
  const cwd = root;
  const base = { agent: 'claude-code' as const, session: event.session_id, cwd, tool: event.tool_name };
  const write = (filePath: string, content: string): Action => ({ type: 'write', path: toRepoPath(cwd, filePath), content });
  switch (event.tool_name) {
    case 'Write':
      return { ...base, actions: [write(inputString(event, 'file_path'), inputString(event, 'content'))], bypasses: [], unknownEffects: [] };
    case 'Edit': {
      const filePath = inputString(event, 'file_path');
      const before = readText(resolve(cwd, filePath)) ?? '';
      const edit = {
        old_string: inputString(event, 'old_string'),
        new_string: inputString(event, 'new_string'),
        replace_all: event.tool_input.replace_all === true,
      };
      return { ...base, actions: [write(filePath, applyEdit(before, edit))], bypasses: [], unknownEffects: [] };
    }
    case 'MultiEdit': {
      const filePath = inputString(event, 'file_path');
      const before = readText(resolve(cwd, filePath)) ?? '';
      const after = inputEdits(event).reduce((content, edit) => applyEdit(content, edit), before);
      return { ...base, actions: [write(filePath, after)], bypasses: [], unknownEffects: [] };
    }
    case 'NotebookEdit': {
      // The cell's new source is what the content rules must see; the notebook JSON around it is not code.
      const content = event.tool_input.edit_mode === 'delete' ? '' : inputString(event, 'new_source', { optional: true });
      return { ...base, actions: [write(inputString(event, 'notebook_path'), content)], bypasses: [], unknownEffects: [] };
    }
    case 'Bash': {
      const command = inputString(event, 'command');
      const reading = readShellCommand(command, { root, cwd: event.cwd, readText });
      if (event.tool_input.run_in_background !== true || reading.unknownEffects.length === 0) return { ...base, ...reading };
      // The call returns while the command runs on: what only the check after the call could judge, it would miss.
      const segment = command.trim().length <= 200 ? command.trim() : `${command.trim().slice(0, 199)}…`;
      const reason = `\`${segment}\` runs in the background (run_in_background) with effects that can only be judged after it ends, and it may still be running (and writing) when the check after this call looks; run it in the foreground`;
      return { ...base, ...reading, bypasses: [...reading.bypasses, { segment, reason }] };
    }
    default:
      // An MCP server's tool (or any tool not known to be read-only) may write files: judged after it ran.
      return { ...base, actions: [], bypasses: [], unknownEffects: isClaudeOpaqueTool(event.tool_name) ? [opaqueEffect(event.tool_name)] : [] };
  }
}

function isClaudeOpaqueTool(tool: string): boolean {
  return tool !== 'Bash' && !CLAUDE_FILE_TOOLS.includes(tool) && !CLAUDE_READ_ONLY_TOOLS.includes(tool);
}

/** Claude Code reads a refusal as a JSON permission decision on stdout (exit 0), its reason shown to the model. */
function deny(reason: string): HookAnswer {
  const output = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
  return { stdout: `${JSON.stringify(output)}\n`, stderr: '', exitCode: 0 };
}

/**
 * A warning: no permission decision (the person's permission rules still apply, as without the hook) and
 * `additionalContext`, which Claude Code adds to what the model reads with the tool's result.
 */
function warn(message: string): HookAnswer {
  const output = { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: message } };
  return { stdout: `${JSON.stringify(output)}\n`, stderr: '', exitCode: 0 };
}

/** PreToolUse for Claude Code: `root` is CLAUDE_PROJECT_DIR (the event's cwd moves with the Bash tool's `cd`). */
export const CLAUDE_CODE_BEFORE_CALL: BeforeCallProtocol = {
  readToolCall: (event, root, readText) => readClaudeToolCall(event, readText, root),
  deny,
  warn,
  isShellTool: (tool) => tool === 'Bash',
  isOpaqueTool: isClaudeOpaqueTool,
};
