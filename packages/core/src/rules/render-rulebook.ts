import type { Rulebook } from '../contract/index.js';

/**
 * The rulebook as AGENTS.md markdown: the exact text the told arm shows the model. Deterministic:
 * the same rulebook always renders to the same bytes. It names no check and no evaluation.
 */
export function renderRulebook(rulebook: Rulebook): string {
  const parts = ['# AGENTS.md'];
  const description = rulebook.description?.trim();
  if (description !== undefined && description !== '') parts.push(description);
  // Checked, prose and judged rules read the same to the model: it is told the rule, not how it is checked.
  for (const rule of [...rulebook.rules, ...(rulebook.proseRules ?? []), ...(rulebook.judgeRules ?? [])]) {
    const heading = rule.number === undefined ? `${rule.id} ${rule.name}` : `Rule ${rule.number}: ${rule.id} ${rule.name}`;
    parts.push(`## ${heading}\n\n${rule.prose.trim()}`);
  }
  return `${parts.join('\n\n')}\n`;
}
