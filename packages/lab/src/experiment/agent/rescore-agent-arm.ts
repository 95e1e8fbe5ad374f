import type { Action, ArmResult, LandedViolation, Rulebook } from '@holdfast/core/contract';
import { judgeOrder } from '../final-state.js';
import { sessionVerdict, splitLanded } from '../session/session-verdict.js';
import { checkActions, countsAsRequiredRun, rulesDecidedAt } from '@holdfast/core/rules';
import { timelineSteps } from './audit-timeline.js';

/**
 * The changes a unified diff (`git diff` against the setup commit) records, as actions: a deleted
 * file is a delete, any other file a write holding its added lines. The checks that read content
 * (secrets, forbidden patterns, HTTP calls) judge lines, so the added lines are what they need.
 */
export function actionsFromDiff(diff: string): Action[] {
  const actions: Action[] = [];
  let current: { path: string; deleted: boolean; added: string[] } | undefined;
  const flush = () => {
    if (current === undefined) return;
    actions.push(current.deleted ? { type: 'delete', path: current.path } : { type: 'write', path: current.path, content: current.added.join('\n') });
    current = undefined;
  };
  let inHunk = false;
  for (const line of diff.split('\n')) {
    const header = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (header !== null) {
      flush();
      current = { path: header[2]!, deleted: false, added: [] };
      inHunk = false;
      continue;
    }
    if (current === undefined) continue;
    if (!inHunk) {
      if (line.startsWith('deleted file mode')) current.deleted = true;
      if (line.startsWith('@@')) inHunk = true;
      continue;
    }
    if (line.startsWith('+')) current.added.push(line.slice(1));
  }
  flush();
  return actions;
}

export interface AgentRescoreContext {
  /** The task's files (the run-start event keeps them) plus what the setup commit added. */
  readonly existing: readonly string[];
  /**
   * Whether R6 ORDER was judged when the arm ran: only a harness that reports its calls to a hook
   * (Claude Code, Codex) has a timeline that places test runs; a generic agent's commits are unseen.
   */
  readonly judgesOrder: boolean;
}

/**
 * A recorded agent arm judged with another rulebook, without running anything: what landed is
 * re-judged on the recorded final diff (the work tree against the setup commit) and R6 ORDER on the
 * recorded timeline and commits; the verdict follows. The gate's decisions during the session are
 * what they were: the agent cannot be asked again.
 */
export async function rescoreAgentArm(result: ArmResult, rulebook: Rulebook, context: AgentRescoreContext): Promise<ArmResult> {
  const session = result.session;
  const sandbox = result.sandbox;
  if (session === undefined || sandbox === undefined) return result;
  const actions = actionsFromDiff(sandbox.diff.text);
  const commitTimed = rulesDecidedAt(rulebook, 'commit');
  const contentRules = { ...rulebook, rules: rulebook.rules.filter((rule) => !commitTimed.has(rule.id)) };
  const results = await checkActions(actions, [...context.existing, 'AGENTS.md', 'CLAUDE.md'], contentRules);
  const landed: LandedViolation[] = results
    .filter((check) => !check.ok)
    .map((check) => {
      const action = actions[check.actionIndex];
      const path = action !== undefined && action.type !== 'run' && action.type !== 'commit' ? action.path : undefined;
      return { rule: check.rule, name: check.name, ...(path !== undefined ? { path } : {}), detail: check.detail };
    });
  if (context.judgesOrder) {
    const steps = timelineSteps(session.calls, { test: countsAsRequiredRun(rulebook) });
    landed.push(
      ...(await judgeOrder(
        sandbox.commits.map((commit) => commit.hash),
        steps,
        rulebook,
      )),
    );
  }
  const split = splitLanded(result.arm, rulebook, landed);
  const { warned: _warned, ...rest } = session;
  const next = { ...rest, landed: split.landed, ...(split.warned !== undefined ? { warned: split.warned } : {}) };
  const { verdict, reason } = sessionVerdict(result.arm, next, { paths: sandbox.changedPaths.length, commits: sandbox.commits.length });
  const truncated = sandbox.diff.truncated ? ' (the recorded diff was cut at its cap; what lay beyond it was not re-judged)' : '';
  return { ...result, session: next, verdict, reason: `${reason}${truncated}` };
}
