import type { CheckResult, RuleCheck } from '../../contract/index.js';
import type { ActionView } from '../action-view.js';

/** The rule a check judges for, as it appears in every detail sentence ("R2 SCOPE"). */
export interface RuleLabel {
  readonly id: string;
  readonly name: string;
}

/** What a check sees: the whole round (R3 and R6 need more than one action) and what already existed. */
export interface Round {
  readonly actions: readonly ActionView[];
  /** Normalised paths the agent could already see before the round. */
  readonly existing: ReadonlySet<string>;
  /** What an existing file held before the round, when the caller knows it (undefined: not known). */
  readonly contentOf?: (path: string) => string | undefined;
}

export type Judge = (round: Round) => CheckResult[] | Promise<CheckResult[]>;

/**
 * A built-in check kind. `prepare` compiles the rule's globs and regexes once; the judge it returns
 * is pure and must not throw on any round.
 */
export interface CheckHandler<C extends RuleCheck> {
  prepare(check: C, rule: RuleLabel): Judge;
}

export function result(rule: RuleLabel, actionIndex: number, ok: boolean, sentence: string): CheckResult {
  return { rule: rule.id, name: rule.name, actionIndex, ok, detail: `${rule.id} ${rule.name}: ${sentence}` };
}

/** 1-based line of a character offset, and that line's text trimmed and shortened for a detail sentence. */
export function lineAt(content: string, offset: number): { line: number; excerpt: string } {
  let line = 1;
  let lineStart = 0;
  for (let position = content.indexOf('\n'); position !== -1 && position < offset; position = content.indexOf('\n', position + 1)) {
    line++;
    lineStart = position + 1;
  }
  const lineEnd = content.indexOf('\n', lineStart);
  const text = content.slice(lineStart, lineEnd === -1 ? Math.min(content.length, lineStart + 500) : Math.min(lineEnd, lineStart + 500)).trim();
  return { line, excerpt: text.length > 60 ? `${text.slice(0, 60)}…` : text };
}
