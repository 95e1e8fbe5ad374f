import { resolve } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import type { HookAnswer } from '../../decide/index.js';
import { inputString } from '../hook-event.js';
import type { PreToolUseEvent } from '../hook-event.js';
import { readShellCommand } from '../../shell/index.js';
import { opaqueEffect } from '../tool-kinds.js';
import { applyEdit } from '../apply-edit.js';
import { toRepoPath } from '../../io/index.js';
import type { ReadText } from '../../io/index.js';
import type { ToolCall } from '../../decide/index.js';
import type { BeforeCallProtocol } from '../agent-adapter.js';

/**
 * OpenCode's tools that change no project file (the tools opencode-ai 1.18.33 declared to the model:
 * fixtures/traffic/opencode-1.18.33). Every plugin sees every call, so this list only decides what
 * the gate reads as opaque: `task` (a subagent, whose own calls reach the same plugin), `skill`, an
 * MCP server's tools and a tool a later release adds are judged after they ran.
 */
export const OPENCODE_READ_ONLY_TOOLS: readonly string[] = [
  'read',
  'glob',
  'grep',
  'list',
  'webfetch',
  'websearch',
  'codesearch',
  'todowrite',
  'todoread',
  'question',
];

/** OpenCode's file-editing tools: judged before they run, from their input. */
export const OPENCODE_FILE_TOOLS: readonly string[] = ['write', 'edit'];

const OPENCODE_SHELL_TOOL = 'bash';

function isOpenCodeOpaqueTool(tool: string): boolean {
  return tool !== OPENCODE_SHELL_TOOL && !OPENCODE_FILE_TOOLS.includes(tool) && !OPENCODE_READ_ONLY_TOOLS.includes(tool);
}

/**
 * One `tool.execute.before` as the actions it would perform. holdfast's plugin sends the call as
 * OpenCode hands it over (`tool`, `sessionID`, `callID`, `args`) with the plugin's `directory` as the
 * `cwd`; OpenCode's file paths may be relative to it or absolute, and `bash` takes a `workdir`.
 */
function readOpenCodeToolCall(event: PreToolUseEvent, readText: ReadText, root: string = event.cwd): ToolCall {
  const base = { agent: 'opencode' as const, session: event.session_id, cwd: root, tool: event.tool_name };
  const write = (filePath: string, content: string): Action => ({ type: 'write', path: toRepoPath(root, resolve(root, filePath)), content });
  switch (event.tool_name) {
    case 'write':
      return { ...base, actions: [write(inputString(event, 'filePath'), inputString(event, 'content'))], bypasses: [], unknownEffects: [] };
    case 'edit': {
      const filePath = inputString(event, 'filePath');
      const before = readText(resolve(root, filePath)) ?? '';
      const edit = {
        old_string: inputString(event, 'oldString'),
        new_string: inputString(event, 'newString'),
        replace_all: event.tool_input.replaceAll === true,
      };
      return { ...base, actions: [write(filePath, applyEdit(before, edit))], bypasses: [], unknownEffects: [] };
    }
    case OPENCODE_SHELL_TOOL: {
      const workdir = inputString(event, 'workdir', { optional: true });
      const reading = readShellCommand(inputString(event, 'command'), { root, cwd: workdir === '' ? root : resolve(root, workdir), readText });
      return { ...base, ...reading };
    }
    default:
      return { ...base, actions: [], bypasses: [], unknownEffects: isOpenCodeOpaqueTool(event.tool_name) ? [opaqueEffect(event.tool_name)] : [] };
  }
}

/**
 * A refusal, as holdfast's plugin reads it: it throws an Error with the reason, OpenCode does not run
 * the call and the model reads the message as the tool's result.
 */
function openCodeDeny(reason: string): HookAnswer {
  return { stdout: `${JSON.stringify({ decision: 'deny', reason })}\n`, stderr: '', exitCode: 0 };
}

/** Text for the model with the call's result: the plugin appends `message` to the tool's output (after the call, for a warning before it). */
export function openCodeMessage(message: string): HookAnswer {
  return { stdout: `${JSON.stringify({ message })}\n`, stderr: '', exitCode: 0 };
}

export const OPENCODE_BEFORE_CALL: BeforeCallProtocol = {
  readToolCall: (event, root, readText) => readOpenCodeToolCall(event, readText, root),
  deny: openCodeDeny,
  warn: openCodeMessage,
  isShellTool: (tool) => tool === OPENCODE_SHELL_TOOL,
  isOpaqueTool: isOpenCodeOpaqueTool,
};
