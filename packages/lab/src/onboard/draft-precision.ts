import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleCheck } from '@holdfast/core/contract';
import { draftRulebook } from './draft-rulebook.js';
import type { DraftedRulebook } from './draft-rulebook.js';
import { repoFacts } from './repo-facts.js';
import type { RepoFacts } from './repo-facts.js';

/** Which half of the corpus a file belongs to: tuned on, or held out from every change to the drafter. */
export type CorpusSet = 'tuning' | 'held-out';

/** One rule file of the labelled corpus, as `fixtures/rule-files/corpus.json` lists it. */
export interface CorpusEntry {
  readonly dir: string;
  readonly file: string;
  readonly repo: string;
  readonly path: string;
  readonly commit: string;
  readonly licence: string;
  readonly sha256: string;
  readonly set: CorpusSet;
}

/** Which way a sentence points at its object. */
export type Polarity = 'require' | 'forbid' | 'allow';

/** A hand label (`checks.json`): what a rule asks, and the check that would enforce it. */
export interface CheckLabel {
  readonly line: number;
  /** The check kind that enforces the rule, or `prose` when none can (the label then records only its polarity). */
  readonly kind: string;
  readonly polarity: Polarity;
  /** What the sentence names: a command as typed, a path, a code literal; `tests`, `secrets`, `dependencies`. */
  readonly objects: readonly string[];
  /** The start of that line in the file, so a label cannot drift onto another rule. */
  readonly text: string;
}

export interface CorpusFile {
  readonly entry: CorpusEntry;
  readonly text: string;
  readonly labels: readonly CheckLabel[];
}

/** A drafted check judged against the labels. */
export interface JudgedCheck {
  readonly dir: string;
  readonly line: number;
  readonly kind: string;
  readonly polarity: Polarity;
  readonly objects: readonly string[];
  readonly verdict: 'right' | 'wrong' | 'inverted';
  /** Why it is not right, in words. */
  readonly reason?: string;
}

/** Precision, inverted count and recall over one set of files, with the counts behind them. */
export interface SetMeasure {
  readonly files: number;
  readonly rules: number;
  readonly proposed: number;
  readonly right: number;
  readonly inverted: number;
  /** Rules labelled with a check kind: the denominator of recall. */
  readonly checkable: number;
  readonly precision: number;
  readonly recall: number;
  readonly checks: readonly JudgedCheck[];
  /** Checkable labels no right check enforces. */
  readonly missed: readonly { readonly dir: string; readonly line: number; readonly kind: string }[];
}

export interface DraftMeasure {
  readonly all: SetMeasure;
  readonly tuning: SetMeasure;
  readonly heldOut: SetMeasure;
}

/** The facts a TypeScript repository with sibling tests gives; every corpus file is drafted against the same. */
export const CORPUS_FACTS: RepoFacts = repoFacts(['package.json', 'src/index.ts', 'src/index.test.ts'], '{"scripts":{"test":"vitest run"}}');

/** Reads the corpus: each rule file exactly as stored, with its labels. */
export function readCorpus(dir: string): CorpusFile[] {
  const corpus = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')) as { corpus: CorpusEntry[] };
  const labels = JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8')) as { labels: Record<string, CheckLabel[]> };
  return corpus.corpus.map((entry) => ({ entry, text: readFileSync(join(dir, entry.dir, entry.file), 'utf8'), labels: labels.labels[entry.dir] ?? [] }));
}

/** The direction a check enforces: a deny list forbids, an allowlist or a required command requires. */
export function checkPolarity(check: RuleCheck): Polarity {
  switch (check.kind) {
    case 'secret':
    case 'forbidden-pattern':
    case 'command':
    case 'dependency':
    case 'code':
      return 'forbid';
    case 'paths':
      return check.deny !== undefined && check.allow === undefined ? 'forbid' : 'require';
    default:
      return 'require';
  }
}

