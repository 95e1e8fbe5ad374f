import { spawn } from 'node:child_process';
import type { Action, CheckResult, ObservedRun, Rulebook } from '@holdfast/core/contract';
import { jsonOrUndefined } from '@holdfast/core/contract';
import type { CheckActions } from './decide.js';

/** Written content above this, in one call, is refused unread: no parse could finish within a hook's deadline. */
export const CONTENT_MAX_BYTES = 4 * 1024 * 1024;
/** Up to this much content, and with no rule whose matching has no bound of its own, rules are checked in the hook's own process. */
export const IN_PROCESS_MAX_BYTES = 256 * 1024;

/** What a check child reads on stdin: the arguments of `checkActions`, the content a check may ask about resolved beforehand. */
interface CheckRequest {
  readonly actions: readonly Action[];
  readonly existing: readonly string[];
  readonly rulebook: Rulebook;
  readonly observed: readonly (readonly [number, ObservedRun])[];
  readonly contents: Readonly<Record<string, string>>;
}

/** Starts a check child; the gate's own bundled hook entry, never a program the repository names. */
interface CheckChild {
  readonly command: string;
  readonly args: readonly string[];
}

export interface CheckBudget {
  /** When the answer is due (epoch ms): the hook's deadline less the time to answer. */
  readonly deadlineAt: number;
  readonly now: () => number;
  readonly child: CheckChild;
  /**
   * Starts the clock on a check child: calls `expire` when its time is up, returns what stops the
   * clock. A timer by default; a test passes one that expires once the check is known to be running.
   */
  readonly startClock?: (expire: () => void, timeoutMs: number) => () => void;
}

/** setTimeout fires at once for a delay past 2^31 - 1 ms; no hook deadline is near that. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

const timerClock = (expire: () => void, timeoutMs: number): (() => void) => {
  const timer = setTimeout(expire, Math.min(timeoutMs, LONGEST_TIMER_MS));
  return () => clearTimeout(timer);
};

function contentBytes(actions: readonly Action[]): number {
  let bytes = 0;
  for (const action of actions) {
    if (action.type === 'write') bytes += Buffer.byteLength(action.content, 'utf8');
    else if (action.type === 'run') bytes += Buffer.byteLength(action.cmd, 'utf8');
  }
  return bytes;
}

function ruleLabels(rulebook: Rulebook): { id: string; name: string }[] {
  return (Array.isArray(rulebook.rules) ? rulebook.rules : []).map((rule, position) => ({
    id: String(rule.id ?? `#${position}`),
    name: String(rule.name ?? 'RULE'),
  }));
}

/** Every rule refuses the call at its first action: nothing was judged, so nothing may pass (fail closed). */
function refusedByEveryRule(rulebook: Rulebook, actions: readonly Action[], sentence: string): CheckResult[] {
  const index = Math.max(
    0,
    actions.findIndex((action) => action.type === 'write' || action.type === 'run'),
  );
  return ruleLabels(rulebook).map((rule) => ({
    rule: rule.id,
    name: rule.name,
    actionIndex: index,
    ok: false,
    detail: `${rule.id} ${rule.name}: ${sentence}`,
  }));
}

/**
 * Whether a rule's cost has no bound in the content's size: a team's own code (`custom`), or an
 * ast-grep `rule` object, whose nesting (`inside`/`has` with `stopBy: end`) can take minutes on a
 * few thousand lines. Those are always checked where they can be stopped. A `code` check with only
 * `forbid` reads the syntax tree once, in time linear in the content.
 */
