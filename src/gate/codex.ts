import { resolve } from 'node:path';
import { InputError } from '../contract/errors.js';
import type { Action } from '../contract/index.js';
import { applyHunks, readApplyPatch } from './apply-patch.js';
import { safeParsePreToolUse } from './hook-event.js';
import type { PreToolUseEvent, SafeParse } from './hook-event.js';
import { readShellCommand } from './shell-command.js';
import { toRepoPath } from './tool-call.js';
import type { ReadText, ToolCall } from './tool-call.js';

/** Codex's PreToolUse input: the common fields (session_id, cwd, …) and `tool_input.command`. */
export type CodexPreToolUse = PreToolUseEvent;

export function safeParseCodexEvent(text: string): SafeParse<CodexPreToolUse> {
  return safeParsePreToolUse(text, 'Codex');
}

export function parseCodexEvent(text: string): CodexPreToolUse {
  const result = safeParseCodexEvent(text);
  if (!result.ok) throw result.error;
  return result.value;
}

/** The command as one string: Codex may send an argv array such as `["bash", "-lc", "npm test"]`. */
function commandText(value: unknown, tool: string): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) {
    const argv = value as string[];
    const shellIndex = argv.findIndex((part) => part === '-lc' || part === '-c');
    if (shellIndex >= 0 && shellIndex + 1 < argv.length) return argv.slice(shellIndex + 1).join(' ');
    return argv.join(' ');
  }
  throw new InputError('E_HOOK_PAYLOAD', `the ${tool} tool input has no command string`);
}

const PATCH_START = '*** Begin Patch';

/** The actions of an apply_patch envelope, each update's new content computed from the file on disk. */
export function patchActions(patch: string, cwd: string, readText: ReadText): Action[] {
  const actions: Action[] = [];
  for (const operation of readApplyPatch(patch)) {
    switch (operation.kind) {
      case 'add':
        actions.push({ type: 'write', path: toRepoPath(cwd, operation.path), content: operation.content });
        break;
      case 'delete':
        actions.push({ type: 'delete', path: toRepoPath(cwd, operation.path) });
        break;
      case 'update': {
        const content = applyHunks(readText(resolve(cwd, operation.path)), operation.hunks);
        if (operation.moveTo === undefined) {
          actions.push({ type: 'write', path: toRepoPath(cwd, operation.path), content });
        } else {
          actions.push({ type: 'write', path: toRepoPath(cwd, operation.moveTo), content });
          actions.push({ type: 'delete', path: toRepoPath(cwd, operation.path) });
        }
        break;
      }
    }
  }
  return actions;
}

export function readCodexToolCall(event: CodexPreToolUse, readText: ReadText): ToolCall {
  const base = { agent: 'codex' as const, session: event.session_id, cwd: event.cwd, tool: event.tool_name };
  if (event.tool_name === 'apply_patch') {
    const patch = commandText(event.tool_input.command ?? event.tool_input.patch ?? event.tool_input.input, event.tool_name);
    return { ...base, actions: patchActions(patch, event.cwd, readText), bypasses: [], unknownEffects: [] };
  }
  if (event.tool_name === 'Bash' || event.tool_name === 'shell' || event.tool_name === 'exec_command') {
    const command = commandText(event.tool_input.command ?? event.tool_input.cmd, event.tool_name);
    // A model that runs apply_patch from the shell gets the same file rules as the tool itself.
    const patchAt = command.indexOf(PATCH_START);
    if (patchAt >= 0) return { ...base, actions: patchActions(command.slice(patchAt), event.cwd, readText), bypasses: [], unknownEffects: [] };
    const reading = readShellCommand(command);
    return { ...base, actions: reading.actions, bypasses: reading.bypass === undefined ? [] : [reading.bypass], unknownEffects: [] };
  }
  return { ...base, actions: [], bypasses: [], unknownEffects: [] };
}
