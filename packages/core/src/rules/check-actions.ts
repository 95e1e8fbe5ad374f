import type { Action, CheckResult, Rulebook } from '../contract/index.js';
import { viewActions } from './action-view.js';
import type { ObservedRun } from '../contract/index.js';
import type { CustomCheckLauncher, Judge, PrepareContext, RuleLabel } from './checks/check-handler.js';
import { result } from './checks/check-handler.js';
import { handlerFor } from './checks/registry.js';
import { normalizeRepoPath } from './paths.js';

interface PreparedRule {
  readonly label: RuleLabel;
  readonly judge: Judge;
}

// Globs and regexes are compiled once per rulebook object, not once per round.
const prepared = new WeakMap<Rulebook, readonly PreparedRule[]>();
const launchers = new WeakMap<Rulebook, CustomCheckLauncher>();

/**
 * A copy of the rulebook whose `custom` checks start through `launcher`: `holdfast verify` runs the
 * base's rule code, written out to a folder of its own, inside bubblewrap. The rules are the same.
 */
export function withCustomLauncher(rulebook: Rulebook, launcher: CustomCheckLauncher): Rulebook {
  const copy = { ...rulebook };
  launchers.set(copy, launcher);
  return copy;
}

/** The rulebook with only `rules`, keeping the launcher its custom checks were given (a plain copy would lose it). */
export function withOnlyRules(rulebook: Rulebook, rules: Rulebook['rules']): Rulebook {
  const copy = { ...rulebook, rules };
  const launcher = launchers.get(rulebook);
  if (launcher !== undefined) launchers.set(copy, launcher);
  return copy;
}

/**
 * Judges a round's actions against every rule. Returns one result per (rule, action) a rule
 * judged, ordered by action index, then rule order. Never throws: an action it cannot read is an
 * ok:false result naming why (fail closed), and so is a rule that cannot run. `observed` holds
 * how `run` actions really ended, by action index, when a sandbox executed them.
 */
export async function checkActions(
  actions: readonly Action[],
  existingPaths: Iterable<string>,
  rulebook: Rulebook,
  observed?: ReadonlyMap<number, ObservedRun>,
  existingContent?: (path: string) => string | undefined,
): Promise<CheckResult[]> {
  try {
    return await judgeRound(actions, existingPaths, rulebook, observed, existingContent);
  } catch (error) {
    // Only a hostile value (a throwing getter, a proxy) gets here. Fail closed on the first action.
    return readRules(rulebook).map((rule, position) => result(labelOf(rule, position), 0, false, `the actions cannot be read (${reasonOf(error)}).`));
  }
}

async function judgeRound(
  actions: readonly Action[],
  existingPaths: Iterable<string>,
  rulebook: Rulebook,
  observed: ReadonlyMap<number, ObservedRun> | undefined,
  existingContent: ((path: string) => string | undefined) | undefined,
): Promise<CheckResult[]> {
  const rules = prepareRules(rulebook);
  const views = viewActions(actions, observed);
  const round = { actions: views, existing: readExisting(existingPaths), contentOf: safeContent(existingContent) };
  const results: { result: CheckResult; order: number }[] = [];
  for (const [order, rule] of rules.entries()) {
    for (const view of views) {
      // Nothing can be said of an action that is not one of the four kinds, so every rule refuses it.
      if (view.unreadable !== undefined) {
        results.push({ order, result: result(rule.label, view.index, false, `action ${view.index} cannot be judged: ${view.unreadable}.`) });
      }
    }
    for (const judged of await runJudge(rule, round, views.length)) results.push({ order, result: judged });
  }
  return results.sort((left, right) => left.result.actionIndex - right.result.actionIndex || left.order - right.order).map((entry) => entry.result);
}

function prepareRules(rulebook: Rulebook): readonly PreparedRule[] {
  const rules = readRules(rulebook);
  const key = typeof rulebook === 'object' && rulebook !== null ? rulebook : undefined;
  const cached = key === undefined ? undefined : prepared.get(key);
  if (cached !== undefined) return cached;
  const launcher = key === undefined ? undefined : launchers.get(key);
  const context: PrepareContext = launcher === undefined ? {} : { customLauncher: launcher };
  const fresh = rules.map((rule, position) => prepareRule(rule, position, context));
  if (key !== undefined) prepared.set(key, fresh);
  return fresh;
}

function readRules(rulebook: Rulebook): readonly Rulebook['rules'][number][] {
  const rules: unknown = typeof rulebook === 'object' && rulebook !== null ? rulebook.rules : undefined;
  return Array.isArray(rules) ? rules : [];
}

function prepareRule(rule: Rulebook['rules'][number], position: number, context: PrepareContext): PreparedRule {
  const label = labelOf(rule, position);
  try {
    return { label, judge: handlerFor(rule.check).prepare(rule.check, label, context) };
  } catch (error) {
    const reason = reasonOf(error);
    return {
      label,
      judge: (round) =>
        round.actions.map((action) => result(label, action.index, false, `action ${action.index} cannot be judged: the rule does not load (${reason}).`)),
    };
  }
}

async function runJudge(rule: PreparedRule, round: Parameters<Judge>[0], count: number): Promise<CheckResult[]> {
  try {
    return await rule.judge(round);
  } catch (error) {
    // A check that throws is a bug in holdfast, but the round still gets a verdict: fail closed.
    const reason = reasonOf(error);
    return Array.from({ length: count }, (_, index) => result(rule.label, index, false, `action ${index} cannot be judged: the check failed (${reason}).`));
  }
}

// The rulebook may not be what its type says (a hand-built object, a recorded run), so neither field is trusted.
function labelOf(rule: Rulebook['rules'][number] | undefined, position: number): RuleLabel {
  return { id: String(rule?.id ?? `#${position}`), name: String(rule?.name ?? 'RULE') };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readExisting(existingPaths: Iterable<string>): Set<string> {
  const existing = new Set<string>();
  try {
    for (const path of existingPaths) {
      const normalized = normalizeRepoPath(path);
      if (normalized.ok) existing.add(normalized.path);
    }
  } catch {
    // An unreadable list of existing paths means nothing is known to exist: every module is new.
  }
  return existing;
}

/** A caller's content reader that throws or answers a non-string is read as "not known". */
function safeContent(read: ((path: string) => string | undefined) | undefined): (path: string) => string | undefined {
  return (path) => {
    try {
      const text: unknown = read?.(path);
      return typeof text === 'string' ? text : undefined;
    } catch {
      return undefined;
    }
  };
}
