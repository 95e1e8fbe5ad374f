import { stringify } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import type { ProseRule, Rule, RuleCheck, RuleSourceFile, Rulebook } from '@holdfast/core/contract';
import { ruleFileHash, safeParseRulebook } from '@holdfast/core/rules';
import { draftTable } from './draft-table.js';
import { OnboardError } from './onboard-error.js';
import { proposeCheck } from './propose-check.js';
import type { CheckProposal } from './propose-check.js';
import { scopeProposal } from './scope-check.js';
import type { RepoFacts } from './repo-facts.js';
import { splitRuleFile } from './rule-blocks.js';
import type { RuleBlock } from './rule-blocks.js';

/** The most list items and paragraphs one draft reads: past it the file is a dump, not rules a team reads, and drafting refuses it. */
export const MAX_DRAFTED_RULES = 1000;

export interface RuleFileText {
  /** The file's path as the person gave it, for the notes. */
  readonly path: string;
  readonly text: string;
  /** The folder a nested rule file is in (`packages/x`): its checks judge only the files under it. */
  readonly scope?: string;
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
  /** The rule file and its lines (1-based, inclusive) the rule was drafted from. */
  readonly span: { readonly file: string; readonly lines: readonly [number, number] };
  /** The heading the rule sits under, if any: `init --model` asks about one section at a time. */
  readonly heading?: string;
  /** The folder of the nested rule file it was drafted from (`packages/x`); undefined at the root. */
  readonly scope?: string;
  /** The `# draft` note written above the rule in the YAML. */
  readonly note: string;
}

export interface DraftedRulebook {
  readonly rulebook: Rulebook;
  readonly rules: readonly DraftedRule[];
  /** The rulebook as YAML with a `# draft` note above every rule, ending with the table. */
  readonly yaml: string;
  /** Markdown: rule, enforced by which check or prose-only, why. */
  readonly table: string;
  /** The rule files drafted from, as given (for the header). */
  readonly from: readonly string[];
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
  return DIRECTIVE.test(prose) || IMPERATIVE.test(prose.trimStart()) || /^(every|each|all|no)\s+new\b/i.test(prose.trimStart());
}

/**
 * Tables and blocks that instruct nothing (a paragraph, a `**Label**: value` item, a list of the
 * project's folders) state facts about the project: they go to the description, never a rule,
 * so never a check. The told arm still reads them, in the file as written.
 */
function isContext(block: RuleBlock): boolean {
  if (block.text.trimStart().startsWith('|')) return true;
  return !instructs(block.text);
}

