import type {
  ApprovalEndEvent,
  ApprovalRequestEvent,
  Arm,
  ArmResult,
  JudgeEvent,
  Judgement,
  RunConfig,
  RunEndEvent,
  RunEvent,
  RunStartEvent,
  Rulebook,
  TargetInfo,
  TaskInfo,
  Totals,
} from '@holdfast/core/contract';
import { PersistentList } from './persistent-list.js';

export interface RoundState {
  readonly roundId: string;
  readonly target: string;
  readonly task: string;
  readonly rep: number;
  readonly told?: ArmResult;
  readonly held?: ArmResult;
  /** Judge-graded rules per arm: advisory, kept apart from the arm's verdict. */
  readonly judged?: { readonly told?: readonly Judgement[]; readonly held?: readonly Judgement[] };
}

export interface RunStartInfo {
  readonly runId: string;
  readonly time: string;
  readonly config: RunConfig;
  readonly rulebook: Rulebook;
  readonly tasks: readonly TaskInfo[];
  readonly targets: readonly TargetInfo[];
  readonly demo?: string;
  /** Why the figures can differ from another output of the same replies (a replay without its recording's sandbox). */
  readonly notes?: readonly string[];
  /** With a sandbox: how model-written commands were confined. */
  readonly isolation?: RunStartEvent['isolation'];
}

export interface ApprovalState {
  readonly approvalId: string;
  readonly roundId: string;
  readonly target: string;
  readonly task: string;
  readonly rep: number;
  /** Absent only when the end arrived without its request (a file that starts mid-run). */
  readonly request?: Pick<ApprovalRequestEvent, 'arm' | 'message' | 'files' | 'deadline' | 'time'>;
  readonly end?: Pick<ApprovalEndEvent, 'decision' | 'by' | 'time'>;
}

export interface RunState {
  /** The first run-start's runId, else the first event's. */
  readonly runId?: string;
  readonly start?: RunStartInfo;
  /** Rounds in the order they started. */
  readonly rounds: PersistentList<RoundState>;
  /** Approval requests still waiting for an answer, in request order. */
  readonly pendingApprovals: readonly ApprovalState[];
  readonly finishedApprovals: PersistentList<ApprovalState>;
  /** The latest totals event, as the producer computed it. */
  readonly totals?: Totals;
  readonly end?: Pick<RunEndEvent, 'status' | 'reason' | 'time' | 'failedTargets'>;
  /** -1 before any event. */
  readonly lastSeq: number;
  readonly events: number;
  /** roundId → position in `rounds`. Shared between states; read it only through `findRound`. */
  readonly roundIndex: ReadonlyMap<string, number>;
}

export function initialRunState(): RunState {
  return {
    rounds: PersistentList.empty(),
    pendingApprovals: [],
    finishedApprovals: PersistentList.empty(),
    lastSeq: -1,
    events: 0,
    roundIndex: new Map(),
  };
}

/**
 * The position of a round in `state.rounds`, or -1. The index map is append-only and shared by
 * every state derived from the same initial state (copying it per event would be O(n)), so a hit
 * is confirmed against this state's own list; a miss that could be stale falls back to a scan.
 */
export function findRound(state: RunState, roundId: string): number {
  const position = state.roundIndex.get(roundId);
  if (position === undefined) return -1;
  if (state.rounds.at(position)?.roundId === roundId) return position;
  let index = 0;
  for (const round of state.rounds) {
    if (round.roundId === roundId) return index;
    index += 1;
  }
  return -1;
}

function withRound(state: RunState, key: { roundId: string; target: string; task: string; rep: number }, update: (round: RoundState) => RoundState): RunState {
  const position = findRound(state, key.roundId);
  if (position >= 0) {
    const current = state.rounds.at(position);
    if (current === undefined) return state;
    return { ...state, rounds: state.rounds.set(position, update(current)) };
  }
  const fresh: RoundState = { roundId: key.roundId, target: key.target, task: key.task, rep: key.rep };
  (state.roundIndex as Map<string, number>).set(key.roundId, state.rounds.length);
  return { ...state, rounds: state.rounds.push(update(fresh)) };
}

