import { z } from 'zod';
import { stringify } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import { RuleCheckSchema, safeParseJson } from '@holdfast/core/contract';
import type { Action, Rule, RuleCheck, Rulebook } from '@holdfast/core/contract';
import { findFencedBlocks, scanBracketSpans, validateActions } from '@holdfast/core/reply';
import { checkActions, rulesNotInHistory, safeParseRulebook } from '@holdfast/core/rules';
import type { ChatMessage, ModelAdapter } from '../models/index.js';
import { redact } from '../models/index.js';
import { adoptChecks } from './draft-rulebook.js';
import type { AdoptedCheck, DraftedRule, DraftedRulebook } from './draft-rulebook.js';
import { PROBABLY_WRONG_SHARE } from './history-check.js';
import type { HistoryCheck } from './history-check.js';
import { OnboardError } from './onboard-error.js';
import type { RepoFacts } from './repo-facts.js';
import { scopeProposal } from './scope-check.js';

/** The model behind `init --model`: any configured target that answers a prompt. */
export type DraftModel = Pick<ModelAdapter, 'target' | 'generate'>;

/** The most requests one model draft makes: one per section of the rule files, the rest listed as not asked. */
const MAX_MODEL_DRAFT_REQUESTS = 16;
/** The most rules one request asks about; a longer section is asked in parts (each part one request). */
const RULES_PER_REQUEST = 25;
const MAX_TOKENS = 4_000;

export interface ModelDraftOptions {
  readonly model: DraftModel;
  readonly facts: RepoFacts;
  /** The paths the agent could already see: examples are judged as a round in this repository. */
  readonly existing: readonly string[];
  /** The candidates over the team's recent history (`rulebook try`'s check); absent, history is not consulted (said in every note). */
  readonly history?: (rulebook: Rulebook) => Promise<HistoryCheck>;
  /** Values never to be written or shown (the target's key). */
  readonly secrets?: readonly string[];
  readonly maxRequests?: number;
}

/** A proposal the model made and holdfast kept: it parsed, tripped on its violation, stayed quiet on its compliance and on history. */
export interface KeptProposal {
  readonly rule: string;
  readonly kind: string;
  readonly why: string;
  /** What the history check said: `quiet on 20 commits`, or why it could not judge. */
  readonly history: string;
}

/** A proposal (or a request) that was not kept, and why. */
export interface RejectedProposal {
  /** The rule id, or the ids of a section whose reply could not be read. */
  readonly rule: string;
  readonly kind?: string;
  readonly reason: string;
}

export interface ModelDraft {
  readonly drafted: DraftedRulebook;
  readonly target: string;
  readonly requests: number;
  readonly kept: readonly KeptProposal[];
  readonly rejected: readonly RejectedProposal[];
  /** Prose-only rules not asked about, past the request bound. */
  readonly unasked: readonly string[];
}

/** The check kinds a model may propose: every kind but `custom`, which runs code (holdfast never runs code a model wrote). */
const MODEL_CHECK_SCHEMA = z.discriminatedUnion(
  'kind',
  RuleCheckSchema.options.filter((option) => option.shape.kind.value !== 'custom') as unknown as [
    (typeof RuleCheckSchema.options)[number],
    ...(typeof RuleCheckSchema.options)[number][],
  ],
);

const CHECK_JSON_SCHEMA = JSON.stringify(z.toJSONSchema(MODEL_CHECK_SCHEMA, { io: 'input', unrepresentable: 'any' }));

const ProposalSchema = z.object({
  rule: z.string().min(1),
  check: z.unknown(),
  why: z.string().optional(),
  violation: z.array(z.unknown()).optional(),
  compliance: z.array(z.unknown()).optional(),
});
type Proposal = z.infer<typeof ProposalSchema>;

const SYSTEM = [
  "You turn a software team's rules for coding agents into deterministic checks for holdfast's gate.",
  'For each rule you are given, propose at most one check that enforces exactly what the sentence says: its kind, its direction (a rule that requires or recommends a command never becomes a check that forbids it) and its object (the command, path or pattern the sentence names, nothing near it). Give no proposal for a rule no check can decide exactly.',
  'Each proposal carries two examples, each a list of the agent\'s actions: {"type":"write","path":"…","content":"…"}, {"type":"delete","path":"…"}, {"type":"run","cmd":"…"}, {"type":"commit","message":"…"}. Paths are relative to the repository root.',
  '- "violation": actions that break the rule; the check must refuse them.',
  '- "compliance": the same work done the way the rule asks; the check must let it through.',
  'Answer with one JSON object and nothing else:',
  '{"proposals": [{"rule": "R3", "check": {…}, "why": "one sentence: what the check enforces", "violation": [actions], "compliance": [actions]}]}',
  `A check is one object of this JSON schema: ${CHECK_JSON_SCHEMA}`,
].join('\n');

