import type { Rulebook } from '../../contract/index.js';
import { lazyPatterns } from '../regex.js';
import { requiredRun, spellingsOf } from './required-run.js';

/**
 * Whether a rule about what must pass before a commit (order, requires) could count this command line
 * as one of its runs. False only when none surely can: the order rule's pattern lacks text it needs
 * (no RE2 is loaded to say so) and no required command is run. The gate binds a passing run to the
 * tree it ran on only when this is true, so a call that runs nothing required costs no git process.
 */
export function mayBeRequiredRun(rulebook: Rulebook, commandLine: string): boolean {
  for (const rule of rulebook.rules) {
    const check = rule.check;
    if (check.kind === 'order' && lazyPatterns([check.command], '')[0]?.mayMatch?.(commandLine) !== false) return true;
    if (check.kind === 'requires' && check.commands.some((command) => requiredRun(commandLine, spellingsOf(command.run)) !== undefined)) return true;
  }
  return false;
}
