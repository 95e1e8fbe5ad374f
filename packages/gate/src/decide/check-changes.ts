import type { Action, Rulebook } from '@holdfast/core/contract';
import { checkTiming, rulesDecidedAt, undecodableResults } from '@holdfast/core/rules';
import type { CheckTiming } from '@holdfast/core/rules';
import type { CheckActions, Replay } from './decide.js';

/** What a tool call changed, as a round for the rulebook. */
interface ChangesToJudge {
  readonly root: string;
  readonly session: string;
  /**
   * `work-tree`: the files the call left changed. `commit`: one commit the call made (a script's `git
   * commit`, hooks skipped or not): its changed files, then the commit action last.
   */
  readonly round: 'work-tree' | 'commit';
  /** Writes (with their content) and deletes, and for a commit round the commit last. */
  readonly actions: readonly Action[];
  /** Paths that existed before (the before snapshot, or the commit's parent), so a new module is known as new. */
  readonly existedBefore: ReadonlySet<string>;
  /** Written paths whose bytes are not text, with why (see decodeText): refused where a content rule reaches. */
  readonly undecodable?: ReadonlyMap<string, string>;
}

/** One rule one action broke. `actionIndex` indexes ChangesToJudge.actions. */
export interface ChangeFailure {
  readonly actionIndex: number;
  readonly rule: string;
  readonly name: string;
  readonly detail: string;
}

/**
 * Judges changes against the rulebook. Passed in by the hook runtime, which replays the session
 * (earlier calls' files and test runs) the same way it does for PreToolUse.
 */
export type ChangeCheck = (changes: ChangesToJudge) => Promise<readonly ChangeFailure[]>;

export interface ChangeCheckOptions {
  readonly rulebook: Rulebook;
  readonly checkActions: CheckActions;
  /** What the session did before this call, placed before the changes; their own results are ignored. */
  readonly replay?: (root: string, session: string) => Replay;
  /** When a rule is decided that is not judged here (`change`: R3, judged over the session at a commit or the end of the turn). */
  readonly skipTimings?: readonly CheckTiming[];
}

const NOTHING_BEFORE: Replay = { actions: [], observed: new Map() };

/**
 * A ChangeCheck on the rules engine's checkActions. A commit round is judged in two parts: its files
 * by every rule but the order rules (the steps inside a script cannot be seen, as in the git
 * pre-commit gate), and the commit itself by the order rules after the session's replay (were the
 * tests run after the session's last change?).
 */
export function checkChangesWith(options: ChangeCheckOptions): ChangeCheck {
  const skipTimings = new Set(options.skipTimings ?? []);
  const rules = options.rulebook.rules;
  const skipped = new Set(rules.filter((rule) => skipTimings.has(checkTiming(rule.check))).map((rule) => rule.id));
  const orderRules = rulesDecidedAt(options.rulebook, 'commit');
  const judge = async (actions: readonly Action[], existed: ReadonlySet<string>, replay: Replay, keep: (rule: string) => boolean, offset: number) => {
    const before = replay.actions.length;
    const results = await options.checkActions([...replay.actions, ...actions], existed, options.rulebook, replay.observed);
    return results
      .filter((result) => !result.ok && result.actionIndex >= before && !skipped.has(result.rule) && keep(result.rule))
      .map((result) => ({ actionIndex: result.actionIndex - before + offset, rule: result.rule, name: result.name, detail: result.detail }));
  };
  const unreadable = (actions: readonly Action[], undecodable: ReadonlyMap<string, string> | undefined): ChangeFailure[] =>
    undecodable === undefined
      ? []
      : undecodableResults(options.rulebook, actions, undecodable)
          .filter((result) => !skipped.has(result.rule))
          .map((result) => ({ actionIndex: result.actionIndex, rule: result.rule, name: result.name, detail: result.detail }));
  return async ({ root, session, round, actions, existedBefore, undecodable }) => {
    const replay = options.replay?.(root, session) ?? NOTHING_BEFORE;
    if (round === 'work-tree') return [...unreadable(actions, undecodable), ...(await judge(actions, existedBefore, replay, () => true, 0))];
    const files = actions.filter((action) => action.type !== 'commit');
    const commits = actions.slice(files.length);
    return [
      ...unreadable(files, undecodable),
      ...(await judge(files, existedBefore, NOTHING_BEFORE, (rule) => !orderRules.has(rule), 0)),
      ...(await judge(commits, existedBefore, replay, (rule) => orderRules.has(rule), files.length)),
    ];
  };
}

/** A ChangeCheck that loads what it needs (the rulebook) on first use: a call that changed nothing never pays for it. */
export function checkChangesLazily(load: () => Promise<ChangeCheckOptions>): ChangeCheck {
  let loaded: Promise<ChangeCheck> | undefined;
  return async (changes) => {
    loaded ??= load().then(checkChangesWith);
    return (await loaded)(changes);
  };
}
