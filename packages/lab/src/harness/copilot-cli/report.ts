import { jsonOrUndefined } from '@holdfast/core/contract';
import { capped, numberOrUndefined } from '../report.js';
import type { HarnessReader, HarnessReport } from '../report.js';

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Folds what `copilot -p --output-format json` prints (Copilot CLI 1.0.102), one JSON event a line, as
 * it arrives: `assistant.turn_start` opens a model turn, `assistant.message` carries what the model
 * said (`content`), `tool.execution_complete` a call's outcome (`success: false` for a call a hook
 * refused or that failed), `result` the end (`exitCode`, `sessionId`). It reports no tokens and no
 * cost. Copilot CLI has no turn cap of its own: turns are counted as they stream, so the run's cap
 * stops it.
 */
export function createCopilotReader(): HarnessReader {
  let turns = 0;
  let failedCalls = 0;
  let finalMessage: string | undefined;
  let exitCode: number | undefined;
  let sessionId: string | undefined;
  let seen = false;
  return {
    push(line) {
      const event = record(jsonOrUndefined(line));
      const data = record(event.data);
      if (typeof event.type === 'string') seen = true;
      if (event.type === 'assistant.turn_start') turns += 1;
      else if (event.type === 'assistant.message' && typeof data.content === 'string' && data.content.trim() !== '') finalMessage = data.content;
      else if (event.type === 'tool.execution_complete' && data.success === false) failedCalls += 1;
      else if (event.type === 'result') {
        exitCode = numberOrUndefined(event.exitCode);
        if (typeof event.sessionId === 'string') sessionId = event.sessionId;
      }
    },
    turns: () => turns,
    report(): HarnessReport {
      if (!seen) return {};
      return {
        turns,
        deniedCalls: failedCalls,
        ending: exitCode === undefined ? 'no result' : exitCode === 0 ? 'success' : `error: exit code ${exitCode}`,
        ...(finalMessage !== undefined ? { finalMessage: capped(finalMessage) } : {}),
        ...(sessionId !== undefined ? { sessionId } : {}),
      };
    },
  };
}

/** The whole stdout of one run, read at once (the scripted runs of the tests). */
export function readCopilotResult(stdout: string): HarnessReport {
  const reader = createCopilotReader();
  for (const line of stdout.split('\n')) reader.push(line);
  return reader.report(stdout);
}
