import type { Agent, Rulebook } from '../contract/index.js';

/** What a fixture is checked against: the rules that exist and the rules each agent claims. */
export interface LintContext {
  readonly rules: ReadonlyMap<string, { readonly id: string; readonly name: string }>;
  readonly agents: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Agents come from the rulebook and, optionally, from a small agents file beside the fixtures.
 * An agent declared in both claims the union of its rules.
 */
export function lintContextFrom(rulebook: Rulebook, extraAgents: readonly Agent[] = []): LintContext {
  const rules = new Map(rulebook.rules.map((rule) => [rule.id, { id: rule.id, name: rule.name }]));
  const agents = new Map<string, Set<string>>();
  for (const agent of [...rulebook.agents, ...extraAgents]) {
    const claimed = agents.get(agent.id) ?? new Set<string>();
    for (const rule of agent.rules) claimed.add(rule);
    agents.set(agent.id, claimed);
  }
  return { rules, agents };
}
