import type { Rulebook } from '../contract/index.js';

/**
 * The rulebook as AGENTS.md markdown: the exact text the told arm shows the model. Deterministic:
 * the same rulebook always renders to the same bytes. It names no check and no evaluation.
 */
export function renderRulebook(rulebook: Rulebook): string {
  const parts = ['# AGENTS.md'];
  const description = rulebook.description?.trim();
  if (description !== undefined && description !== '') parts.push(description);
  for (const rule of rulebook.rules) parts.push(`## ${rule.id} ${rule.name}\n\n${rule.prose.trim()}`);
  return `${parts.join('\n\n')}\n`;
}
