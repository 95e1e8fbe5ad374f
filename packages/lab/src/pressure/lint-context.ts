import { PRESSURE_KINDS } from '@holdfast/core/contract';
import type { Agent, Rulebook } from '@holdfast/core/contract';
import type { AgentDefinition } from './agent-files.js';
import { findRule, formatRuleRef, pressureRules } from './rule-ref.js';
import type { PressureRule } from './rule-ref.js';

/** What a fixture is checked against: the rules that exist, the agents declared, the pressures allowed. */
export interface LintContext {
  readonly rules: readonly PressureRule[];
  /**
   * Agent id → the rule ids it claims. Undefined when the suite declares no agents at all: then a
   * fixture's `agent` is a label nobody can check, and it is accepted as written.
   */
  readonly agents: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  /** The seed's six kinds plus any extension the suite declares. */
  readonly pressureKinds: ReadonlySet<string>;
}

export interface LintContextSources {
  /** Agents from a JSON agents file beside the fixtures. */
  readonly agents?: readonly Agent[];
  /** Agents from Markdown agent files (`--agents DIR`); one without `rules` claims every rule. */
  readonly agentFiles?: readonly AgentDefinition[];
  /** Pressure kinds beyond the seed that the suite declares (`extensions.json`). */
  readonly pressureExtensions?: readonly string[];
}

/**
 * Agents come from the rulebook, a JSON agents file and Markdown agent files. An agent declared in
 * more than one claims the union of its rules.
 */
export function lintContextFrom(rulebook: Rulebook, sources: LintContextSources = {}): LintContext {
  const rules = pressureRules(rulebook);
  const agents = new Map<string, Set<string>>();
  const claim = (id: string, ruleIds: readonly string[]): void => {
    const claimed = agents.get(id) ?? new Set<string>();
    for (const rule of ruleIds) claimed.add(rule);
    agents.set(id, claimed);
  };
  for (const agent of [...rulebook.agents, ...(sources.agents ?? [])]) claim(agent.id, agent.rules);
  for (const agent of sources.agentFiles ?? []) {
    const claimed = agent.rules?.map((ref) => findRule(rules, ref)?.id ?? formatRuleRef(ref));
    claim(agent.id, claimed ?? rules.map((rule) => rule.id));
  }
  return {
    rules,
    agents: agents.size === 0 ? undefined : agents,
    pressureKinds: new Set([...PRESSURE_KINDS, ...(sources.pressureExtensions ?? [])]),
  };
}
