import { resolve } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import { inputString } from '../hook-event.js';
import type { PreToolUseEvent } from '../hook-event.js';
import { readBackgroundableShell } from '../background-shell.js';
import { opaqueEffect } from '../tool-kinds.js';
import { applyEdit } from '../apply-edit.js';
import { toRepoPath } from '../../io/index.js';
import type { ReadText } from '../../io/index.js';
import type { ToolCall } from '../../decide/index.js';
import type { BeforeCallProtocol } from '../agent-adapter.js';
import { CLAUDE_CODE_BEFORE_CALL } from '../claude-code/pre-tool-use.js';

/**
 * Qwen Code's tools that change no project file (the `ToolNames` of @qwen-code/qwen-code 0.24.4, and
 * the tools its requests declared: fixtures/traffic/qwen-code-0.24.4). Its hook matchers are regexes,
 * so the gate's matcher is every tool but these. `agent` is not here: its subagent types include
 * other CLIs (Claude Code, Codex) whose tool calls Qwen Code's hooks never see, so it is judged after
 * it ran; so are `tool_call` (it runs a deferred tool by name), `exec`, `workflow` and the worktree tools.
 */
export const QWEN_READ_ONLY_TOOLS: readonly string[] = [
  'read_file',
  'zoom_image',
  'grep_search',
  'glob',
  'list_directory',
  'lsp',
  'web_fetch',
  'web_search',
  'todo_write',
  'ask_user_question',
  'enter_plan_mode',
  'exit_plan_mode',
  'tool_search',
  'read_mcp_resource',
  'list_agents',
  'get_goal',
  'update_goal',
  'task_list',
  'cron_list',
];

/** Qwen Code's file-editing tools: judged before they run, from their input. */
export const QWEN_FILE_TOOLS: readonly string[] = ['write_file', 'edit', 'notebook_edit'];

const QWEN_SHELL_TOOL = 'run_shell_command';

function isQwenOpaqueTool(tool: string): boolean {
  return tool !== QWEN_SHELL_TOOL && !QWEN_FILE_TOOLS.includes(tool) && !QWEN_READ_ONLY_TOOLS.includes(tool);
}

/**
 * One Qwen Code PreToolUse event as the actions it would perform. The event's `cwd` is the session's
 * working directory (it does not follow a shell's `cd`); file paths are absolute; `run_shell_command`
 * takes a `directory` it runs in, and `is_background` returns before the command ends.
 */
function readQwenToolCall(event: PreToolUseEvent, readText: ReadText, root: string = event.cwd): ToolCall {
  const base = { agent: 'qwen-code' as const, session: event.session_id, cwd: root, tool: event.tool_name };
  const write = (filePath: string, content: string): Action => ({ type: 'write', path: toRepoPath(root, filePath), content });
  switch (event.tool_name) {
    case 'write_file':
      return { ...base, actions: [write(inputString(event, 'file_path'), inputString(event, 'content'))], bypasses: [], unknownEffects: [] };
    case 'edit': {
      const filePath = inputString(event, 'file_path');
      const before = readText(resolve(root, filePath)) ?? '';
      const edit = {
        old_string: inputString(event, 'old_string'),
        new_string: inputString(event, 'new_string'),
        replace_all: event.tool_input.replace_all === true,
      };
      return { ...base, actions: [write(filePath, applyEdit(before, edit))], bypasses: [], unknownEffects: [] };
    }
    case 'notebook_edit': {
      // The cell's new source is what the content rules must see; the notebook JSON around it is not code.
      const content = event.tool_input.edit_mode === 'delete' ? '' : inputString(event, 'new_source', { optional: true });
      return { ...base, actions: [write(inputString(event, 'notebook_path'), content)], bypasses: [], unknownEffects: [] };
    }
    case QWEN_SHELL_TOOL: {
      const shell = readBackgroundableShell(
        inputString(event, 'command'),
        inputString(event, 'directory', { optional: true }),
        event.tool_input.is_background === true,
        {
          root,
          readText,
        },
      );
      return { ...base, ...shell };
    }
    default:
      return { ...base, actions: [], bypasses: [], unknownEffects: isQwenOpaqueTool(event.tool_name) ? [opaqueEffect(event.tool_name)] : [] };
  }
}

export const QWEN_BEFORE_CALL: BeforeCallProtocol = {
  readToolCall: (event, root, readText) => readQwenToolCall(event, readText, root),
  // Qwen Code reads Claude Code's answers before a call: a permission decision "deny" (the reason is the
  // tool's error), and `additionalContext`, which it adds to what the model reads of the call.
  deny: CLAUDE_CODE_BEFORE_CALL.deny,
  warn: CLAUDE_CODE_BEFORE_CALL.warn,
  isShellTool: (tool) => tool === QWEN_SHELL_TOOL,
  isOpaqueTool: isQwenOpaqueTool,
};