function hasUnboundedCheck(rulebook: Rulebook): boolean {
  return (Array.isArray(rulebook.rules) ? rulebook.rules : []).some((rule) => {
    const check = rule.check as { kind?: unknown; rule?: unknown } | undefined;
    return check?.kind === 'custom' || (check?.kind === 'code' && check.rule !== undefined);
  });
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * `checkActions` under a hook's deadline. The hook's deadline is a timer on its own thread, which
 * cannot fire while a check parses synchronously; so content over CONTENT_MAX_BYTES is refused
 * before any parse, and a check that may run long (much content, or a kind with no bound of its own)
 * runs in a child process that is killed when the budget is spent. A check that did not finish is a
 * refusal naming why, never a pass.
 */
export function boundedCheckActions(inner: CheckActions, budget: CheckBudget): CheckActions {
  return async (actions, existingPaths, rulebook, observed, existingContent) => {
    const bytes = contentBytes(actions);
    if (bytes > CONTENT_MAX_BYTES) {
      return refusedByEveryRule(
        rulebook,
        actions,
        `this call writes ${megabytes(bytes)}, over the gate's limit of ${megabytes(CONTENT_MAX_BYTES)} for one call, so it was refused unread (too large to judge within the hook's deadline). Write it in smaller parts.`,
      );
    }
    if (bytes <= IN_PROCESS_MAX_BYTES && !(bytes > 0 && hasUnboundedCheck(rulebook))) return inner(actions, existingPaths, rulebook, observed, existingContent);
    const contents: Record<string, string> = {};
    const existing = [...existingPaths];
    const known = new Set(existing);
    for (const action of actions) {
      if (action.type !== 'write' || !known.has(action.path) || action.path in contents) continue;
      const text = existingContent?.(action.path);
      if (text !== undefined) contents[action.path] = text;
    }
    const request: CheckRequest = { actions, existing, rulebook, observed: [...(observed ?? new Map<number, ObservedRun>())], contents };
    const left = budget.deadlineAt - budget.now();
    const outcome = left <= 0 ? ({ kind: 'late' } as const) : await inChild(budget.child, JSON.stringify(request), left, budget.startClock ?? timerClock);
    if (outcome.kind === 'done') return outcome.results;
    const seconds = (Math.max(0, left) / 1000).toFixed(1);
    return refusedByEveryRule(
      rulebook,
      actions,
      outcome.kind === 'late'
        ? `the rules could not finish judging this call within the hook's deadline (${seconds} s left), so it was refused (too large or too slow to judge). Write it in smaller parts.`
        : `the rules could not judge this call (${outcome.reason}), so it was refused.`,
    );
  };
}

type ChildOutcome =
  { readonly kind: 'done'; readonly results: CheckResult[] } | { readonly kind: 'late' } | { readonly kind: 'failed'; readonly reason: string };

function isCheckResult(value: unknown): value is CheckResult {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.rule === 'string' &&
    typeof record.name === 'string' &&
    typeof record.detail === 'string' &&
    typeof record.ok === 'boolean' &&
    Number.isInteger(record.actionIndex) &&
    (record.actionIndex as number) >= 0
  );
}

/** Runs one check request in a child of its own process group, killed (with everything it started) when `timeoutMs` is spent. */
function inChild(child: CheckChild, request: string, timeoutMs: number, startClock: NonNullable<CheckBudget['startClock']>): Promise<ChildOutcome> {
  return new Promise((resolve) => {
    const process_ = spawn(child.command, [...child.args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    let settled = false;
    const end = (outcome: ChildOutcome): void => {
      if (settled) return;
      settled = true;
      stopClock();
      process.off('exit', killGroup);
      killGroup();
      resolve(outcome);
    };
    const killGroup = (): void => {
      if (process_.pid === undefined || process_.exitCode !== null) return;
      try {
        process.kill(-process_.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    // A hook that answers and exits while the child still runs must not leave it behind.
    process.on('exit', killGroup);
    const stopClock = startClock(() => end({ kind: 'late' }), timeoutMs);
    process_.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    process_.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    process_.on('error', (error) => end({ kind: 'failed', reason: `the check process did not start: ${error.message}` }));
    process_.on('close', (code) => {
      const parsed = jsonOrUndefined(Buffer.concat(chunks).toString('utf8'));
      if (code === 0 && Array.isArray(parsed) && parsed.every(isCheckResult)) end({ kind: 'done', results: parsed });
      else
        end({
          kind: 'failed',
          reason: `the check process ended with ${code === null ? 'a signal' : `exit code ${code}`}${errors.length > 0 ? `: ${Buffer.concat(errors).toString('utf8').trim().slice(0, 200)}` : ''}`,
        });
    });
    process_.stdin.on('error', () => undefined);
    process_.stdin.end(request);
  });
}

/** The child's side: reads one request on stdin, checks it, writes the results as JSON on stdout. */
export async function answerCheckRequest(text: string, checkActions: CheckActions): Promise<string> {
  const request = jsonOrUndefined(text) as CheckRequest | undefined;
  if (request === undefined || !Array.isArray(request.actions) || !Array.isArray(request.existing) || typeof request.rulebook !== 'object') {
    throw new Error('the check request is not one the gate wrote');
  }
  const contents = new Map(Object.entries(request.contents ?? {}));
  const results = await checkActions(request.actions, request.existing, request.rulebook, new Map(request.observed ?? []), (path) => contents.get(path));
  return JSON.stringify(results);
}