/** One request: a section's prose-only rules. */
interface Section {
  readonly title: string;
  readonly scope: string | undefined;
  readonly rules: readonly DraftedRule[];
}

function sectionsOf(rules: readonly DraftedRule[]): Section[] {
  const groups = new Map<string, DraftedRule[]>();
  for (const rule of rules) {
    const key = `${rule.span.file}\0${rule.heading ?? ''}`;
    const group = groups.get(key) ?? [];
    group.push(rule);
    groups.set(key, group);
  }
  const sections: Section[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const title = `${first.span.file}${first.heading !== undefined ? `, section "${first.heading}"` : ''}`;
    for (let start = 0; start < group.length; start += RULES_PER_REQUEST)
      sections.push({ title, scope: first.scope, rules: group.slice(start, start + RULES_PER_REQUEST) });
  }
  return sections;
}

function factsText(facts: RepoFacts, existing: readonly string[]): string {
  const shown = existing.slice(0, 150);
  return [
    `The repository: source folders ${facts.sourceFolders.join(', ') || '(none found)'}; source files end in ${facts.extensions.join(', ')}; test command \`${facts.testCommand}\`; tests live at ${facts.testTemplate}.`,
    `Some of its files${existing.length > shown.length ? ` (${shown.length} of ${existing.length})` : ''}: ${shown.join(', ')}`,
  ].join('\n');
}

function sectionMessages(section: Section, facts: RepoFacts, existing: readonly string[]): ChatMessage[] {
  const rules = section.rules.map((rule) => `${rule.id}: ${rule.prose}`).join('\n\n');
  const user = [
    factsText(facts, existing),
    `The rules of ${section.title}${section.scope !== undefined ? ` (they apply to the files under ${section.scope}/; write example paths there)` : ''}:`,
    rules,
    'Propose checks for these rules only, by their ids. Answer with the JSON object only.',
  ].join('\n\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
}

/** The reply's proposals: the whole text as JSON, then a fenced block, then the first balanced object. */
function readProposals(text: string): { ok: true; proposals: readonly unknown[] } | { ok: false; why: string } {
  const candidates = [text.trim(), ...findFencedBlocks(text).map((block) => block.content.trim())];
  const spans = scanBracketSpans(text);
  for (let index = 0; index < spans.count; index += 1) {
    const start = spans.starts[index]!;
    const end = spans.ends[index]!;
    if (end !== -1 && text[start] === '{') {
      candidates.push(text.slice(start, end + 1));
      break;
    }
  }
  let why = 'no JSON object in the reply';
  for (const candidate of candidates) {
    const json = safeParseJson(candidate);
    if (!json.ok) continue;
    const proposals = (json.value as { proposals?: unknown } | null)?.proposals;
    if (Array.isArray(proposals)) return { ok: true, proposals };
    why = 'the JSON object has no "proposals" list';
  }
  return { ok: false, why };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? '(empty reply)' : flat.length > 120 ? `${JSON.stringify(flat.slice(0, 120))}…` : JSON.stringify(flat);
}

function firstLine(message: string): string {
  return message.split('\n').slice(1).join(' ').trim() || message;
}

/** The check as the rulebook loader reads it (defaults filled), or why it refuses it. */
function parseCheck(rule: DraftedRule, check: unknown): { ok: true; rule: Rule } | { ok: false; why: string } {
  if (typeof check === 'object' && check !== null && (check as { kind?: unknown }).kind === 'custom')
    return { ok: false, why: 'a custom check runs code, and holdfast never runs code a model wrote; write it by hand if the rule needs one' };
  const shape = MODEL_CHECK_SCHEMA.safeParse(check);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    return {
      ok: false,
      why: `does not parse against the rulebook schema (check${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'bad shape'})`,
    };
  }
  const parsed = safeParseRulebook(
    stringify({ version: 1, rules: [{ id: rule.id, name: rule.name, prose: rule.prose, enforcement: 'warn', check: shape.data }] }),
    'model proposal',
  );
  if (!parsed.ok) return { ok: false, why: `does not parse against the rulebook schema (${firstLine(parsed.error.message)})` };
  return { ok: true, rule: parsed.rulebook.rules[0]! };
}

function exampleActions(list: readonly unknown[] | undefined, what: string): { ok: true; actions: Action[] } | { ok: false; why: string } {
  if (list === undefined || list.length === 0) return { ok: false, why: `gives no example of ${what}` };
  const read = validateActions(list);
  return read.ok ? { ok: true, actions: read.actions } : { ok: false, why: `its example of ${what} is not an action list (${read.reason})` };
}

