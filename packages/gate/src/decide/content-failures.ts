import type { Action, CheckResult, Rulebook } from '@holdfast/core/contract';
import { rulesDecidedAt, undecodableResults } from '@holdfast/core/rules';
import type { CheckActions } from './decide.js';

/**
 * A change to files judged as one round by every rule but the order rules: the judgement the git
 * pre-commit gate makes of the staged files, and the one `holdfast verify` and the
 * reference-transaction hook make of each commit, so the three can never disagree about a file.
 * `undecodable` names the written files whose bytes are not text (path to why): each content rule
 * whose globs reach one refuses it. `links` names the written paths that are symbolic links leaving the
 * repository or pointing into .git/ (linkFinding): each is refused by the gate itself, whatever the rulebook.
 */
export async function contentFailures(
  checkActions: CheckActions,
  actions: readonly Action[],
  existedBefore: Iterable<string>,
  rulebook: Rulebook,
  undecodable: ReadonlyMap<string, string> = new Map(),
  links: ReadonlyMap<string, string> = new Map(),
): Promise<CheckResult[]> {
  // The rules decided at a commit from a session's runs (order, requires): a tree of files cannot show them.
  const order = rulesDecidedAt(rulebook, 'commit');
  const results = await checkActions(actions, existedBefore, rulebook);
  const failures = results.filter((result) => !result.ok && !order.has(result.rule));
  const linked: CheckResult[] = [];
  for (const [index, action] of actions.entries()) {
    const why = action.type === 'write' ? links.get(action.path) : undefined;
    if (why !== undefined)
      linked.push({ rule: 'GATE', name: 'LINK', actionIndex: index, ok: false, detail: `GATE LINK: ${action.type === 'write' ? action.path : ''} is ${why}.` });
  }
  return [...undecodableResults(rulebook, actions, undecodable), ...linked, ...failures].sort((left, right) => left.actionIndex - right.actionIndex);
}
