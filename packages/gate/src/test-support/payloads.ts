import { writeFileSync } from 'node:fs';
/**
 * Hook events as the agents send them, built from the public hook documentation: Claude Code's
 * PreToolUse input (session_id, transcript_path, cwd, permission_mode, hook_event_name, tool_name,
 * tool_input, tool_use_id) and Codex's (session_id, turn_id, transcript_path, cwd, hook_event_name,
 * model, tool_name, tool_use_id, tool_input.command). Paths are absolute, as the agents send them.
 */
export function claudeEvent(root: string, session: string, toolName: string, toolInput: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: `${root}/.claude/transcript-${session}.jsonl`,
    cwd: root,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: `toolu_${toolName}_01`,
  });
}

export const claude = {
  write: (root: string, session: string, path: string, content: string) => claudeEvent(root, session, 'Write', { file_path: `${root}/${path}`, content }),
  edit: (root: string, session: string, path: string, oldString: string, newString: string, replaceAll = false) =>
    claudeEvent(root, session, 'Edit', { file_path: `${root}/${path}`, old_string: oldString, new_string: newString, replace_all: replaceAll }),
  multiEdit: (root: string, session: string, path: string, edits: { old_string: string; new_string: string; replace_all?: boolean }[]) =>
    claudeEvent(root, session, 'MultiEdit', { file_path: `${root}/${path}`, edits }),
  notebookEdit: (root: string, session: string, path: string, newSource: string) =>
    claudeEvent(root, session, 'NotebookEdit', {
      notebook_path: `${root}/${path}`,
      cell_id: 'cell-1',
      new_source: newSource,
      cell_type: 'code',
      edit_mode: 'replace',
    }),
  bash: (root: string, session: string, command: string) => claudeEvent(root, session, 'Bash', { command, description: 'run it', timeout: 120000 }),
  read: (root: string, session: string, path: string) => claudeEvent(root, session, 'Read', { file_path: `${root}/${path}` }),
};

export function codexEvent(root: string, session: string, toolName: string, command: unknown): string {
  return JSON.stringify({
    session_id: session,
    turn_id: 'turn-1',
    transcript_path: null,
    cwd: root,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5-codex',
    tool_name: toolName,
    tool_use_id: `call_${toolName}_01`,
    tool_input: { command },
  });
}

export const codex = {
  bash: (root: string, session: string, command: string | string[]) => codexEvent(root, session, 'Bash', command),
  applyPatch: (root: string, session: string, patch: string) => codexEvent(root, session, 'apply_patch', patch),
};

/** The PostToolUse Claude Code sends once a Bash call ended with exit 0, paired with its PreToolUse by tool_use_id. */
export function claudeBashPassed(root: string, session: string, command: string): string {
  return JSON.stringify({
    ...JSON.parse(claude.bash(root, session, command)),
    hook_event_name: 'PostToolUse',
    tool_response: { stdout: '', stderr: '', interrupted: false },
  });
}

/** Codex's PostToolUse for a shell call that exited 0: its status is in the session log the event names, written here. */
export function codexBashPassed(root: string, session: string, command: string | string[], log: string): string {
  const event = JSON.parse(codex.bash(root, session, command)) as { tool_use_id: string };
  const item = {
    type: 'CommandExecution',
    id: event.tool_use_id,
    command: Array.isArray(command) ? command : ['/bin/bash', '-lc', command],
    status: 'completed',
    exit_code: 0,
  };
  writeFileSync(log, `${JSON.stringify({ type: 'event_msg', payload: { type: 'item_completed', item } })}\n`);
  return JSON.stringify({ ...event, hook_event_name: 'PostToolUse', transcript_path: log, tool_response: 'output' });
}
