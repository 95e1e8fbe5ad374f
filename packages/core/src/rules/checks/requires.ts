import type { RequiresCheck } from '../../contract/index.js';
import { requiredRun, spellingsOf } from '../commands/required-run.js';
import type { CheckHandler, RuleLabel } from './check-handler.js';
import { result } from './check-handler.js';
import type { ActionView } from '../action-view.js';
import type { CheckResult } from '../../contract/index.js';

interface Required {
  readonly name: string;
  readonly example: string;
  readonly spellings: readonly (readonly string[])[];
}

interface Seen {
  passed: number | undefined;
  observed: boolean;
  failed: { index: number; ending: string } | undefined;
  refused: { index: number; why: string } | undefined;
}

/**
 * Every commit needs each required command (tests, type check, lint, build) to have passed on the tree
 * it commits: a run of it after the last write or delete, in the project root, whose result decides
 * its command line. When the run was executed (a sandbox, loop mode, the gate), it passed only with
 * exit code 0; a later run of the same command that failed undoes an earlier pass. A plan judged
 * without executing anything counts the run by its parsed command alone.
 */
export const requiresCheck: CheckHandler<RequiresCheck> = {
  description: 'Every commit needs each required command to have passed after the last change, in the project root.',
  timing: 'commit',
  notInHistory: 'a commit does not show which commands ran and passed before it',
  reads: 'paths',
  requires(check) {
    return check.commands.flatMap((command) => {
      const example = command.run[0];
      if (example === undefined) return [];
      const spellings = spellingsOf(command.run);
      return [
        {
          name: command.name ?? `\`${example}\``,
          example,
          counts: (commandLine: string) => requiredRun(commandLine, spellings)?.counts === true,
          mayCount: (commandLine: string) => requiredRun(commandLine, spellings) !== undefined,
        },
      ];
    });
  },
  prepare(check, rule) {
    const required: Required[] = check.commands.map((command) => ({
      name: command.name ?? `\`${command.run[0] ?? ''}\``,
      example: command.run[0] ?? '',
      spellings: spellingsOf(command.run),
    }));
    return (round) => judgeCommits(round.actions, required, rule);
  },
};

/** The requires rule over a round, shared with R6 (order), which is the same rule with one command. */
function judgeCommits(actions: readonly ActionView[], required: readonly Required[], rule: RuleLabel): CheckResult[] {
  if (!actions.some((action) => action.type === 'commit')) return [];
  const results: CheckResult[] = [];
  let lastChange: number | undefined;
  let seen = required.map(fresh);
  for (const action of actions) {
    if (action.type === 'write' || action.type === 'delete') {
      lastChange = action.index;
      seen = required.map(fresh);
    }
    if (action.type === 'run' && action.cmd !== undefined) {
      required.forEach((command, position) => {
        const run = requiredRun(action.cmd as string, command.spellings);
        const state = seen[position] as Seen;
        if (run === undefined) return;
        if (!run.counts) state.refused = { index: action.index, why: run.why };
        else if (action.observed === undefined || action.observed.passed) {
          state.passed = action.index;
          state.observed = action.observed !== undefined;
          state.failed = undefined;
        } else state.failed = { index: action.index, ending: action.observed.ending };
      });
    }
    if (action.type !== 'commit') continue;
    const commit = `commit (action ${action.index})`;
    const missing: string[] = [];
    const passed: string[] = [];
    required.forEach((command, position) => {
      const state = seen[position] as Seen;
      if (state.failed !== undefined) {
        missing.push(
          `${command.name} ran (action ${state.failed.index}) but did not pass: ${state.failed.ending}; a run counts only when it passes, so fix what fails and run ${command.example} again`,
        );
      } else if (state.passed !== undefined) passed.push(`${command.name} (action ${state.passed}${state.observed ? ', passed' : ''})`);
      else if (state.refused !== undefined) {
        missing.push(`${command.name} did not count (action ${state.refused.index}): ${state.refused.why}; run ${command.example} in the project root`);
      } else if (lastChange === undefined) missing.push(`${command.name} has not run before it; run ${command.example} first`);
      else missing.push(`${command.name} has not run since the last change (action ${lastChange}); run ${command.example} after your last change`);
    });
    if (missing.length === 0) results.push(result(rule, action.index, true, `${commit} follows ${passed.join(', ')}.`));
    else results.push(result(rule, action.index, false, `${commit}: ${missing.join('; ')}.`));
  }
  return results;
}

function fresh(): Seen {
  return { passed: undefined, observed: false, failed: undefined, refused: undefined };
}