const NEGATIVE_HEADING = /^(do not|don'?t|never|avoid|forbidden|prohibited|not allowed|anti-?patterns?)\b/i;

/**
 * A rule's prose as the rule reads on its own (in a refusal, a pressure fixture): an item under a
 * "Do Not" heading carries the heading ("Do Not: Use `require()` for imports"), and an item under a
 * lead-in line ("If you touch that machinery, three things bite:") carries the lead-in, so no
 * negation or condition the team wrote is lost. The item's own text stays verbatim.
 */
function standaloneProse(block: RuleBlock, leadIn: string | undefined): string {
  const heading = block.heading?.trim();
  if (block.kind === 'item' && heading !== undefined && NEGATIVE_HEADING.test(heading)) return `${heading}: ${block.text}`;
  if (block.kind === 'item' && leadIn !== undefined) return `${leadIn}\n- ${block.text}`;
  return block.text;
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
  const lines = block.endLine > block.line ? `lines ${block.line}-${block.endLine}` : `line ${block.line}`;
  return `${file} ${lines}${block.heading !== undefined ? `, under "${block.heading}"` : ''}`;
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
  const used = new Set<string>();
  const sourceFiles: RuleSourceFile[] = [];
  let title: string | undefined;
  let blocks = 0;
  for (const file of files) {
    // The same text under two names (a copied CLAUDE.md) would draft every rule twice.
    if (sourceFiles.some((kept) => kept.text === file.text)) continue;
    sourceFiles.push({ path: file.path, sha256: ruleFileHash(file.text), text: file.text });
    const split = splitRuleFile(file.text);
    blocks += split.blocks.length;
    // Counted before any rule is read: a dump of ten thousand items is refused at once, not drafted slowly.
    if (blocks > MAX_DRAFTED_RULES) {
      throw new OnboardError(
        'E_RULE_FILE',
        `${file.path}: more than ${MAX_DRAFTED_RULES} list items and paragraphs, the most holdfast drafts at once; split the file (agents read a nested AGENTS.md in each folder) or pass --from the part that holds the rules.`,
      );
    }
    title ??= split.title;
    let leadIn: string | undefined;
    let leadInHeading: string | undefined;
    for (const block of split.blocks) {
      if (block.kind === 'paragraph') {
        leadIn = /:\s*$/.test(block.text) && !block.text.includes('\n```') ? block.text : undefined;
        leadInHeading = block.heading;
      } else if (block.heading !== leadInHeading) leadIn = undefined;
      // A block that states a fact about the project is its description: no rule, so no check.
      // An item under a lead-in that instructs ("run these before a PR:") is a rule even when it reads as a name.
      if (isContext(block) && !(block.kind === 'item' && leadIn !== undefined && instructs(leadIn))) {
        description.push(block.kind === 'item' ? `- ${block.text}` : block.text);
        continue;
      }
      const prose = standaloneProse(block, block.kind === 'item' ? leadIn : undefined);
      let proposal: CheckProposal = scopeProposal(proposeCheck(block.text, block.heading, facts, block.kind === 'item' ? leadIn : undefined), file.scope);
      const id = `R${drafted.length + 1}`;
      const source = sourceOf(file.path, block);
      const span = { file: file.path, lines: [block.line, block.endLine] as [number, number] };
      if (proposal.kind === 'check') {
        const problem = loaderProblem({ id, name: proposal.name, prose, check: proposal.check });
        if (problem !== undefined)
          proposal = { kind: 'prose', why: `a ${proposal.check.kind} check was guessed (${proposal.why}) but the loader refuses it: ${problem}` };
      }
      if (proposal.kind === 'check') {
        // One rule, one check: a second rule that maps onto the very same check would count one mistake twice.
        const check = proposal.check;
        const same = checked.find((rule) => isDeepStrictEqual(rule.check, check));
        if (same !== undefined) proposal = { kind: 'prose', why: `the same ${check.kind} check as ${same.id} ${same.name}, which enforces it once` };
      }
      const globs = split.globs === undefined ? '' : `\nthe Cursor rule applies to ${split.globs}: narrow the check's file globs to match if it should`;
      if (proposal.kind === 'check') {
        // A drafted check starts at warn: the gate tells the agent and records it, and a person promotes it
        // (`holdfast rulebook promote ID`) once `rulebook try` shows it quiet on the team's own history.
        const rule: Rule = { id, name: uniqueName(proposal.name, used), prose, source: span, enforcement: 'warn', check: proposal.check };
        checked.push(rule);
        const note = `draft ${id} (${source}): check "${proposal.check.kind}" proposed: ${proposal.why}. Warns until promoted (holdfast rulebook try, then holdfast rulebook promote ${id}).${globs}`;
        drafted.push({ id, name: rule.name, prose, kind: proposal.check.kind, why: proposal.why, source, span, ...placeOf(block, file), note });
      } else {
        const rule: ProseRule = {
          id,
          name: uniqueName(nameFrom(block.heading !== undefined && block.kind === 'paragraph' ? block.heading : block.text), used),
          prose,
          source: span,
        };
        proseOnly.push(rule);
        drafted.push({
          id,
          name: rule.name,
          prose,
          kind: 'prose',
          why: proposal.why,
          source,
          span,
          ...placeOf(block, file),
          note: `draft ${id} (${source}): NOT ENFORCED, prose only: ${proposal.why}.${globs}`,
        });
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
    sourceFiles,
  };
  return renderDraft(
    rulebook,
    drafted,
    files.map((file) => file.path),
  );
}

/** The draft as YAML: a header, every rule under its `# draft` note, the source files, then the table as comments. */
function renderDraft(rulebook: Rulebook, drafted: readonly DraftedRule[], from: readonly string[]): DraftedRulebook {
  const checked = rulebook.rules;
  const proseOnly = rulebook.proseRules ?? [];
  const notes = new Map(drafted.map((rule) => [rule.id, rule.note]));
  const header = [
    `# Drafted by \`holdfast rulebook init\` from ${from.join(', ')}: ${drafted.length} rules, ${checked.length} with a proposed check, ${proseOnly.length} prose only (not enforced).`,
    '# Every rule keeps its text verbatim in `prose`. Read each `# draft` note: it says what was guessed and why.',
    '# `rules:` are checked (the held arm and the gate enforce them); `proseRules:` are shown to the agent and never checked.',
    '# `sourceFiles:` keeps the rule file as written: the told arm reads it byte for byte (`holdfast rulebook render`).',
    '# The table at the end says, per rule, which check enforces it or why it is prose only.',
  ];
  const top = stringify(
    { version: 1, name: rulebook.name, ...(rulebook.description !== undefined ? { description: rulebook.description } : {}) },
    { lineWidth: 0 },
  );
  const sections = [header.join('\n'), top.trimEnd()];
  sections.push(checked.length > 0 ? `rules:\n${checked.map((rule) => ruleYaml(rule, notes.get(rule.id) ?? '')).join('\n\n')}` : 'rules: []');
  if (proseOnly.length > 0) sections.push(`proseRules:\n${proseOnly.map((rule) => ruleYaml(rule, notes.get(rule.id) ?? '')).join('\n\n')}`);
  sections.push(stringify({ sourceFiles: rulebook.sourceFiles }, { lineWidth: 0 }).trimEnd());
  const table = draftTable(drafted);
  sections.push(
    table
      .split('\n')
      .map((line) => `# ${line}`)
      .join('\n'),
  );
  return { rulebook, rules: drafted, yaml: `${sections.join('\n\n')}\n`, table, from };
}

function placeOf(block: RuleBlock, file: RuleFileText): { heading?: string; scope?: string } {
  return { ...(block.heading !== undefined ? { heading: block.heading } : {}), ...(file.scope !== undefined ? { scope: file.scope } : {}) };
}

/** A check another drafter proposed for a prose-only rule of the draft, verified before it is adopted. */
export interface AdoptedCheck {
  readonly id: string;
  readonly check: RuleCheck;
  /** The `why` of the table and the note. */
  readonly why: string;
  /** The whole `# draft` note. */
  readonly note: string;
}

/**
 * The draft with prose-only rules turned into checked rules at `enforcement: warn`, in their place in id order,
 * and `notes` replacing the `# draft` note of rules that stay prose (why another drafter's proposal was not kept).
 * The prose, name and source of each rule stay as drafted.
 */
export function adoptChecks(draft: DraftedRulebook, adopted: readonly AdoptedCheck[], notes: ReadonlyMap<string, string> = new Map()): DraftedRulebook {
  const byId = new Map(adopted.map((item) => [item.id, item]));
  const order = new Map(draft.rules.map((rule, index) => [rule.id, index]));
  const turned: Rule[] = [];
  const proseRules: ProseRule[] = [];
  for (const rule of draft.rulebook.proseRules ?? []) {
    const item = byId.get(rule.id);
    if (item === undefined) proseRules.push(rule);
    else turned.push({ ...rule, enforcement: 'warn', check: item.check });
  }
  const rules = [...draft.rulebook.rules, ...turned].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const drafted = draft.rules.map((rule): DraftedRule => {
    const item = byId.get(rule.id);
    if (item !== undefined) return { ...rule, kind: item.check.kind, why: item.why, note: item.note };
    const note = notes.get(rule.id);
    return note === undefined ? rule : { ...rule, note };
  });
  const rulebook: Rulebook = { ...draft.rulebook, rules, proseRules };
  if (proseRules.length === 0) delete rulebook.proseRules;
  return renderDraft(rulebook, drafted, draft.from);
}
