import { stringify } from 'yaml';
import type { ProseRule, Rule, Rulebook } from '@holdfast/core/contract';
import { safeParseRulebook } from '@holdfast/core/rules';
import { OnboardError } from './onboard-error.js';
import { proposeCheck } from './propose-check.js';
import type { CheckProposal } from './propose-check.js';
import type { RepoFacts } from './repo-facts.js';
import { splitRuleFile } from './rule-blocks.js';
import type { RuleBlock } from './rule-blocks.js';

export interface RuleFileText {
  /** The file's path as the person gave it, for the notes. */
  readonly path: string;
  readonly text: string;
}

/** One drafted rule and what was guessed about it. */
export interface DraftedRule {
  readonly id: string;
  readonly name: string;
  readonly prose: string;
  /** The check kind proposed, or `prose` when the rule is shown but not enforced. */
  readonly kind: string;
  readonly why: string;
  /** `AGENTS.md line 12, under "Testing"`. */
  readonly source: string;
}

export interface DraftedRulebook {
  readonly rulebook: Rulebook;
  readonly rules: readonly DraftedRule[];
  /** The rulebook as YAML with a `# draft` note above every rule. */
  readonly yaml: string;
}

/** A paragraph that tells the agent to do something is a rule; one that only describes the project is context. */
const DIRECTIVE =
  /\b(must|never|always|do not|don'?t|should|shall|avoid|prefer|use|run|only|required?|ensure|make sure|keep|forbidden|please|needs?|ask|instead of|stop)\b|(^|[.;:!]\s+)no\b/i;

/** A paragraph that opens with a verb in the imperative ("Write commit messages in…"). */
const IMPERATIVE =
  /^(write|add|put|name|follow|keep|ask|check|document|update|format|place|call|return|handle|log|commit|open|create|test|remove|delete|modify|read|stop|select|install|import|export|wrap|split|mark)\b/i;

/**
 * Whether a block instructs, read without its code blocks (a `npm run dev` line is not an
 * instruction) and without a leading bold label (`**Framework**: Vitest` states a fact).
 */
function instructs(text: string): boolean {
  const prose = text.replace(/^(```|~~~)[^]*?^(```|~~~)/gm, '').replace(/^\s*\*\*[^*]+\*\*:?\s*/, '');
  return DIRECTIVE.test(prose) || IMPERATIVE.test(prose.trimStart());
}

/**
 * Tables, paragraphs that instruct nothing and `**Label**: value` items state facts about the
 * project: they go to the description. Any other list item is a rule, as its author wrote it.
 */
function isContext(block: RuleBlock, proposal: CheckProposal): boolean {
  if (block.text.trimStart().startsWith('|')) return true;
  if (proposal.kind === 'check' || instructs(block.text)) return false;
  return block.kind === 'paragraph' || /^\*\*[^*]+\*\*:/.test(block.text.trimStart());
}

const STOPWORDS = new Set(
  'a an the to of in on for and or with all any be is are you your we our do does not dont don never always must should use using when if it its this that these those please make sure every each from by as at into only new code file files'.split(
    ' ',
  ),
);

function nameFrom(text: string): string {
  const words = text
    .toLowerCase()
    .replace(/`[^`]*`/g, ' ')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !STOPWORDS.has(word));
  const name = words.slice(0, 2).join('-').toUpperCase();
  return name === '' ? 'RULE' : /^[A-Z]/.test(name) ? name : `RULE-${name}`;
}

function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let suffix = 2; used.has(candidate); suffix++) candidate = `${name}-${suffix}`;
  used.add(candidate);
  return candidate;
}

function sourceOf(file: string, block: RuleBlock): string {
  return `${file} line ${block.line}${block.heading !== undefined ? `, under "${block.heading}"` : ''}`;
}

function ruleYaml(rule: Rule | ProseRule, note: string): string {
  const item = stringify([rule], { lineWidth: 0 })
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  const comment = note
    .split('\n')
    .map((line) => `  # ${line}`)
    .join('\n');
  return `${comment}\n${item}`;
}

/** A checked rule the loader would refuse (a helper path it cannot use, say) goes back to prose, saying why. */
function loaderProblem(rule: Rule): string | undefined {
  const parsed = safeParseRulebook(stringify({ version: 1, rules: [rule] }), 'draft');
  return parsed.ok ? undefined : parsed.error.message.split('\n').slice(1).join(' ').trim() || parsed.error.message;
}

/**
 * Drafts a rulebook from rule files: every list item and every instruction paragraph becomes a rule
 * with its text verbatim; paragraphs that only describe the project become the description.
 * A check is proposed where the prose maps onto one, its parameters filled from `facts`.
 */
export function draftRulebook(files: readonly RuleFileText[], facts: RepoFacts): DraftedRulebook {
  const description: string[] = [];
  const drafted: DraftedRule[] = [];
  const checked: Rule[] = [];
  const proseOnly: ProseRule[] = [];
  const notes = new Map<string, string>();
  const used = new Set<string>();
  let title: string | undefined;
  for (const file of files) {
    const split = splitRuleFile(file.text);
    title ??= split.title;
    for (const block of split.blocks) {
      let proposal = proposeCheck(block.text, block.heading, facts);
      if (isContext(block, proposal)) {
        description.push(block.kind === 'item' ? `- ${block.text}` : block.text);
        continue;
      }
      const id = `R${drafted.length + 1}`;
      const source = sourceOf(file.path, block);
      if (proposal.kind === 'check') {
        const problem = loaderProblem({ id, name: proposal.name, prose: block.text, check: proposal.check });
        if (problem !== undefined)
          proposal = { kind: 'prose', why: `a ${proposal.check.kind} check was guessed (${proposal.why}) but the loader refuses it: ${problem}` };
      }
      const globs = split.globs === undefined ? '' : `\nthe Cursor rule applies to ${split.globs}: narrow the check's file globs to match if it should`;
      if (proposal.kind === 'check') {
        const rule: Rule = { id, name: uniqueName(proposal.name, used), prose: block.text, check: proposal.check };
        checked.push(rule);
        notes.set(id, `draft ${id} (${source}): check "${proposal.check.kind}" proposed: ${proposal.why}.${globs}`);
        drafted.push({ id, name: rule.name, prose: block.text, kind: proposal.check.kind, why: proposal.why, source });
      } else {
        const rule: ProseRule = {
          id,
          name: uniqueName(nameFrom(block.heading !== undefined && block.kind === 'paragraph' ? block.heading : block.text), used),
          prose: block.text,
        };
        proseOnly.push(rule);
        notes.set(id, `draft ${id} (${source}): NOT ENFORCED, prose only: ${proposal.why}.${globs}`);
        drafted.push({ id, name: rule.name, prose: block.text, kind: 'prose', why: proposal.why, source });
      }
    }
  }
  if (drafted.length === 0) {
    throw new OnboardError(
      'E_RULE_FILE',
      `${files.map((file) => file.path).join(', ')}: no rules found (no list items, no instructions); write each rule as a bullet, then run this again.`,
    );
  }
  const name =
    (title ?? 'drafted')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'drafted';
  const rulebook: Rulebook = {
    version: 1,
    name,
    ...(description.length > 0 ? { description: description.join('\n\n') } : {}),
    rules: checked,
    ...(proseOnly.length > 0 ? { proseRules: proseOnly } : {}),
    agents: [],
  };
  const header = [
    `# Drafted by \`holdfast rulebook init\` from ${files.map((file) => file.path).join(', ')}: ${drafted.length} rules, ${checked.length} with a proposed check, ${proseOnly.length} prose only (not enforced).`,
    '# Every rule keeps its text verbatim in `prose`. Read each `# draft` note: it says what was guessed and why.',
    '# `rules:` are checked (the held arm and the gate enforce them); `proseRules:` are shown to the agent and never checked.',
    '# `holdfast rulebook render --rulebook THIS_FILE` prints the prose as the agent will read it.',
  ];
  const top = stringify({ version: 1, name, ...(rulebook.description !== undefined ? { description: rulebook.description } : {}) }, { lineWidth: 0 });
  const sections = [header.join('\n'), top.trimEnd()];
  sections.push(checked.length > 0 ? `rules:\n${checked.map((rule) => ruleYaml(rule, notes.get(rule.id) ?? '')).join('\n\n')}` : 'rules: []');
  if (proseOnly.length > 0) sections.push(`proseRules:\n${proseOnly.map((rule) => ruleYaml(rule, notes.get(rule.id) ?? '')).join('\n\n')}`);
  return { rulebook, rules: drafted, yaml: `${sections.join('\n\n')}\n` };
}
