import { readAuditEntry } from '@holdfast/gate';
import { readFileSync } from 'node:fs';
import type { Action, CheckResult, ToolCallRecord, ToolDecision } from '@holdfast/core/contract';
import type { TimelineStep } from '../final-state.js';
import { auditLogPath } from '@holdfast/gate';
import { capText } from '../../sandbox/index.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

const INPUT_CAP_BYTES = 4 * 1024;

/** The fields of an audit line this reader relies on; anything else the gate adds is ignored. */
interface AuditLine {
  readonly time: string;
  readonly tool: string;
  readonly event?: string;
  readonly action: string;
  readonly rule: string | null;
  readonly name?: string;
  readonly decision: 'allow' | 'deny' | 'allowed-by-person' | 'observed' | 'reverted' | 'warned';
  /** Every rule behind the decision, when more than one. */
  readonly rules?: readonly string[];
  readonly verdict?: 'allow' | 'deny';
  readonly results?: readonly { rule: string; name: string; ok: boolean; detail: string }[];
  readonly detail: string;
}

function readLine(line: string): AuditLine | undefined {
  const entry = readAuditEntry(line);
  if (entry === undefined || typeof entry.tool !== 'string' || typeof entry.action !== 'string' || typeof entry.detail !== 'string') return undefined;
  return entry as AuditLine;
}

/**
 * The audit log keeps a call's actions in words (`write src/a.ts (12 chars); run npm test`), not in
 * full: they are read back as actions without file contents, enough for the timeline's order
 * (changes, test runs, commits). What the files held is judged from the repository itself.
 */
export function actionsFromText(text: string): Action[] {
  // Commands and messages may hold "; " themselves: a part that starts no action, or that falls
  // inside a quoted commit message, belongs to the part before it.
  const segments: string[] = [];
  for (const part of text.split('; ')) {
    const last = segments.at(-1);
    const openMessage = last !== undefined && last.startsWith('commit "') && parsedMessage(last) === undefined;
    if (last !== undefined && (openMessage || !/^(?:write|delete|run|commit) /.test(part))) segments[segments.length - 1] = `${last}; ${part}`;
    else segments.push(part);
  }
  return segments.flatMap((segment): Action[] => {
    const write = /^write (.+?)(?: \(\d+ chars\))?$/.exec(segment);
    if (write !== null) return [{ type: 'write', path: write[1]!, content: '' }];
    if (segment.startsWith('delete ')) return [{ type: 'delete', path: segment.slice('delete '.length) }];
    if (segment.startsWith('run ')) return [{ type: 'run', cmd: segment.slice('run '.length) }];
    if (segment.startsWith('commit ')) return [{ type: 'commit', message: parsedMessage(segment) ?? segment.slice('commit '.length) }];
    return [];
  });
}

/** The message of `commit "…"` as the gate quoted it (JSON), or undefined while the quote is open. */
function parsedMessage(segment: string): string | undefined {
  const value = jsonOrUndefined(segment.slice('commit '.length));
  return typeof value === 'string' ? value : undefined;
}

/** The post-check in observe mode records what it would have put back as a denial "left in place". */
const OBSERVED_POST_CHECK = 'observe mode: left in place';

function decisionOf(line: AuditLine): ToolDecision {
  switch (line.decision) {
    case 'observed':
      return 'observed';
    case 'reverted':
      return 'reverted';
    case 'deny':
      return line.detail.includes(OBSERVED_POST_CHECK) ? 'observed' : 'blocked';
    case 'allowed-by-person':
      return 'allowed-by-person';
    case 'warned':
      return 'warned';
    case 'allow':
      return 'applied';
  }
}

