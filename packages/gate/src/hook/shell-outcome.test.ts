import { describe, expect, it } from 'vitest';
import { safeParseHookEvent } from './hook-event.js';
import type { HookEvent } from './hook-event.js';
import { claudeShellOutcome } from './claude-code/post-tool-use.js';
import { codexExitCode, codexShellOutcome } from './codex/post-tool-use.js';

function event(fields: Record<string, unknown>): HookEvent {
  const parsed = safeParseHookEvent(JSON.stringify({ session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command: 'npm test' }, ...fields }), 'test');
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

const record = (id: string, exitCode: unknown) =>
  JSON.stringify({ type: 'event_msg', payload: { type: 'item_completed', item: { type: 'CommandExecution', id, exit_code: exitCode } } });

describe('shellOutcome', () => {
  it('reads Claude Code: PostToolUse passed, PostToolUseFailure failed with the exit code its error starts with', () => {
    expect(claudeShellOutcome(event({ hook_event_name: 'PostToolUse' }))).toEqual({ failed: false });
    expect(claudeShellOutcome(event({ hook_event_name: 'PostToolUseFailure', error: 'Exit code 2\nboom' }))).toEqual({
      failed: true,
      ending: 'exit code 2',
    });
    expect(claudeShellOutcome(event({ hook_event_name: 'PostToolUseFailure', error: 'Command timed out' }))).toEqual({
      failed: true,
      ending: 'it failed',
    });
    expect(claudeShellOutcome(event({ hook_event_name: 'PostToolUseFailure' }))).toEqual({ failed: true, ending: 'it failed' });
  });

  it('reads Codex from its session log, and counts a status it cannot find as a failure', () => {
    const post = (log: string | Error, fields: Record<string, unknown> = {}) =>
      codexShellOutcome(event({ hook_event_name: 'PostToolUse', tool_use_id: 'call_7', transcript_path: '/log.jsonl', ...fields }), () => {
        if (log instanceof Error) throw log;
        return log;
      });
    expect(post(`${record('call_7', 0)}\n`)).toEqual({ failed: false });
    expect(post(`${record('call_7', 0)}\n${record('call_7', 4)}\n`)).toEqual({ failed: true, ending: 'exit code 4' });
    expect(post(`${record('call_8', 0)}\n`)).toEqual({ failed: true, ending: "its exit status is not in Codex's session log /log.jsonl" });
    expect(post(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toEqual({
      failed: true,
      ending: "its exit status could not be read (Codex's session log /log.jsonl: ENOENT)",
    });
    expect(post('', { transcript_path: null })).toEqual({ failed: true, ending: 'Codex sent no session log to read its exit status from' });
  });
});

describe('codexExitCode', () => {
  it('takes only a completed CommandExecution item of that id with a numeric exit code, and skips lines it cannot read', () => {
    const other = JSON.stringify({ type: 'event_msg', payload: { type: 'item_started', item: { type: 'CommandExecution', id: 'call_1', exit_code: 9 } } });
    const log = [record('call_1', 3), other, '{"torn": "call_1" "exit_code"', record('call_1', '0'), record('call_10', 0), ''].join('\n');
    expect(codexExitCode(log, 'call_1')).toBe(3);
    expect(codexExitCode(log, 'call_2')).toBeUndefined();
  });
});
