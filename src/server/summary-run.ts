import { RunEventSchema } from '../contract/index.js';
import type { ArmResult, RunEvent } from '../contract/index.js';
import { computeTotals, reduceRunEvents } from '../store/browser.js';

/**
 * An arm's result cut to what the strip and the round list draw: arm, verdict, reason, how the
 * reply parsed, the error and the mode. Still a valid ArmResult (actions and checks are empty), so
 * the browser reads a summary with the reducer it uses for every run; totals cannot be computed
 * from it, which is why the summary carries the server's.
 */
export function summaryArmResult(result: ArmResult): ArmResult {
  return {
    arm: result.arm,
    verdict: result.verdict,
    reason: result.reason,
    actions: [],
    checks: [],
    ...(result.parse !== undefined ? { parse: result.parse } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.mode !== undefined ? { mode: result.mode } : {}),
  };
}

/**
 * The summary view of a run file (`?view=summary`), from its lean JSONL: every line in order, arm
 * results cut by `summaryArmResult`, the file's own totals events left out, and one totals event
 * computed here from every round (with seq one past the last) at the end. A line that is not a
 * run event is passed on unchanged, so the reader reports the same problems as with the file.
 * A 5,000-round run is a tenth of its lean size and validates in a fraction of the time.
 */
export function summarizeRunText(lean: string): string {
  const out: string[] = [];
  const events: RunEvent[] = [];
  const lines = lean.split('\n');
  // A torn last line (no newline) stays last and unterminated, so the reader still sees it cut off.
  const torn = lines.pop() ?? '';
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch {
      out.push(line);
      continue;
    }
    const parsed = RunEventSchema.safeParse(value);
    if (!parsed.success) {
      out.push(line);
      continue;
    }
    const event = parsed.data;
    events.push(event);
    if (event.type === 'totals') continue;
    out.push(event.type === 'arm-end' ? JSON.stringify({ ...event, result: summaryArmResult(event.result) }) : line);
  }
  const state = reduceRunEvents(events);
  if (state.runId !== undefined && state.start !== undefined) {
    const last = events.reduce((max, event) => Math.max(max, event.seq), -1);
    const time = events.at(-1)?.time ?? state.start.time;
    const totals: RunEvent = { seq: last + 1, time, runId: state.runId, type: 'totals', totals: computeTotals(state) };
    out.push(JSON.stringify(totals));
  }
  return out.map((line) => `${line}\n`).join('') + torn;
}
