import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { draftRulebook } from './draft-rulebook.js';
import type { DraftedRule } from './draft-rulebook.js';
import { repoFacts } from './repo-facts.js';
import type { RepoFacts } from './repo-facts.js';

/** One rule file of the labelled corpus, as `fixtures/rule-files/corpus.json` lists it. */
export interface CorpusEntry {
  readonly dir: string;
  readonly file: string;
  readonly repo: string;
  readonly path: string;
  readonly licence: string;
  readonly sha256: string;
}

/** A hand label: what the rule starting at `line` should become. */
export interface RuleLabel {
  readonly line: number;
  /** A check kind, `needs:KIND` for a kind drafting does not propose yet, or `prose`. */
  readonly expect: string;
  /** The start of that line in the file, so a label cannot drift onto another rule. */
  readonly text: string;
}

export interface CorpusFile {
  readonly entry: CorpusEntry;
  readonly text: string;
  readonly labels: readonly RuleLabel[];
}

/** A drafted rule whose proposal differs from its label, or a label with no drafted rule. */
export interface DraftMismatch {
  readonly dir: string;
  readonly line: number;
  readonly expected: string;
  readonly proposed: string;
}

/** Precision and recall of proposed checks against the labels, with the counts behind them. */
export interface DraftMeasure {
  readonly files: number;
  readonly rules: number;
  readonly proposed: number;
  readonly correct: number;
  readonly labelledChecks: number;
  readonly precision: number;
  readonly recall: number;
  /** Rules labelled with a kind drafting cannot propose yet, and how many the hook names right. */
  readonly pending: { readonly labelled: number; readonly named: number };
  readonly mismatches: readonly DraftMismatch[];
  /** Drafted rules that have no label: the corpus must be labelled again. */
  readonly unlabelled: readonly DraftMismatch[];
}

/** The facts a TypeScript repository with sibling tests gives; every corpus file is drafted against the same. */
export const CORPUS_FACTS: RepoFacts = repoFacts(['package.json', 'src/index.ts', 'src/index.test.ts'], '{"scripts":{"test":"vitest run"}}');

/** Reads the corpus: each rule file exactly as stored, with its labels. */
export function readCorpus(dir: string): CorpusFile[] {
  const corpus = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')) as { corpus: CorpusEntry[] };
  const labels = JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')) as { labels: Record<string, RuleLabel[]> };
  return corpus.corpus.map((entry) => ({ entry, text: readFileSync(join(dir, entry.dir, entry.file), 'utf8'), labels: labels.labels[entry.dir] ?? [] }));
}

function proposalOf(rule: DraftedRule): string {
  if (rule.kind !== 'prose') return rule.kind;
  return rule.needs !== undefined ? `needs:${rule.needs}` : 'prose';
}

/** The kind a label asks for: the labels written before a kind existed name it as `needs:KIND` (`paths-deny` is `paths`). */
function labelledKind(expect: string): string {
  if (!expect.startsWith('needs:')) return expect;
  const kind = expect.slice('needs:'.length);
  return kind === 'paths-deny' ? 'paths' : kind;
}

/**
 * Drafts every corpus file and scores the proposed checks against the hand labels. A proposed
 * check is right when its kind is the labelled kind; precision counts every proposed check,
 * recall every rule labelled with a kind drafting can propose.
 */
export function measureDrafting(files: readonly CorpusFile[], facts: RepoFacts = CORPUS_FACTS): DraftMeasure {
  let rules = 0;
  let proposed = 0;
  let correct = 0;
  let labelledChecks = 0;
  let pendingLabelled = 0;
  let pendingNamed = 0;
  const mismatches: DraftMismatch[] = [];
  const unlabelled: DraftMismatch[] = [];
  for (const file of files) {
    const drafted = draftRulebook([{ path: file.entry.file, text: file.text }], facts);
    const byLine = new Map(drafted.rules.map((rule) => [rule.span.lines[0], rule]));
    const labels = new Map(file.labels.map((label) => [label.line, label]));
    rules += drafted.rules.length;
    for (const rule of drafted.rules) {
      const label = labels.get(rule.span.lines[0]);
      if (label === undefined) unlabelled.push({ dir: file.entry.dir, line: rule.span.lines[0], expected: '(no label)', proposed: proposalOf(rule) });
      if (rule.kind === 'prose') continue;
      proposed++;
      if (label !== undefined && labelledKind(label.expect) === rule.kind) correct++;
    }
    for (const label of file.labels) {
      const rule = byLine.get(label.line);
      const got = rule === undefined ? 'prose' : proposalOf(rule);
      if (label.expect.startsWith('needs:')) {
        pendingLabelled++;
        if (got === label.expect || got === labelledKind(label.expect)) pendingNamed++;
      }
      if (label.expect !== 'prose') labelledChecks++;
      const gotKind = got.startsWith('needs:') ? 'prose' : got;
      const wantKind = labelledKind(label.expect);
      if (gotKind !== wantKind) mismatches.push({ dir: file.entry.dir, line: label.line, expected: label.expect, proposed: got });
    }
  }
  const found = correct;
  return {
    files: files.length,
    rules,
    proposed,
    correct,
    labelledChecks,
    precision: proposed === 0 ? 1 : correct / proposed,
    recall: labelledChecks === 0 ? 1 : found / labelledChecks,
    pending: { labelled: pendingLabelled, named: pendingNamed },
    mismatches,
    unlabelled,
  };
}