/** Every rule the call broke: observe mode records each result; an enforcing gate, the rules it refused on. */
function failedChecks(line: AuditLine): CheckResult[] {
  if (line.results !== undefined) {
    return line.results
      .filter((result) => !result.ok)
      .map((result) => ({ rule: result.rule, name: result.name, actionIndex: 0, ok: false, detail: result.detail }));
  }
  if (line.rule === null || line.decision === 'allow') return [];
  // A call can break several rules at once; the audit names the first and lists them all.
  const rules = line.rules !== undefined && line.rules.includes(line.rule) ? line.rules : [line.rule];
  return rules.map((rule) => ({ rule, name: rule === line.rule ? (line.name ?? '') : '', actionIndex: 0, ok: false, detail: line.detail }));
}

export interface AuditTimeline {
  readonly calls: ToolCallRecord[];
  /** Changes, test runs and commits in order, for R6 ORDER on what landed. */
  readonly steps: TimelineStep[];
  /** Lines that were not audit entries (a torn write): counted, never fatal. */
  readonly unreadableLines: number;
}

/** The rulebook's test command (the gate compiles it with RE2; a RegExp does as well). */
export interface TestPattern {
  test(text: string): boolean;
}

export interface AuditTimelineOptions {
  /** The rulebook's test command (R6): a `run` that matches is a test step. */
  readonly testPattern: TestPattern | undefined;
}

/**
 * The arm's tool-call timeline, read from the gate's own record (`.holdfast/audit.jsonl`): one
 * record per judged call, the pre-commit hook's decisions and the turn-end checks included. The
 * hooks do not see model turns, so a call's `turn` is its position in the timeline.
 */
export function readAuditTimeline(text: string, options: AuditTimelineOptions): AuditTimeline {
  const calls: ToolCallRecord[] = [];
  let unreadableLines = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const line = readLine(raw);
    if (line === undefined) {
      unreadableLines += 1;
      continue;
    }
    const decision = decisionOf(line);
    const actions = actionsFromText(line.action);
    const checks = failedChecks(line);
    const index = calls.length;
    calls.push({
      index,
      turn: index + 1,
      tool: line.event === 'pre-commit' || line.event === 'Stop' ? line.event : line.tool,
      input: capText(line.action, INPUT_CAP_BYTES),
      actions,
      checks,
      decision,
      ...(line.rule !== null && decision !== 'applied' ? { rule: line.rule } : {}),
      detail: line.detail,
      isError: decision === 'blocked',
    });
  }
  return { calls, steps: timelineSteps(calls, options.testPattern), unreadableLines };
}

/** Records that are the gate's own checkpoints, not the agent's calls: they change nothing. */
const CHECKPOINT_TOOLS = new Set(['pre-commit', 'Stop']);

/**
 * The changes, test runs and commits of a timeline, in order, for R6 ORDER: blocked calls did not
 * happen, and the pre-commit hook judges a commit the agent's own call already announced.
 */
export function timelineSteps(calls: readonly ToolCallRecord[], pattern: TestPattern | undefined): TimelineStep[] {
  const steps: TimelineStep[] = [];
  for (const call of calls) {
    // Blocked calls did not happen; a put-back record undoes a change its call already counted.
    if (call.decision === 'blocked' || call.decision === 'reverted' || CHECKPOINT_TOOLS.has(call.tool)) continue;
    for (const action of call.actions) {
      if (action.type === 'write' || action.type === 'delete') steps.push({ type: 'change' });
      // A hook sees a test run before it runs, never its exit code: it counts, as a sandbox that did not observe it would.
      else if (action.type === 'run' && pattern?.test(action.cmd) === true) steps.push({ type: 'test', cmd: action.cmd, passed: true });
      else if (action.type === 'commit') steps.push({ type: 'commit' });
    }
  }
  return steps;
}

/** The arm's audit log, or an empty timeline when the gate never judged a call. */
export function readArmAudit(workDir: string, options: AuditTimelineOptions): AuditTimeline {
  let text: string;
  try {
    text = readFileSync(auditLogPath(workDir), 'utf8');
  } catch {
    return { calls: [], steps: [], unreadableLines: 0 };
  }
  return readAuditTimeline(text, options);
}
