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

/**
 * Matches each command line against every order rule's pattern now, so the answers are kept (see
 * answersFrom in regex.ts) and a commit judged later finds them without loading RE2. The gate calls it
 * after a passing run that may count (mayBeRequiredRun), where the run just took seconds: the commit,
 * which also stages and hashes the tree, should not be the call that pays for RE2. A pattern RE2
 * refuses is left for the commit to report.
 */
export function answerOrderPatterns(rulebook: Rulebook, commandLines: readonly string[]): void {
  for (const rule of rulebook.rules) {
    if (rule.check.kind !== 'order') continue;
    const [pattern] = lazyPatterns([rule.check.command], '');
    for (const line of commandLines) {
      try {
        pattern?.test(line);
      } catch {
        // the commit's own check says the pattern cannot be judged
      }
    }
  }
}
