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
  const linked = linkFailures(actions, links).map((failure): CheckResult => ({ ...failure, ok: false }));
  return [...undecodableResults(rulebook, actions, undecodable), ...linked, ...failures].sort((left, right) => left.actionIndex - right.actionIndex);
}

/** `GATE LINK` for each written action whose path `links` names (checkoutAction filled it): refused whatever the rulebook. */
export function linkFailures(
  actions: readonly Action[],
  links: ReadonlyMap<string, string>,
): { readonly rule: 'GATE'; readonly name: 'LINK'; readonly actionIndex: number; readonly detail: string }[] {
  return actions.flatMap((action, actionIndex) => {
    const why = action.type === 'write' ? links.get(action.path) : undefined;
    return action.type === 'write' && why !== undefined
      ? [{ rule: 'GATE' as const, name: 'LINK' as const, actionIndex, detail: `GATE LINK: ${action.path} is ${why}.` }]
      : [];
  });
}
