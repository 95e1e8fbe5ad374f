import { PRESSURE_KINDS } from '@holdfast/core/contract';
import type { Agent, Rulebook } from '@holdfast/core/contract';
import type { AgentDefinition } from './agent-files.js';
import { ruleBinding } from './rule-binding.js';
import type { RuleBinding } from './rule-binding.js';
import { findRule, formatRuleRef, pressureRules } from './rule-ref.js';
import type { PressureRule } from './rule-ref.js';

/** What a fixture is checked against: the rules that exist, the agents declared, the pressures allowed. */
export interface LintContext {
  /** The measured rulebook's rules; empty when the suite is linted with no rulebook. */
  readonly rules: readonly PressureRule[];
  /** What a fixture's rule reference means against the measured rulebook. */
  readonly resolveRule: RuleBinding;
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
  /** Agents from Markdown agent files (`--agents DIR`); one without `rules` claims no rule. */
  readonly agentFiles?: readonly AgentDefinition[];
  /** Pressure kinds beyond the seed that the suite declares (`extensions.json`). */
  readonly pressureExtensions?: readonly string[];
  /** The rulebook the suite was written against, when it is not the measured one (`suite.json`). */
  readonly home?: Rulebook;
  /** Suite reference → measured rule id (`suite.json`'s `bind`). */
  readonly mapping?: Readonly<Record<string, string>>;
}

/**
 * Agents come from the rulebook, a JSON agents file and Markdown agent files. The rulebook and the
 * JSON file add up; an agent file narrows: where it names an agent declared already, the agent
 * claims only the rules both claim, and an agent file without `rules:` claims none (deny by default).
 */
export function lintContextFrom(rulebook: Rulebook | undefined, sources: LintContextSources = {}): LintContext {
  const rules = rulebook === undefined ? [] : pressureRules(rulebook);
  const resolveRule = ruleBinding({ rulebook, home: sources.home, ...(sources.mapping === undefined ? {} : { mapping: sources.mapping }) });
  const agents = new Map<string, Set<string>>();
  for (const agent of [...(rulebook?.agents ?? []), ...(sources.agents ?? [])]) {
    const claimed = agents.get(agent.id) ?? new Set<string>();
    for (const rule of agent.rules) claimed.add(rule);
    agents.set(agent.id, claimed);
  }
  for (const agent of sources.agentFiles ?? []) {
    const own = new Set(
      (agent.rules ?? []).map((ref) => {
        const resolved = resolveRule(ref);
        return resolved.state === 'bound' || resolved.state === 'label' ? resolved.rule.id : (findRule(rules, ref)?.id ?? formatRuleRef(ref));
      }),
    );
    const declared = agents.get(agent.id);
    agents.set(agent.id, declared === undefined ? own : new Set([...declared].filter((rule) => own.has(rule))));
  }
  return {
    rules,
    resolveRule,
    agents: agents.size === 0 ? undefined : agents,
    pressureKinds: new Set([...PRESSURE_KINDS, ...(sources.pressureExtensions ?? [])]),
  };
}
