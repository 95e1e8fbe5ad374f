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
 * Gemini CLI's tools that change no project file (docs/reference/tools.md of @google/gemini-cli
 * 0.61.0). Its hook matchers are JavaScript regexes, so the gate's matcher is every tool but these.
 * The tracker and memory tools write under ~/.gemini, which the hook's tamper places cover.
 */
export const GEMINI_READ_ONLY_TOOLS: readonly string[] = [
  'read_file',
  'read_many_files',
  'list_directory',
  'glob',
  'grep_search',
  'search_file_content',
  'google_web_search',
  'web_fetch',
  'write_todos',
  'ask_user',
  'activate_skill',
  'get_internal_docs',
  'enter_plan_mode',
  'exit_plan_mode',
  'complete_task',
  'update_topic',
  'tracker_create_task',
  'tracker_update_task',
  'tracker_get_task',
  'tracker_list_tasks',
  'tracker_add_dependency',
  'tracker_visualize',
  'list_mcp_resources',
  'read_mcp_resource',
  'list_background_processes',
  'read_background_output',
];

/** Gemini CLI's file-editing tools: judged before they run, from their input. */
export const GEMINI_FILE_TOOLS: readonly string[] = ['write_file', 'replace'];

const GEMINI_SHELL_TOOL = 'run_shell_command';

function isGeminiOpaqueTool(tool: string): boolean {
  return tool !== GEMINI_SHELL_TOOL && !GEMINI_FILE_TOOLS.includes(tool) && !GEMINI_READ_ONLY_TOOLS.includes(tool);
}

/**
 * One Gemini CLI BeforeTool event as the actions it would perform. The event's `cwd` is the
 * project's working directory (it does not follow a shell's `cd`); `run_shell_command` takes a
 * `dir_path` it runs in, and `is_background` returns before the command ends.
 */
function readGeminiToolCall(event: PreToolUseEvent, readText: ReadText, root: string = event.cwd): ToolCall {
  const base = { agent: 'gemini-cli' as const, session: event.session_id, cwd: root, tool: event.tool_name };
  const write = (filePath: string, content: string): Action => ({ type: 'write', path: toRepoPath(root, filePath), content });
  switch (event.tool_name) {
    case 'write_file':
      return { ...base, actions: [write(inputString(event, 'file_path'), inputString(event, 'content'))], bypasses: [], unknownEffects: [] };
    case 'replace': {
      const filePath = inputString(event, 'file_path');
      const before = readText(resolve(root, filePath)) ?? '';
      const edit = {
        old_string: inputString(event, 'old_string'),
        new_string: inputString(event, 'new_string'),
        replace_all: event.tool_input.allow_multiple === true,
      };
      return { ...base, actions: [write(filePath, applyEdit(before, edit))], bypasses: [], unknownEffects: [] };
    }
    case GEMINI_SHELL_TOOL: {
      const shell = readBackgroundableShell(
        inputString(event, 'command'),
        inputString(event, 'dir_path', { optional: true }),
        event.tool_input.is_background === true,
        {
          root,
          readText,
        },
      );
      return { ...base, ...shell };
    }
    default:
      return { ...base, actions: [], bypasses: [], unknownEffects: isGeminiOpaqueTool(event.tool_name) ? [opaqueEffect(event.tool_name)] : [] };
  }
}

/** Gemini CLI reads `{"decision":"deny","reason"}` (exit 0) before a tool: the call does not run and the reason goes to the model as the tool's error. */
function deny(reason: string): HookAnswer {
  return { stdout: `${JSON.stringify({ decision: 'deny', reason })}\n`, stderr: '', exitCode: 0 };
}

/**
 * A warning: `{"decision":"allow"}` with the message as `systemMessage` (shown in the session) and as
 * `additionalContext`. Gemini CLI 0.61 hands a hook's additionalContext to the model only after a tool
 * (AfterTool), so before a file tool the person reads the warning and the audit records it.
 */
function warn(message: string): HookAnswer {
  const output = { decision: 'allow', systemMessage: message, hookSpecificOutput: { hookEventName: 'BeforeTool', additionalContext: message } };
  return { stdout: `${JSON.stringify(output)}\n`, stderr: '', exitCode: 0 };
}

export const GEMINI_BEFORE_CALL: BeforeCallProtocol = {
  readToolCall: (event, root, readText) => readGeminiToolCall(event, readText, root),
  deny,
  warn,
  isShellTool: (tool) => tool === GEMINI_SHELL_TOOL,
  isOpaqueTool: isGeminiOpaqueTool,
};