function withArm(round: RoundState, arm: Arm, result: ArmResult): RoundState {
  return arm === 'told' ? { ...round, told: result } : { ...round, held: result };
}

/** A later grade of the same rule (`holdfast judge FILE` with a new rubric) replaces the earlier one. */
function withJudgements(round: RoundState, event: JudgeEvent): RoundState {
  const graded = new Set(event.judgements.map((judgement) => judgement.rule));
  const kept = (round.judged?.[event.arm] ?? []).filter((judgement) => !graded.has(judgement.rule));
  return { ...round, judged: { ...round.judged, [event.arm]: [...kept, ...event.judgements] } };
}

function requestApproval(state: RunState, event: ApprovalRequestEvent): RunState {
  const approval: ApprovalState = {
    approvalId: event.approvalId,
    roundId: event.roundId,
    target: event.target,
    task: event.task,
    rep: event.rep,
    request: { arm: event.arm, message: event.message, files: event.files, deadline: event.deadline, time: event.time },
  };
  const others = state.pendingApprovals.filter((pending) => pending.approvalId !== event.approvalId);
  return { ...state, pendingApprovals: [...others, approval] };
}

function endApproval(state: RunState, event: ApprovalEndEvent): RunState {
  const pending = state.pendingApprovals.find((candidate) => candidate.approvalId === event.approvalId);
  const base: ApprovalState = pending ?? {
    approvalId: event.approvalId,
    roundId: event.roundId,
    target: event.target,
    task: event.task,
    rep: event.rep,
  };
  const finished: ApprovalState = { ...base, end: { decision: event.decision, by: event.by, time: event.time } };
  return {
    ...state,
    pendingApprovals: pending ? state.pendingApprovals.filter((candidate) => candidate !== pending) : state.pendingApprovals,
    finishedApprovals: state.finishedApprovals.push(finished),
  };
}

function applyEvent(state: RunState, event: RunEvent): RunState {
  switch (event.type) {
    case 'run-start': {
      const start: RunStartInfo = {
        runId: event.runId,
        time: event.time,
        config: event.config,
        rulebook: event.rulebook,
        tasks: event.tasks,
        targets: event.targets,
        ...(event.demo === undefined ? {} : { demo: event.demo }),
        ...(event.notes === undefined ? {} : { notes: event.notes }),
        ...(event.isolation === undefined ? {} : { isolation: event.isolation }),
      };
      // A second run-start is a resume: the rounds already recorded stay, and the run is live again.
      const { end: _previousEnd, ...rest } = state;
      return { ...rest, start };
    }
    case 'round-start':
      // A round started again (a resumed run retries it) starts over without its old arm results.
      return withRound(state, event, (round) => ({ roundId: round.roundId, target: event.target, task: event.task, rep: event.rep }));
    case 'arm-end':
      return withRound(state, event, (round) => withArm(round, event.result.arm, event.result));
    case 'judge':
      return withRound(state, event, (round) => withJudgements(round, event));
    case 'approval-request':
      return requestApproval(state, event);
    case 'approval-end':
      return endApproval(state, event);
    case 'totals':
      return { ...state, totals: event.totals };
    case 'run-end':
      return {
        ...state,
        end: {
          status: event.status,
          ...(event.reason !== undefined ? { reason: event.reason } : {}),
          time: event.time,
          ...(event.failedTargets !== undefined ? { failedTargets: event.failedTargets } : {}),
        },
      };
  }
}

/**
 * The one reducer the CLI, the server and the browser share. Pure: it never changes `state`, and
 * returns a new top-level object whenever an event changes anything. An event whose seq is not
 * after `lastSeq` was already applied (an SSE reconnect replays from the last id it saw), so it
 * returns `state` itself.
 */
export function reduceRunEvent(state: RunState, event: RunEvent): RunState {
  if (event.seq <= state.lastSeq) return state;
  const next = applyEvent(state, event);
  return { ...next, runId: next.runId ?? event.runId, lastSeq: event.seq, events: state.events + 1 };
}

export function reduceRunEvents(events: Iterable<RunEvent>, state: RunState = initialRunState()): RunState {
  let current = state;
  for (const event of events) current = reduceRunEvent(current, event);
  return current;
}