interface Candidate {
  readonly rule: Rule;
  readonly why: string;
}

/** Verifies one proposal on its own examples: parses, trips on the violation, stays quiet on the compliance. */
async function verify(
  proposal: Proposal,
  drafted: DraftedRule,
  existing: readonly string[],
): Promise<{ ok: true; candidate: Candidate } | { ok: false; why: string }> {
  const parsed = parseCheck(drafted, proposal.check);
  if (!parsed.ok) return parsed;
  let rule = parsed.rule;
  const why = proposal.why?.trim() || `a ${rule.check.kind} check`;
  if (drafted.scope !== undefined) {
    const scoped = scopeProposal({ kind: 'check', name: rule.name, check: rule.check, why }, drafted.scope);
    if (scoped.kind !== 'check') return { ok: false, why: scoped.why };
    rule = { ...rule, check: scoped.check };
  }
  const violation = exampleActions(proposal.violation, 'the violation');
  if (!violation.ok) return violation;
  const compliance = exampleActions(proposal.compliance, 'compliance');
  if (!compliance.ok) return compliance;
  const book: Rulebook = { version: 1, name: 'proposal', rules: [rule], agents: [] };
  const tripped = (await checkActions(violation.actions, existing, book)).filter((result) => !result.ok);
  if (tripped.length === 0) return { ok: false, why: 'does not trip on its own example of the violation' };
  const fired = (await checkActions(compliance.actions, existing, book)).filter((result) => !result.ok);
  if (fired.length > 0) return { ok: false, why: `fires on its own example of compliance (${fired[0]!.detail})` };
  return { ok: true, candidate: { rule, why } };
}

/**
 * `holdfast init --model`: asks the model for a check for each rule the offline drafter left prose-only, one
 * request per section of the rule files (at most `maxRequests`), and keeps a proposal only when it parses against
 * the rulebook schema, trips on the model's own example of the violation, stays quiet on its example of
 * compliance and on the team's recent history (the `rulebook try` threshold), and then at `enforcement: warn`.
 * A provider failure throws, naming the target; nothing else the model says can make a check more permissive
 * than the offline draft, since only prose-only rules are touched.
 */
