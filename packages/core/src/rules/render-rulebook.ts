import type { Rulebook } from '../contract/index.js';

type AnyRule = Rulebook['rules'][number] | NonNullable<Rulebook['proseRules']>[number] | NonNullable<Rulebook['judgeRules']>[number];

function ruleHeading(rule: AnyRule): string {
  return rule.number === undefined ? `${rule.id} ${rule.name}` : `Rule ${rule.number}: ${rule.id} ${rule.name}`;
}

/**
 * The rulebook as AGENTS.md markdown: the exact text the told arm shows the model. Deterministic:
 * the same rulebook always renders to the same bytes. It names no check and no evaluation.
 *
 * A rulebook drafted from a team's rule file renders as that file, byte for byte: its headings,
 * its order and every "Do not" are the team's, not a re-rendering of the rules. Rules added
 * by hand (no `source`) follow it. A holdfast-authored rulebook with `sections` keeps its headings
 * and their order.
 */
export function renderRulebook(rulebook: Rulebook): string {
  // Checked, prose and judged rules read the same to the model: it is told the rule, not how it is checked.
  const all: AnyRule[] = [...rulebook.rules, ...(rulebook.proseRules ?? []), ...(rulebook.judgeRules ?? [])];
  const files = rulebook.sourceFiles;
  if (files !== undefined && files.length > 0) {
    const kept = new Set(files.map((file) => file.path));
    const added = all.filter((rule) => rule.source === undefined || !kept.has(rule.source.file));
    const text = files.length === 1 ? (files[0]?.text ?? '') : files.map((file) => (file.text.endsWith('\n') ? file.text : `${file.text}\n`)).join('\n');
    if (added.length === 0) return text;
    return `${text.endsWith('\n') ? text : `${text}\n`}\n${added.map((rule) => `## ${ruleHeading(rule)}\n\n${rule.prose.trim()}`).join('\n\n')}\n`;
  }
  const parts = ['# AGENTS.md'];
  const description = rulebook.description?.trim();
  if (description !== undefined && description !== '') parts.push(description);
  const byId = new Map(all.map((rule) => [rule.id, rule]));
  const placed = new Set<string>();
  for (const section of rulebook.sections ?? []) {
    const rules = section.rules.map((id) => byId.get(id)).filter((rule): rule is AnyRule => rule !== undefined);
    parts.push(`## ${section.title}${section.intro !== undefined ? `\n\n${section.intro.trim()}` : ''}`);
    for (const rule of rules) {
      placed.add(rule.id);
      parts.push(`### ${ruleHeading(rule)}\n\n${rule.prose.trim()}`);
    }
  }
  for (const rule of all) if (!placed.has(rule.id)) parts.push(`## ${ruleHeading(rule)}\n\n${rule.prose.trim()}`);
  return `${parts.join('\n\n')}\n`;
}
