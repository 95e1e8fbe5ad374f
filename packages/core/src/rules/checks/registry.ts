import type { CheckKind, Rule, RuleCheck, Rulebook } from '../../contract/index.js';
import type { CheckHandler, CheckReads, CheckTiming, RequiredCommand } from './check-handler.js';
import { codeCheck } from './code.js';
import { forbiddenPatternCheck } from './forbidden-pattern.js';
import { httpHelperCheck } from './http-helper.js';
import { orderCheck } from './order.js';
import { scopeCheck } from './scope.js';
import { secretCheck } from './secret.js';
import { siblingTestCheck } from './sibling-test.js';
import { commandCheck } from './command.js';
import { customCheck } from './custom.js';
import { dependencyCheck } from './dependency.js';
import { pathsCheck } from './paths.js';
import { requiresCheck } from './requires.js';

/** Every check kind has exactly one handler; a new kind in the contract fails the type check here. */
export const CHECK_HANDLERS: { readonly [K in CheckKind]: CheckHandler<Extract<RuleCheck, { kind: K }>> } = {
  secret: secretCheck,
  scope: scopeCheck,
  'sibling-test': siblingTestCheck,
  'forbidden-pattern': forbiddenPatternCheck,
  'http-helper': httpHelperCheck,
  order: orderCheck,
  code: codeCheck,
  paths: pathsCheck,
  command: commandCheck,
  requires: requiresCheck,
  dependency: dependencyCheck,
  custom: customCheck,
};

export function handlerFor(check: RuleCheck): CheckHandler<RuleCheck> {
  // The registry's mapped type ties each kind to its handler; TypeScript cannot follow that
  // correlation through an indexed access, so the one cast lives here.
  return CHECK_HANDLERS[check.kind] as CheckHandler<RuleCheck>;
}

/** When a session decides this rule's check (see CheckTiming). */
export function checkTiming(check: RuleCheck): CheckTiming {
  return handlerFor(check).timing;
}

/** What a rule's check reads of a round to judge an action (see CheckHandler.reads). */
export function checkReads(check: RuleCheck): CheckReads {
  return handlerFor(check).reads;
}

/** The ids of the rulebook's rules a session decides at `timing`. */
export function rulesDecidedAt(rulebook: Rulebook, timing: CheckTiming): ReadonlySet<string> {
  return new Set(rulebook.rules.filter((rule) => checkTiming(rule.check) === timing).map((rule) => rule.id));
}

/** Each rule of the rulebook a history of commits cannot judge, with why (see CheckHandler.notInHistory). */
export function rulesNotInHistory(rulebook: Rulebook): { readonly rule: Rule; readonly why: string }[] {
  return rulebook.rules.flatMap((rule) => {
    const why = handlerFor(rule.check).notInHistory;
    return why === undefined ? [] : [{ rule, why }];
  });
}

/** A command a rule of the rulebook requires before a commit, with the rule that requires it. */
export interface RuleRequiredCommand extends RequiredCommand {
  readonly rule: Pick<Rule, 'id' | 'name'>;
}

/**
 * Every command the rulebook requires to have passed before a commit, in rule order: the one answer the
 * gate, loop and agent modes, `verify --run-required` and the commit re-run share.
 */
export function requiredCommands(rulebook: Rulebook): RuleRequiredCommand[] {
  return rulebook.rules.flatMap((rule) =>
    (handlerFor(rule.check).requires?.(rule.check) ?? []).map((command) => ({ ...command, rule: { id: rule.id, name: rule.name } })),
  );
}

/** Whether a command line counts as a run of a command the rulebook requires (only those are worth re-running or binding to a tree). */
export function countsAsRequiredRun(rulebook: Rulebook): (commandLine: string) => boolean {
  const required = requiredCommands(rulebook);
  return (commandLine) => required.some((command) => command.counts(commandLine));
}
