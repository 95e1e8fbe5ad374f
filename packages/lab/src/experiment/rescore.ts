import type { ArmResult, ParsedReply, RunEvent, Rulebook, Verdict } from '@holdfast/core/contract';
import { checkActions, observedRuns } from '@holdfast/core/rules';
import { reduceRunEvents } from '../store/index.js';
import type { RoundState, RunState } from '../store/index.js';
import type { ApprovalDecision } from './approvals.js';
import { holdArm, tellArm } from './arm.js';
import type { CommitGate } from './arm.js';

export interface VerdictChange {
  readonly roundId: string;
  readonly target: string;
  readonly task: string;
  readonly rep: number;
  readonly arm: 'told' | 'held';
  readonly before: Verdict;
  readonly after: Verdict;
  readonly reason: string;
}

export interface RescoreResult {
  readonly before: RunState;
  readonly rounds: RoundState[];
  readonly changes: VerdictChange[];
}

/** The reply as it was read, rebuilt from the recorded arm (the actions are kept in full, skipped ones too). */
function recordedReply(result: ArmResult): ParsedReply | undefined {
  const parse = result.parse;
  if (parse === undefined) return undefined;
  if (parse.kind === 'declined') return { kind: 'declined', reason: parse.reason ?? result.reason, ...(parse.method ? { method: parse.method } : {}) };
  if (parse.kind === 'unparseable') return { kind: 'unparseable', reason: parse.reason ?? result.reason };
  return {
    kind: 'actions',
    method: parse.method ?? 'json',
    actions: result.actions.map((outcome) => outcome.action),
    ...(result.reasoning !== undefined ? { reasoning: result.reasoning } : {}),
  };
}

async function rejudge(result: ArmResult, files: readonly string[], rulebook: Rulebook, humanGate: boolean, provider: string | undefined): Promise<ArmResult> {
  if (result.mode === 'agent') {
    // Agent mode's reading (its audit timeline, the gate's log format) loads only for a run that has agent arms.
    const { rescoreAgentArm } = await import('./agent/rescore-agent-arm.js');
    return rescoreAgentArm(result, rulebook, { existing: files, judgesOrder: provider === 'claude-code' || provider === 'codex' });
  }
  // A loop session's verdict rests on the repository it left, which is gone: it stays as recorded.
  if (result.session !== undefined) return result;
  const parsed = recordedReply(result);
  // An arm that ended in an error (the provider, the sandbox) has no complete record to re-judge;
  // one that passed its sandbox's size cap was decided by a landing that is gone.
  if (parsed === undefined || result.verdict === 'error' || result.verdict === 'over-cap') return result;
  // How the sandbox's commands really ended is part of the record: R6 judges it again the same way.
  const observed = observedRuns(result.sandbox?.commands ?? []);
  const checks = parsed.kind === 'actions' ? await checkActions(parsed.actions, files, rulebook, observed) : [];
  const input = { parsed, checks, ...(result.generation !== undefined ? { generation: result.generation } : {}) };
  if (result.arm === 'told') return tellArm(input);
  // Replays the person's recorded answers; a commit nobody was asked about fails closed under a human gate.
  const gate: CommitGate = async (_commit, _files, index): Promise<ApprovalDecision> => {
    const recorded = result.actions[index];
    if (recorded?.status === 'refused') return { decision: 'refused', by: 'person' };
    if (recorded?.status === 'applied' || recorded?.status === 'warned' || !humanGate) return { decision: 'approved', by: 'auto' };
    return { decision: 'refused', by: 'timeout' };
  };
  return holdArm({ ...input, rulebook }, gate);
}

/**
 * Re-checks every recorded action list with `rulebook`, without calling a model: the told arm is
 * relabelled, the held arm re-enforced (recorded approval answers are replayed). A recorded agent
 * arm is re-judged on its final diff and timeline (see rescoreAgentArm); loop arms are kept as
 * recorded.
 */
export async function rescoreRun(events: readonly RunEvent[], rulebook: Rulebook): Promise<RescoreResult> {
  const before = reduceRunEvents(events);
  const files = new Map((before.start?.tasks ?? []).map((task) => [task.id, Object.keys(task.files)]));
  const providers = new Map((before.start?.targets ?? []).map((target) => [target.id, target.provider]));
  const humanGate = before.start !== undefined && before.start.config.approve !== 'auto';
  const rounds: RoundState[] = [];
  const changes: VerdictChange[] = [];
  for (const round of before.rounds) {
    const next: { told?: ArmResult; held?: ArmResult } = {};
    for (const arm of ['told', 'held'] as const) {
      const recorded = round[arm];
      if (recorded === undefined) continue;
      const after = await rejudge(recorded, files.get(round.task) ?? [], rulebook, humanGate, providers.get(round.target));
      next[arm] = after;
      if (after.verdict !== recorded.verdict) {
        changes.push({
          roundId: round.roundId,
          target: round.target,
          task: round.task,
          rep: round.rep,
          arm,
          before: recorded.verdict,
          after: after.verdict,
          reason: after.reason,
        });
      }
    }
    // Judge grades are advisory and stay as recorded: rescoring re-checks deterministic rules only.
    rounds.push({
      roundId: round.roundId,
      target: round.target,
      task: round.task,
      rep: round.rep,
      ...next,
      ...(round.judged !== undefined ? { judged: round.judged } : {}),
    });
  }
  return { before, rounds, changes };
}