/** What a check enforces, in the words a label uses. */
export function checkObjects(check: RuleCheck): string[] {
  switch (check.kind) {
    case 'secret':
      return ['secrets'];
    case 'sibling-test':
      return ['tests'];
    case 'dependency':
      return ['dependencies'];
    case 'forbidden-pattern':
      return [...check.what.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
    case 'command':
      return check.forbid.map((entry) => `${entry.command}${entry.flags?.[0] === undefined ? '' : ` ${entry.flags[0]}`}`);
    case 'requires':
      return check.commands.map((command) => command.run[0] ?? '');
    case 'order':
      return [check.example];
    case 'paths':
      return [...(check.deny ?? []), ...(check.allow ?? [])];
    case 'scope':
      return [...check.allow];
    case 'http-helper':
      return [check.helper];
    default:
      return [check.kind];
  }
}

/** One spelling for an object: `**∕x∕**`, `./x/`, `x()` and `X` all compare as `x`. */
function normal(object: string): string {
  return object
    .trim()
    .toLowerCase()
    .replace(/^\.\//, '')
    .replace(/^(\*\*\/)+/, '')
    .replace(/(\/\*\*)+$/, '')
    .replace(/\/+$/, '')
    .replace(/\(\)$/, '')
    .replace(/\s+/g, ' ');
}

/** Whether forbidding `forbidden` would forbid running `required` ("pnpm" -F forbids "pnpm -F agents-core test"). */
function forbids(forbidden: string, required: string): boolean {
  return required === forbidden || required.startsWith(`${forbidden} `);
}

/** `order` and `requires` both enforce "this command ran before the commit": a label of one accepts the other. */
function family(kind: string): string {
  return kind === 'order' ? 'requires' : kind;
}

function judge(dir: string, line: number, check: RuleCheck, labels: readonly CheckLabel[]): JudgedCheck {
  const polarity = checkPolarity(check);
  const objects = checkObjects(check);
  const base = { dir, line, kind: check.kind, polarity, objects };
  const own = labels.filter((label) => label.line === line);
  // Inverted: the check points against its own sentence, or forbids what the file requires or allows elsewhere.
  const opposite = (label: CheckLabel): boolean => (label.polarity === 'forbid') !== (polarity === 'forbid');
  const against = own.every(opposite) ? own[0] : undefined;
  if (against !== undefined) return { ...base, verdict: 'inverted', reason: `the sentence ${against.polarity}s ${against.objects.join(', ')}` };
  if (polarity === 'forbid') {
    for (const label of labels) {
      if (label.polarity === 'forbid') continue;
      const hit = objects.find((object) => label.objects.some((wanted) => forbids(normal(object), normal(wanted))));
      if (hit !== undefined) return { ...base, verdict: 'inverted', reason: `forbids \`${hit}\`, which line ${label.line} ${label.polarity}s` };
    }
  }
  const label = own.find((candidate) => family(candidate.kind) === family(check.kind) && candidate.polarity === polarity);
  if (label === undefined)
    return { ...base, verdict: 'wrong', reason: own.length === 0 ? 'no checkable rule is labelled there' : `labelled ${own.map((l) => l.kind).join(', ')}` };
  const allowed = new Set(label.objects.map(normal));
  const stray = objects.filter((object) => !allowed.has(normal(object)));
  if (objects.length === 0 || stray.length > 0)
    return { ...base, verdict: 'wrong', reason: `enforces ${stray.join(', ') || 'nothing'}; the sentence names ${label.objects.join(', ')}` };
  return { ...base, verdict: 'right' };
}

/** A rule file and the draft made of it. */
interface DraftedFile {
  readonly file: CorpusFile;
  readonly drafted: DraftedRulebook;
}

function measureSet(drafts: readonly DraftedFile[]): SetMeasure {
  let rules = 0;
  let checkable = 0;
  const checks: JudgedCheck[] = [];
  const missed: { dir: string; line: number; kind: string }[] = [];
  for (const { file, drafted } of drafts) {
    rules += drafted.rules.length;
    const judged = drafted.rulebook.rules.map((rule) => judge(file.entry.dir, rule.source?.lines[0] ?? 0, rule.check, file.labels));
    checks.push(...judged);
    for (const label of file.labels) {
      if (label.kind === 'prose') continue;
      checkable++;
      if (!judged.some((check) => check.verdict === 'right' && check.line === label.line && family(check.kind) === family(label.kind)))
        missed.push({ dir: file.entry.dir, line: label.line, kind: label.kind });
    }
  }
  const right = checks.filter((check) => check.verdict === 'right').length;
  return {
    files: drafts.length,
    rules,
    proposed: checks.length,
    right,
    inverted: checks.filter((check) => check.verdict === 'inverted').length,
    checkable,
    precision: checks.length === 0 ? 1 : right / checks.length,
    recall: checkable === 0 ? 1 : (checkable - missed.length) / checkable,
    checks,
    missed,
  };
}

function bySet(drafts: readonly DraftedFile[]): DraftMeasure {
  return {
    all: measureSet(drafts),
    tuning: measureSet(drafts.filter((draft) => draft.file.entry.set !== 'held-out')),
    heldOut: measureSet(drafts.filter((draft) => draft.file.entry.set === 'held-out')),
  };
}

/**
 * Drafts every corpus file and judges each proposed check as a team would: right only when a label on its
 * line has the same kind and polarity and names every object the check enforces; inverted when it forbids
 * what its sentence (or another line of the file) requires or allows. Recall counts the labelled checkable
 * rules a right check enforces. Reported for the whole corpus, the tuning half and the held-out half.
 */
export function measureDrafting(files: readonly CorpusFile[], facts: RepoFacts = CORPUS_FACTS): DraftMeasure {
  return bySet(files.map((file) => ({ file, drafted: draftRulebook([{ path: file.entry.file, text: file.text }], facts) })));
}

/** The same figures for another drafter (`init --model`'s): each file drafted once, in corpus order. */
export async function measureDrafter(
  files: readonly CorpusFile[],
  drafter: (file: CorpusFile, facts: RepoFacts) => Promise<DraftedRulebook>,
  facts: RepoFacts = CORPUS_FACTS,
): Promise<DraftMeasure> {
  const drafts: DraftedFile[] = [];
  for (const file of files) drafts.push({ file, drafted: await drafter(file, facts) });
  return bySet(drafts);
}
