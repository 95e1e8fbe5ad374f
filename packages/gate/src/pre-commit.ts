import { readText } from '@holdfast/core/rules';
import type { Action, CheckResult, Rulebook } from '@holdfast/core/contract';
import { appendAudit, auditActionText } from './audit.js';
import { contentFailures } from './content-failures.js';
import { internalErrorReason } from './hook-answer.js';
import type { HookAnswer } from './hook-answer.js';
import { lastTestRun, testPattern } from './decide.js';
import type { CheckActions } from './decide.js';
import { childProcess } from './lazy-builtins.js';
import { latestSessionState } from './session-state.js';
import type { SessionState } from './session-state.js';

const MAX_BUFFER = 64 * 1024 * 1024;

/** git's output in `root`, or a throw naming the failed call. */
export function gitOutput(root: string, args: string[]): Buffer {
  return childProcess().execFileSync('git', args, { cwd: root, maxBuffer: MAX_BUFFER, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The staged changes as actions: an added or modified file is a write of its staged content, a
 * removed file a delete. Renames are read as delete + add, so a moved module is a new module.
 */
export function stagedActions(root: string): Action[] {
  const fields = gitOutput(root, ['diff', '--cached', '--name-status', '--no-renames', '-z']).toString('utf8').split('\0');
  const actions: Action[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const status = fields[index] as string;
    const path = fields[index + 1] as string;
    if (status.startsWith('D')) actions.push({ type: 'delete', path });
    else actions.push({ type: 'write', path, content: readText(gitOutput(root, ['show', `:${path}`])) });
  }
  return actions;
}

/** Files in the last commit: what existed before this commit, so an added file is a new module. */
export function committedPaths(root: string): string[] {
  try {
    gitOutput(root, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  } catch {
    return [];
  }
  return gitOutput(root, ['ls-tree', '-r', '--name-only', '-z', 'HEAD'])
    .toString('utf8')
    .split('\0')
    .filter((path) => path !== '');
}

export interface PreCommitOptions {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly rulebook: () => Promise<Rulebook>;
  readonly checkActions: () => Promise<CheckActions>;
}

type OrderVerdict =
  { readonly judged: false; readonly note: string } | { readonly judged: true; readonly failure: CheckResult | undefined; readonly note: string };

/**
 * R6 from what the agent gate saw: the most recent session state of the repository says whether
 * the tests ran (and did not fail) after the agent's last change. Without any session state the
 * order cannot be known from a staged tree, and the output says it was not judged.
 */
function judgeOrder(rulebook: Rulebook, latest: ReturnType<typeof latestSessionState>): OrderVerdict | undefined {
  const rule = rulebook.rules.find((candidate) => candidate.check.kind === 'order');
  if (rule === undefined || rule.check.kind !== 'order') return undefined;
  const label = `${rule.id} ${rule.name}`;
  if (latest === undefined) {
    return {
      judged: false,
      note: `${label} not judged: no agent session was seen by the gate here, and the order of test runs and commits cannot be read from staged changes.`,
    };
  }
  const { state } = latest;
  const from = `judged from the agent session ${latest.session}${latest.warning === undefined ? '' : ` (${latest.warning})`}`;
  const fail = (sentence: string): OrderVerdict => ({
    judged: true,
    failure: { rule: rule.id, name: rule.name, actionIndex: 0, ok: false, detail: `${label}: ${sentence}` },
    note: `${label} ${from}.`,
  });
  const last = lastTestRun(state, testPattern(rulebook));
  if (last === undefined)
    return fail(
      `the commit comes after the agent's last change with no test run in between; run ${rule.check.example} after your last change and before committing.`,
    );
  if (last.failed !== undefined)
    return fail(`the last test run (\`${last.cmd}\`) did not pass (${last.failed}); fix the tests and run ${rule.check.example} again before committing.`);
  return { judged: true, failure: undefined, note: `${label} ${from}: the tests ran after the last change.` };
}

/**
 * R3 with the session's knowledge: a file the agent gate saw on disk before the session changed it
 * is not a new module, even when git never tracked it (the seed false positive: editing an existing
 * file needs no test). The agent gate clears its round at the commit, before this hook runs, so
 * the round as it stood at that commit counts too.
 */
export function knownToExist(state: SessionState | undefined): string[] {
  return state === undefined ? [] : [...(state.changed ?? []), ...(state.changedBeforeCommit ?? [])];
}

/**
 * The git pre-commit gate: the staged changes judged as one round (R1–R5; R3 with what the agent
 * gate knew existed), R6 from the agent's session when the agent gate saw one. Every failure is listed. Exit 1 refuses the commit; an
 * internal error refuses it too. A person's one-time allowance (`holdfast allow`) is for the
 * agent's tool calls only and never lets a commit through here.
 */
export async function answerPreCommit(options: PreCommitOptions): Promise<HookAnswer> {
  const now = options.now();
  const entry = { time: now.toISOString(), agent: 'git' as const, session: 'pre-commit', tool: 'pre-commit', event: 'pre-commit' };
  let actionText = '';
  try {
    const actions = stagedActions(options.root);
    actionText = auditActionText(actions);
    const rulebook = await options.rulebook();
    const latest = latestSessionState(options.root);
    const order = judgeOrder(rulebook, latest);
    if (actions.length === 0) return { stdout: `holdfast: nothing staged to judge.\n`, stderr: '', exitCode: 0 };
    const checkActions = await options.checkActions();
    const failures = await contentFailures(checkActions, actions, [...committedPaths(options.root), ...knownToExist(latest?.state)], rulebook);
    if (order?.judged === true && order.failure !== undefined) failures.push(order.failure);
    const orderNote = order === undefined ? '' : order.note;
    if (failures.length > 0) {
      const rules = [...new Set(failures.map((failure) => failure.rule))];
      await appendAudit(options.root, {
        ...entry,
        action: actionText,
        rule: failures[0]?.rule ?? null,
        name: failures[0]?.name,
        rules: rules.length > 1 ? rules : undefined,
        decision: 'deny',
        detail: failures.map((failure) => failure.detail).join(' | '),
      });
      const lines = [`holdfast: commit refused, ${failures.length} violation${failures.length === 1 ? '' : 's'} in the staged changes:`];
      for (const failure of failures) lines.push(`  ${failure.detail}`);
      if (orderNote !== '') lines.push(orderNote);
      lines.push('Fix the staged files (and run the tests after the last change), then commit again.');
      return { stdout: '', stderr: `${lines.join('\n')}\n`, exitCode: 1 };
    }
    await appendAudit(options.root, {
      ...entry,
      action: actionText,
      rule: null,
      decision: 'allow',
      detail: `${actions.length} staged change(s): no rule refused them. ${orderNote}`.trim(),
    });
    const ok = `holdfast: ${actions.length} staged change${actions.length === 1 ? '' : 's'} judged, no rule refused them.`;
    return { stdout: `${ok}${orderNote === '' ? '' : ` ${orderNote}`}\n`, stderr: '', exitCode: 0 };
  } catch (error) {
    const reason = internalErrorReason(error, 'the commit is refused');
    try {
      await appendAudit(options.root, { ...entry, action: actionText, rule: 'INTERNAL', name: 'ERROR', decision: 'deny', detail: reason });
    } catch {
      // nothing more to do: the refusal below still stops the commit
    }
    return { stdout: '', stderr: `${reason}\n`, exitCode: 1 };
  }
}

/** The top of the work tree git runs the hook in; the directory itself when git cannot say. */
export function gitRoot(cwd: string): string {
  try {
    return gitOutput(cwd, ['rev-parse', '--show-toplevel']).toString('utf8').trim() || cwd;
  } catch {
    return cwd;
  }
}
