import type { Enforcement, Rulebook } from '../contract/index.js';

/**
 * The ids of the gate's own findings (tampering, bypasses, links out of the repository, its own
 * errors): they are not rules of the rulebook, so no `enforcement` field can turn them into warnings,
 * even in a rulebook that names a rule after them.
 */
const GATE_FINDINGS: ReadonlySet<string> = new Set(['GATE', 'INTERNAL']);

/** How the rulebook enforces a rule: its `enforcement`, `block` when absent; the gate's own findings always block. */
export function enforcementOf(rulebook: Rulebook, ruleId: string): Enforcement {
  if (GATE_FINDINGS.has(ruleId)) return 'block';
  return rulebook.rules.find((rule) => rule.id === ruleId)?.enforcement ?? 'block';
}

/** Findings split by their rule's enforcement: what refuses, and what is let through with a warning. */
export function byEnforcement<T extends { readonly rule: string }>(
  rulebook: Rulebook,
  findings: readonly T[],
): { readonly blocking: T[]; readonly warnings: T[] } {
  const blocking: T[] = [];
  const warnings: T[] = [];
  for (const finding of findings) (enforcementOf(rulebook, finding.rule) === 'warn' ? warnings : blocking).push(finding);
  return { blocking, warnings };
}
