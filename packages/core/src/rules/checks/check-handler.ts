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
 * How a `custom` check's code is started, when the caller says so (`holdfast verify`: the base's rule
 * code, written out by verify and run confined). Without one, a module or program is found in the
 * folder holdfast runs in and started as it is.
 */
export interface CustomCheckLauncher {
  /** The folder a check's module and program paths resolve against, and the program's working folder. */
  readonly root: string;
  /** The command line that starts the check's process (verify: the same command inside bubblewrap). */
  wrap(command: { readonly file: string; readonly args: readonly string[] }): { readonly file: string; readonly args: readonly string[] };
}

/** What a handler is prepared with beyond its check: only a custom check reads it. */
export interface PrepareContext {
  readonly customLauncher?: CustomCheckLauncher;
}

/**
 * When a kind's verdict is decided in a session spread over many tool calls:
 *
 * - `action`: on each action as it comes (a write's content, a run's command line);
 * - `commit`: at a commit, from what the session ran since its last change (order, requires): a history
 *   of commits cannot show it, so `verify` and `rulebook try` list such a rule as not judged;
 * - `change`: over the whole change (a new module and its test may come in separate calls), so it is
 *   held as pending and enforced when the session commits or ends.
 */
export type CheckTiming = 'action' | 'commit' | 'change';

/** See CheckHandler.reads. */
export type CheckReads = 'paths' | 'file' | 'round';

/** A command a rule requires to have passed before a commit: what the gate, verify and the re-runs ask the rulebook. */
export interface RequiredCommand {
  /** How a detail sentence names it ("the type check", "`npm test`"). */
  readonly name: string;
  /** The command line to run it: what `verify --run-required` and the commit re-run execute. */
  readonly example: string;
  /** Whether a command line counts as a run of it (run in the project root, by one of its spellings). */
  counts(commandLine: string): boolean;
  /** False only when the command line surely does not count; cheap (loads no RE2). */
  mayCount(commandLine: string): boolean;
}

/**
 * A built-in check kind, with its meaning beside it (promptfoo keeps an assertion's definition with its
 * handler): what it judges, when a session decides it, and the commands it requires. Code elsewhere asks
 * the registry (registry.ts) for these; it never matches a kind's name. `prepare` compiles the rule's
 * globs and regexes once; the judge it returns is pure and must not throw on any round.
 */
export interface CheckHandler<C extends RuleCheck> {
  /** What the kind judges, in one sentence (docs, `rulebook try`, the answers of the gate). */
  readonly description: string;
  readonly timing: CheckTiming;
  /**
   * Why a history of commits cannot judge this kind, when it cannot: a commit holds files, not the
   * commands run before it. `rulebook try` and `verify` list such a rule as not judged, never as passing.
   */
  readonly notInHistory?: string;
  /**
   * What of a round the kind reads to judge an action: `paths` (paths, commands and the list of
   * what exists, never a file's text), `file` (one written file's path and text and nothing else, so
   * its verdict on a file is the same in any round: `verify` judges a file once however many commits
   * write it), `round` (texts of other files beside the one judged).
   */
  readonly reads: CheckReads;
  /** The commands a rule of this kind requires before a commit (only `commit`-timed kinds have any). */
  requires?(check: C): readonly RequiredCommand[];
  prepare(check: C, rule: RuleLabel, context?: PrepareContext): Judge;
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
