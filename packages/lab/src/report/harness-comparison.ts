import type { Rate } from '@holdfast/core/contract';
import { compareRates, toRate } from '@holdfast/core/stats';
import type { RateComparison } from '@holdfast/core/stats';
import type { RoundState, RunState } from '../store/index.js';
import { computeTotals } from '../store/index.js';
import { aligned } from './format-totals.js';
import { formatRate } from './format-rate.js';

/**
 * One harness (a target of agent mode: Claude Code, Codex, Gemini CLI, a CLI agent) under one model,
 * over every run given: what landed when the rules were only told, and what the gate did when held.
 */
export interface HarnessRow {
  readonly model: string;
  /** The harness as the sessions name it (`claude-code 2.1.197`), else the target's provider. */
  readonly harness: string;
  readonly target: string;
  readonly runs: number;
  /** Told rounds where a violation landed (n: told rounds observed). */
  readonly toldLanded: Rate;
  /** Held rounds where a violation landed despite the gate (a leak). */
  readonly heldLanded: Rate;
  /** Held rounds where the gate blocked at least one call. */
  readonly heldBlocked: Rate;
  /** Held rounds where the gate let a call through that broke a rule at `enforcement: warn`, and told the model. */
  readonly heldWarned: Rate;
  /** Told landed − held landed, with Newcombe's 95% interval and Fisher's p: what the gate changed for this harness. */
  readonly gap: RateComparison;
}

interface Tally {
  model: string;
  harness: string;
  target: string;
  runs: Set<string>;
  told: { landed: number; n: number };
  held: { landed: number; n: number; blocked: number; warned: number };
}

/**
 * Whether a held round had a call blocked (or put back) and a rule at `enforcement: warn` let through: the
 * round's own totals (computeTotals of that one round), so a round counts here exactly when `holdfast report`
 * counts a blocked or warned for it, never by a second reading of the calls.
 */
function heldRound(round: RoundState): { blocked: boolean; warned: boolean } {
  const held = computeTotals({ rounds: [{ ...round, told: undefined }] }).arms.find((arm) => arm.arm === 'held');
  return { blocked: (held?.blocked ?? 0) > 0, warned: (held?.warned ?? 0) > 0 };
}

/**
 * Harnesses side by side, per model: "same model, which harness keeps our rules". Reads any number of
 * agent-mode runs (one with several harness targets, or one run per harness); a target of a plan or
 * loop run, or one without a session, is left out. The landed rates are the totals' own (computeTotals),
 * so this table and `holdfast report` never disagree.
 */
export function harnessComparison(states: readonly RunState[]): HarnessRow[] {
  const tallies = new Map<string, Tally>();
  for (const state of states) {
    const start = state.start;
    if (start === undefined) continue;
    const totals = computeTotals(state).arms;
    for (const target of start.targets) {
      const rounds = state.rounds.toArray().filter((round) => round.target === target.id);
      const sessions = rounds.flatMap((round) => [round.told, round.held]).filter((arm) => arm?.session !== undefined && arm.mode === 'agent');
      if (sessions.length === 0) continue;
      const model = target.model ?? 'model not named';
      const harness = sessions.find((arm) => arm?.session?.harness !== undefined)?.session?.harness ?? target.provider;
      const key = `${model}\u0000${harness}\u0000${target.id}`;
      const tally = tallies.get(key) ?? {
        model,
        harness,
        target: target.id,
        runs: new Set<string>(),
        told: { landed: 0, n: 0 },
        held: { landed: 0, n: 0, blocked: 0, warned: 0 },
      };
      tally.runs.add(start.runId);
      const told = totals.find((arm) => arm.target === target.id && arm.arm === 'told');
      const held = totals.find((arm) => arm.target === target.id && arm.arm === 'held');
      tally.told.landed += told?.roundsLanded.count ?? 0;
      tally.told.n += told?.roundsLanded.n ?? 0;
      tally.held.landed += held?.roundsLanded.count ?? 0;
      tally.held.n += held?.roundsLanded.n ?? 0;
      for (const round of rounds) {
        if (round.held?.session === undefined) continue;
        const calls = heldRound(round);
        if (calls.blocked) tally.held.blocked += 1;
        if (calls.warned) tally.held.warned += 1;
      }
      tallies.set(key, tally);
    }
  }
  return [...tallies.values()]
    .map((tally) => ({
      model: tally.model,
      harness: tally.harness,
      target: tally.target,
      runs: tally.runs.size,
      toldLanded: toRate(tally.told.landed, tally.told.n),
      heldLanded: toRate(tally.held.landed, tally.held.n),
      heldBlocked: toRate(tally.held.blocked, tally.held.n),
      heldWarned: toRate(tally.held.warned, tally.held.n),
      gap: compareRates(tally.told.landed, tally.told.n, tally.held.landed, tally.held.n),
    }))
    .sort((a, b) => a.model.localeCompare(b.model) || a.harness.localeCompare(b.harness) || a.target.localeCompare(b.target));
}

function percentPoints(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(Math.round(value * 100))} pp`;
}

function gapText(gap: RateComparison): string {
  if (gap.difference === null || gap.low === null || gap.high === null) return '–';
  return `${percentPoints(gap.difference)} [${percentPoints(gap.low)} to ${percentPoints(gap.high)}], p=${gap.pTwoSided.toFixed(3)}`;
}

const HEADER = ['harness', 'target', 'runs', 'told: landed', 'held: landed (leaks)', 'held: blocked', 'held: warned', 'told − held landed'] as const;

/** One table per model, a row per harness: every rate with its n and Wilson 95% interval; the gap with Newcombe's interval and Fisher's p. */
export function formatHarnessComparison(rows: readonly HarnessRow[], format: 'table' | 'md'): string {
  const models = [...new Set(rows.map((row) => row.model))];
  if (models.length === 0) return 'No agent-mode rounds in these run files: nothing to compare.';
  return models
    .map((model) => {
      const cells = rows
        .filter((row) => row.model === model)
        .map((row) => [
          row.harness,
          row.target,
          String(row.runs),
          formatRate(row.toldLanded),
          formatRate(row.heldLanded),
          formatRate(row.heldBlocked),
          formatRate(row.heldWarned),
          gapText(row.gap),
        ]);
      const title = `Model ${model}: which harness keeps the rules (rounds; 95% Wilson intervals)`;
      if (format === 'table') return `${title}\n${aligned(HEADER, cells)}`;
      const line = (row: readonly string[]) => `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
      return [`### ${title}`, '', line(HEADER), line(HEADER.map(() => '---')), ...cells.map(line)].join('\n');
    })
    .join('\n\n');
}
