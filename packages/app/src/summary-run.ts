import { RunEventSchema, safeParseJson } from '@holdfast/core/contract';
import type { ArmEndEvent, ArmResult, RunEvent } from '@holdfast/core/contract';
import { computeTotals, reduceRunEvents } from '@holdfast/lab/store';

/**
 * An arm's result cut to what the strip and the round list draw: arm, verdict, reason, how the
 * reply parsed, the error and the mode. Still a valid ArmResult (actions and checks are empty), so
 * the browser reads a summary with the reducer it uses for every run; totals cannot be computed
 * from it, which is why the summary carries the server's.
 */
function summaryArmResult(result: ArmResult): ArmResult {
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
 * The summary view of a run file (`?view=summary`), from its lean JSONL: the run as the reducer
 * ends up with it, in as few events as say so. The last run-start; then each round in the run's
 * order as its final arm results, cut by `summaryArmResult` (a round with no result yet as its
 * round-start); then the approval events and the run end as they were; then one totals event
 * computed here from every round. Events are numbered afresh from 0 (a summary is not resumed).
 * Lines that are not run events are passed on as they were, after the events, a torn last line
 * still last and unterminated, so the reader reports the same problems as with the file.
 */
export function summarizeRunText(lean: string): string {
  return summarizeRunLines(lean.split('\n'));
}

/** The same, from the lean text's lines (its split on newlines: the last is what follows the last newline). */
export function summarizeRunLines(leanLines: Iterable<string>): string {
  const unreadable: string[] = [];
  const events: RunEvent[] = [];
  const armEnds = new Map<ArmResult, ArmEndEvent>();
  let pending: string | undefined;
  for (const next of leanLines) {
    const line = pending;
    pending = next;
    if (line === undefined) continue;
    const json = safeParseJson(line);
    if (!json.ok) {
      unreadable.push(line);
      continue;
    }
    const parsed = RunEventSchema.safeParse(json.value);
    if (!parsed.success) {
      unreadable.push(line);
      continue;
    }
    events.push(parsed.data);
    if (parsed.data.type === 'arm-end') armEnds.set(parsed.data.result, parsed.data);
  }
  const torn = pending ?? '';
  const state = reduceRunEvents(events);
  const out: RunEvent[] = [];
  const start = events.findLast((event) => event.type === 'run-start');
  if (start !== undefined) out.push(start);
  for (const round of state.rounds) {
    const results = [round.told, round.held].filter((result): result is ArmResult => result !== undefined);
    if (results.length === 0) {
      const { roundId, target, task, rep } = round;
      out.push({ seq: 0, time: start?.time ?? '', runId: state.runId ?? '', type: 'round-start', roundId, target, task, rep });
    }
    for (const result of results) {
      const event = armEnds.get(result);
      if (event !== undefined) out.push({ ...event, result: summaryArmResult(result) });
    }
  }
  for (const event of events) if (event.type === 'approval-request' || event.type === 'approval-end') out.push(event);
  const end = events.findLast((event) => event.type === 'run-end');
  if (end !== undefined && state.end !== undefined) out.push(end);
  if (state.runId !== undefined && state.start !== undefined) {
    out.push({ seq: 0, time: events.at(-1)?.time ?? state.start.time, runId: state.runId, type: 'totals', totals: computeTotals(state) });
  }
  const numbered = out.map((event, seq) => JSON.stringify({ ...event, seq }));
  return [...numbered, ...unreadable].map((line) => `${line}\n`).join('') + torn;
}
