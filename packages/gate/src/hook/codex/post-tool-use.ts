import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { jsonOrUndefined } from '@holdfast/core/contract';
import type { AfterCallProtocol } from '../agent-adapter.js';
import type { HookEvent } from '../hook-event.js';
import type { ShellOutcome } from '../shell-outcome.js';
import { blockDecision } from '../turn-answers.js';

/** How much of the end of a Codex session log is read: the call just ended, so its record is near the end. */
const TRANSCRIPT_TAIL_BYTES = 1 << 20;
const LATE_LOG_WAITS = 4;
const LATE_LOG_WAIT_MS = 50;

/**
 * Codex sends `PostToolUse` either way, with the output but no exit status; the status is in its
 * session log (`transcript_path`), already written when the hook runs: an `item_completed` event
 * whose `CommandExecution` item has the call's id and `exit_code`
 * (fixtures/traffic/codex-0.171.0/exec-command-failing). A status that cannot be found there counts
 * as a failure: a test run counts for R6 only when it is known not to have failed.
 */
export function codexShellOutcome(event: HookEvent, readTail: (path: string) => string = readFileTail): ShellOutcome {
  const path = event.raw.transcript_path;
  const id = event.raw.tool_use_id;
  if (typeof path !== 'string' || typeof id !== 'string') return { failed: true, ending: 'Codex sent no session log to read its exit status from' };
  let tail: string;
  try {
    tail = readTail(path);
  } catch (error) {
    return {
      failed: true,
      ending: `its exit status could not be read (Codex's session log ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`,
    };
  }
  let code = codexExitCode(tail, id);
  // Codex writes the record before it runs the hooks (as recorded); a log written a moment late gets a few short waits.
  for (let wait = 0; code === undefined && wait < LATE_LOG_WAITS; wait += 1) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, LATE_LOG_WAIT_MS);
    code = codexExitCode(readTail(path), id);
  }
  if (code === undefined) return { failed: true, ending: `its exit status is not in Codex's session log ${path}` };
  return code === 0 ? { failed: false } : { failed: true, ending: `exit code ${code}` };
}

/** The exit code Codex recorded for a command execution item, the last record of it in the log text. */
export function codexExitCode(log: string, id: string): number | undefined {
  const needle = JSON.stringify(id);
  const lines = log.split('\n');
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index] as string;
    if (!line.includes(needle) || !line.includes('"exit_code"')) continue;
    const item = itemOf(jsonOrUndefined(line));
    if (item?.type === 'CommandExecution' && item.id === id && typeof item.exit_code === 'number') return item.exit_code;
  }
  return undefined;
}

function itemOf(record: unknown): Record<string, unknown> | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const payload = (record as Record<string, unknown>).payload;
  if (typeof payload !== 'object' || payload === null || (payload as Record<string, unknown>).type !== 'item_completed') return undefined;
  const item = (payload as Record<string, unknown>).item;
  return typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : undefined;
}

/** The last TRANSCRIPT_TAIL_BYTES of a file (a session log grows for as long as the session runs). */
function readFileTail(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TRANSCRIPT_TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const count = readSync(fd, buffer, read, length - read, size - length + read);
      if (count === 0) break;
      read += count;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Codex reads `{"decision":"block","reason"}` after a call as feedback for the model. */
export const CODEX_AFTER_CALL: AfterCallProtocol = { tell: (_event, reason) => blockDecision(reason), shellOutcome: (event) => codexShellOutcome(event) };
