import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { Action } from '@holdfast/core/contract';
import { applyHunks, readApplyPatch } from './apply-patch.js';
import { safeParsePreToolUse } from '../hook-event.js';
import type { PreToolUseEvent, SafeParse } from '../hook-event.js';
import { readShellCommand } from '../../shell/index.js';
import { opaqueEffect } from '../tool-kinds.js';
import { toRepoPath } from '../../io/index.js';
import type { ReadText } from '../../io/index.js';
import type { HookAnswer, ToolCall } from '../../decide/index.js';
import type { BeforeCallProtocol } from '../agent-adapter.js';

/**
 * Codex's tools that change no file. Codex's matchers are Rust regexes (no look-ahead), so its hooks
 * name the tools to watch instead: the shells, apply_patch and every MCP tool (`mcp__server__tool`).
 */
const CODEX_READ_ONLY_TOOLS: readonly string[] = [
  'update_plan',
  'view_image',
  'web_search',
  'list_mcp_resources',
  'read_mcp_resource',
  'list_mcp_resource_templates',
];

const CODEX_KNOWN_TOOLS = new Set(['apply_patch', 'Bash', 'shell', 'exec_command', 'write_stdin', 'local_shell', 'unified_exec']);

/** Codex's PreToolUse input: the common fields (session_id, cwd, …) and `tool_input.command`. */
export type CodexPreToolUse = PreToolUseEvent;

export function safeParseCodexEvent(text: string): SafeParse<CodexPreToolUse> {
  return safeParsePreToolUse(text, 'Codex');
}

function shellQuoted(word: string): string {
  return /^[A-Za-z0-9_./=:@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command as one shell command line. Codex may send an argv array: `["bash", "-lc", "npm test"]`
 * is its script; any other argv is quoted word by word, so `["git", "commit", "-m", "two words"]`
 * keeps its message in one piece.
 */
function commandText(value: unknown, tool: string): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) {
    const argv = value as string[];
    const shellIndex = argv.findIndex((part) => part === '-lc' || part === '-c');
    if (shellIndex >= 0 && shellIndex + 1 < argv.length) return argv.slice(shellIndex + 1).join(' ');
    return argv.map(shellQuoted).join(' ');
  }
  throw new InputError('E_HOOK_PAYLOAD', `the ${tool} tool input has no command string`);
}

const PATCH_START = '*** Begin Patch';

/** The actions of an apply_patch envelope, each update's new content computed from the file on disk. */
function patchActions(patch: string, cwd: string, readText: ReadText): Action[] {
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
    // The shell tools take a `workdir` the command runs in; paths are still judged from the root.
    const workdir = typeof event.tool_input.workdir === 'string' ? resolve(event.cwd, event.tool_input.workdir) : event.cwd;
    // Codex runs the command in a session (its hooks name exec_command `Bash`) that `write_stdin`, which
    // no hook sees, can type into later.
    const reading = readShellCommand(command, { root: event.cwd, cwd: workdir, readText, input: 'later-calls' });
    const patchAt = command.indexOf(PATCH_START);
    if (patchAt < 0) return { ...base, ...reading };
    // apply_patch run from the shell: the patch gets the same file rules as the tool itself, and the
    // rest of the command line (`… && git commit -n`) is read like any other shell command.
    return {
      ...base,
      actions: [...patchActions(command.slice(patchAt), event.cwd, readText), ...reading.actions],
      bypasses: reading.bypasses,
      unknownEffects: reading.unknownEffects.filter((effect) => !/^`apply_?patch\b/.test(effect)),
    };
  }
  return { ...base, actions: [], bypasses: [], unknownEffects: isCodexOpaqueTool(event.tool_name) ? [opaqueEffect(event.tool_name)] : [] };
}

function isCodexOpaqueTool(tool: string): boolean {
  return !CODEX_KNOWN_TOOLS.has(tool) && !CODEX_READ_ONLY_TOOLS.includes(tool);
}

/** Codex's shells, and `write_stdin` to a running one. */
const CODEX_SHELL_TOOLS: ReadonlySet<string> = new Set(['Bash', 'shell', 'exec_command', 'write_stdin', 'local_shell', 'unified_exec']);

/** Codex blocks a call only on exit 2 with a non-empty stderr, which it shows the model. */
function deny(reason: string): HookAnswer {
  return { stdout: '', stderr: `${reason.trim() === '' ? 'holdfast: denied' : reason}\n`, exitCode: 2 };
}

/** A warning: Codex's PreToolUse output (exit 0) with `additionalContext` for the model and no permission decision. */
function warn(message: string): HookAnswer {
  const output = { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: message } };
  return { stdout: `${JSON.stringify(output)}\n`, stderr: '', exitCode: 0 };
}

/** PreToolUse for Codex: its `cwd` is the project root (a shell's `workdir` is read per call). */
export const CODEX_BEFORE_CALL: BeforeCallProtocol = {
  readToolCall: (event, _root, readText) => readCodexToolCall(event, readText),
  deny,
  warn,
  isShellTool: (tool) => CODEX_SHELL_TOOLS.has(tool),
  isOpaqueTool: isCodexOpaqueTool,
};