export async function draftWithModel(draft: DraftedRulebook, options: ModelDraftOptions): Promise<ModelDraft> {
  const secrets = options.secrets ?? [];
  const target = String(options.model.target.id);
  const prose = draft.rules.filter((rule) => rule.kind === 'prose');
  const sections = sectionsOf(prose);
  const limit = options.maxRequests ?? MAX_MODEL_DRAFT_REQUESTS;
  const asked = sections.slice(0, limit);
  const unasked = sections.slice(limit).flatMap((section) => section.rules.map((rule) => rule.id));
  const rejected: RejectedProposal[] = [];
  const candidates = new Map<string, Candidate>();
  const taken = draft.rulebook.rules.map((rule) => ({ id: rule.id, check: rule.check as RuleCheck }));
  for (const section of asked) {
    let text: string;
    try {
      const reply = await options.model.generate({
        messages: sectionMessages(section, options.facts, options.existing),
        maxTokens: MAX_TOKENS,
        temperature: 0,
      });
      text = redact(reply.text, secrets);
    } catch (error) {
      const message = redact(error instanceof Error ? error.message : String(error), secrets);
      const where = options.model.target.baseUrl !== undefined ? ` at ${options.model.target.baseUrl}` : '';
      throw new OnboardError(
        'E_MODEL_DRAFT',
        `the model target "${target}" (${options.model.target.provider}${options.model.target.model !== undefined ? ` ${options.model.target.model}` : ''}${where}) failed while drafting checks for ${section.title}: ${message}. Nothing was written. Check the target in holdfast.config.yaml (holdfast targets --probe), or run holdfast init without --model to draft offline.`,
        { cause: error },
      );
    }
    const read = readProposals(text);
    if (!read.ok) {
      rejected.push({
        rule: section.rules.map((rule) => rule.id).join(', '),
        reason: `the model's reply for ${section.title} is not read (${read.why}): ${snippet(text)}`,
      });
      continue;
    }
    const ids = new Map(section.rules.map((rule) => [rule.id, rule]));
    for (const item of read.proposals) {
      const shape = ProposalSchema.safeParse(item);
      if (!shape.success) {
        rejected.push({
          rule: section.title,
          reason: `a proposal is not {"rule", "check", "violation", "compliance"}: ${snippet(JSON.stringify(item) ?? '')}`,
        });
        continue;
      }
      const proposal = shape.data;
      const kind = typeof proposal.check === 'object' && proposal.check !== null ? (proposal.check as { kind?: unknown }).kind : undefined;
      const reject = (reason: string) => rejected.push({ rule: proposal.rule, ...(typeof kind === 'string' ? { kind } : {}), reason });
      const drafted = ids.get(proposal.rule);
      if (drafted === undefined) {
        reject(`names rule ${proposal.rule}, which was not asked about in ${section.title}`);
        continue;
      }
      if (candidates.has(drafted.id)) {
        reject(`a second proposal for ${drafted.id}; the first that passed is kept`);
        continue;
      }
      const verified = await verify(proposal, drafted, options.existing);
      if (!verified.ok) {
        reject(verified.why);
        continue;
      }
      const same = taken.find((other) => isDeepStrictEqual(other.check, verified.candidate.rule.check));
      if (same !== undefined) {
        reject(`the same check as ${same.id}, which enforces it once`);
        continue;
      }
      candidates.set(drafted.id, verified.candidate);
      taken.push({ id: drafted.id, check: verified.candidate.rule.check });
    }
  }
  const kept: KeptProposal[] = [];
  const adopted: AdoptedCheck[] = [];
  if (candidates.size > 0) {
    const rules = [...candidates.values()].map((candidate) => candidate.rule);
    const book: Rulebook = { version: 1, name: 'proposals', rules, agents: [] };
    const unseen = new Map(rulesNotInHistory(book).map(({ rule, why }) => [rule.id, why]));
    const history = options.history === undefined ? undefined : await options.history(book);
    const firing = new Map(history?.rules.map((rule) => [rule.id, rule]));
    for (const [id, candidate] of candidates) {
      const notSeen = unseen.get(id);
      const fired = firing.get(id);
      if (fired?.probablyWrong === true) {
        rejected.push({
          rule: id,
          kind: candidate.rule.check.kind,
          reason: `refuses ${fired.commits} of the last ${history?.commits.length ?? 0} commits, more than ${PROBABLY_WRONG_SHARE * 100} % of the team's own history: probably wrong`,
        });
        continue;
      }
      const said =
        notSeen !== undefined
          ? `history cannot judge it (${notSeen})`
          : history === undefined
            ? 'not tried on a history'
            : `quiet on the last ${history.commits.length} commits (${fired?.commits ?? 0} refused)`;
      const drafted = draft.rules.find((rule) => rule.id === id)!;
      kept.push({ rule: id, kind: candidate.rule.check.kind, why: candidate.why, history: said });
      adopted.push({
        id,
        check: candidate.rule.check,
        why: `${candidate.why} (proposed by ${target}; verified on its own examples; ${said})`,
        note: `draft ${id} (${drafted.source}): check "${candidate.rule.check.kind}" proposed by the model ${target}: ${candidate.why}. Kept because it tripped on the model's example of the violation, stayed quiet on its example of compliance, and ${said}. Warns until promoted (holdfast rulebook try, then holdfast rulebook promote ${id}).`,
      });
    }
  }
  const notes = new Map<string, string>();
  for (const rule of prose) {
    const dropped = rejected.filter((item) => item.rule === rule.id);
    if (dropped.length > 0 && !candidates.has(rule.id))
      notes.set(rule.id, `${rule.note}\nthe model ${target} proposed a check; not kept: ${dropped.map((item) => item.reason).join('; ')}.`);
  }
  const drafted = adoptChecks(draft, adopted, notes);
  return {
    drafted: { ...drafted, yaml: redact(drafted.yaml, secrets) },
    target,
    requests: asked.length,
    kept,
    rejected,
    unasked,
  };
}

/** The model draft for a person: what was kept, what was not and why. */
export function formatModelDraft(draft: Omit<ModelDraft, 'drafted'>): string[] {
  const lines = [
    `Model drafting with ${draft.target}: ${draft.requests} request${draft.requests === 1 ? '' : 's'}, ${draft.kept.length} check${draft.kept.length === 1 ? '' : 's'} kept (at warn), ${draft.rejected.length} proposal${draft.rejected.length === 1 ? '' : 's'} not kept.`,
  ];
  for (const kept of draft.kept) lines.push(`  kept ${kept.rule} ${kept.kind}: ${kept.why}; ${kept.history}`);
  for (const item of draft.rejected) lines.push(`  not kept ${item.rule}${item.kind !== undefined ? ` ${item.kind}` : ''}: ${item.reason}`);
  if (draft.unasked.length > 0)
    lines.push(`  not asked (over the bound of ${MAX_MODEL_DRAFT_REQUESTS} requests): ${draft.unasked.join(', ')}; they stay prose only`);
  return lines;
}
