import type { CheckKind, RuleCheck } from '../../contract/index.js';
import type { CheckHandler } from './check-handler.js';
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
