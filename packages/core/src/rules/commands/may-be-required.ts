import type { Rulebook } from '../../contract/index.js';
import { requiredCommands } from '../checks/registry.js';

/**
 * Whether a rule about what must pass before a commit (order, requires) could count this command line
 * as one of its runs. False only when none surely can: the order rule's pattern lacks text it needs
 * (no RE2 is loaded to say so) and no required command is run. The gate binds a passing run to the
 * tree it ran on only when this is true, so a call that runs nothing required costs no git process.
 */
export function mayBeRequiredRun(rulebook: Rulebook, commandLine: string): boolean {
  return requiredCommands(rulebook).some((command) => command.mayCount(commandLine));
}

/**
 * Matches each command line against every order rule's pattern now, so the answers are kept (see
 * answersFrom in regex.ts) and a commit judged later finds them without loading RE2. The gate calls it
 * after a passing run that may count (mayBeRequiredRun), where the run just took seconds: the commit,
 * which also stages and hashes the tree, should not be the call that pays for RE2. A pattern RE2
 * refuses is left for the commit to report.
 */
export function answerOrderPatterns(rulebook: Rulebook, commandLines: readonly string[]): void {
  // Asking each required command whether a line counts runs its pattern now; a pattern RE2 refuses
  // counts nothing there and is left for the commit's own check to report.
  for (const command of requiredCommands(rulebook)) for (const line of commandLines) command.counts(line);
}
