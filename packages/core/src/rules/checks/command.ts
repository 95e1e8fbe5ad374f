import type { CommandCheck, ForbiddenCommand } from '../../contract/index.js';
import { quote } from '../action-view.js';
import { findFlag, isCommand, operandsOf } from '../commands/match-command.js';
import { readCommands, resolveFolder } from '../commands/read-commands.js';
import type { SimpleCommand } from '../commands/read-commands.js';
import type { CheckHandler } from './check-handler.js';
import { result } from './check-handler.js';

type Verdict = { readonly ok: true } | { readonly ok: false; readonly sentence: string };

/**
 * Forbidden commands and flags in `run` actions, judged on the parsed command line: every simple
 * command the shell would run, through `env`, `sudo`, `sh -c`, `eval`, `;`, `&&`, pipes and
 * subshells. A comment or a quoted string that names the command is not running it. A command whose
 * program (or a flag that may be forbidden) is computed at run time cannot be judged: fail closed.
 */
export const commandCheck: CheckHandler<CommandCheck> = {
  description: 'Refuses a forbidden command or flag in a run, read from the parsed command line.',
  timing: 'action',
  notInHistory: 'a commit holds files, not the commands that were run',
  reads: 'paths',
  prepare(check, rule) {
    const forbidden = check.forbid.map((entry) => ({ entry, words: entry.command.split(' ') }));
    return (round) =>
      round.actions.flatMap((action) => {
        if (action.type !== 'run') return [];
        if (action.cmd === undefined) return [result(rule, action.index, false, `run (action ${action.index}) has no command text to judge.`)];
        const shown = quote(action.cmd);
        const reading = readCommands(action.cmd);
        for (const command of reading.commands) {
          for (const { entry, words } of forbidden) {
            if (!isCommand(command, words)) continue;
            const verdict = judge(command, entry);
            if (!verdict.ok) return [result(rule, action.index, false, `run ${shown} (action ${action.index}) ${verdict.sentence}`)];
          }
        }
        const [undecided] = reading.undecided;
        if (undecided !== undefined) {
          return [
            result(
              rule,
              action.index,
              false,
              `run ${shown} (action ${action.index}) cannot be judged: \`${undecided.text}\`: ${undecided.why}; write the command out literally.`,
            ),
          ];
        }
        return [result(rule, action.index, true, `run ${shown} (action ${action.index}) runs no forbidden command.`)];
      });
  },
};

function judge(command: SimpleCommand, entry: ForbiddenCommand): Verdict {
  const why = entry.why === undefined ? '' : ` (${entry.why})`;
  const through = command.via.length === 0 ? '' : ` through ${command.via.join(', ')}`;
  const named = `\`${entry.command}\``;
  let flagText = '';
  if (entry.flags !== undefined) {
    const flag = forcedPush(command, entry) ?? findFlag(command, entry.flags);
    if (!flag.found) {
      if (flag.unknown === undefined) return { ok: true };
      return {
        ok: false,
        sentence: `cannot be judged: ${named}${through} has an argument computed at run time (${flag.unknown}) that may be one of ${entry.flags.join(', ')}; write its options out literally.`,
      };
    }
    flagText = ` with ${flag.as}`;
  }
  if (entry.outside) {
    const place = outsideOperand(command);
    if (place === undefined) return { ok: true };
    if (place.undecided)
      return {
        ok: false,
        sentence: `cannot be judged: ${named}${flagText}${through} names ${place.text}, which cannot be placed before it runs; name paths inside the project literally.`,
      };
    return { ok: false, sentence: `runs ${named}${flagText}${through} on ${place.text}, outside the project, which is forbidden${why}.` };
  }
  return { ok: false, sentence: `runs ${named}${flagText}${through}, which is forbidden${why}; do the work without it.` };
}

/** `git push origin +main` forces like `--force` does, so a rule that forbids `-f` forbids it too. */
function forcedPush(command: SimpleCommand, entry: ForbiddenCommand): { found: true; as: string } | undefined {
  if (entry.command !== 'git push' || entry.flags?.some((flag) => flag === '--force' || flag === '-f') !== true) return undefined;
  const refspec = operandsOf(command).operands.find((operand) => operand.literal && operand.text.startsWith('+'));
  return refspec === undefined ? undefined : { found: true, as: `the forced refspec ${refspec.text}` };
}

/** The first operand that points outside the project (or cannot be placed), seen from the folder the command runs in. */
function outsideOperand(command: SimpleCommand): { text: string; undecided: boolean } | undefined {
  if (command.folder.where === 'unknown') return { text: `a folder not known here (${command.folder.why})`, undecided: true };
  const { operands } = operandsOf(command);
  for (const operand of operands) {
    if (!operand.literal) return { text: operand.text, undecided: true };
    const folder = resolveFolder(command.folder, operand.text);
    if (folder.where === 'outside') return { text: operand.text, undecided: false };
  }
  if (command.folder.where === 'outside') return { text: `a folder outside it (${command.folder.path})`, undecided: false };
  return undefined;
}
