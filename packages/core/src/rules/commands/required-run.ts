import { isCommand, locationOption } from './match-command.js';
import { readCommands } from './read-commands.js';
import type { SimpleCommand } from './read-commands.js';

/** How a `run` stands against a required command: it is one, it names one that does not count, or neither. */
export type RequiredRun = { readonly counts: true; readonly as: string } | { readonly counts: false; readonly why: string } | undefined;

/** A required command's spellings, read once: each is its program and leading words ("npm run test"). */
export function spellingsOf(spellings: readonly string[]): readonly (readonly string[])[] {
  return spellings.flatMap((spelling) => {
    const [command] = readCommands(spelling).commands;
    return command === undefined ? [] : [[command.program, ...command.args.filter((arg) => arg.literal).map((arg) => arg.text)]];
  });
}

/**
 * Whether a run's command line runs a required command so that it counts: in the project root (no
 * `cd elsewhere &&`, no `--prefix`, `-C`, `--cwd`, `--dir`), and decisive (the line's exit code is the
 * command's: `npm test || true` and `npm test; echo done` do not count).
 */
export function requiredRun(commandLine: string, spellings: readonly (readonly string[])[]): RequiredRun {
  let refused: RequiredRun;
  for (const command of readCommands(commandLine).commands) {
    if (!spellings.some((words) => isCommand(command, words))) continue;
    const why = whyNotCounted(command);
    if (why === undefined) return { counts: true, as: command.text };
    refused ??= { counts: false, why: `\`${command.text}\` ${why}` };
  }
  return refused;
}

function whyNotCounted(command: SimpleCommand): string | undefined {
  const option = locationOption(command);
  if (option !== undefined) return `runs elsewhere (${option}), not in the project root`;
  if (command.folder.where === 'inside' || command.folder.where === 'outside') return `runs in ${command.folder.path}, not in the project root`;
  if (command.folder.where === 'unknown') return `runs in a folder not known here (${command.folder.why}), not the project root`;
  if (!command.decisive)
    return 'does not decide the exit code of its command line (after `||`, before `;`, inside a pipe, a branch or the background), so its result is not known';
  return undefined;
}

/**
 * Why a command line that looks like a required command does not run it in the project root
 * (`npm test --prefix elsewhere`, `cd elsewhere && npm test`), or undefined when it does (R6's rule).
 */
export function runsElsewhere(commandLine: string): string | undefined {
  for (const command of readCommands(commandLine).commands) {
    const option = locationOption(command);
    if (option !== undefined) return `\`${command.text}\` runs elsewhere (${option}), not in the project root`;
    if (command.folder.where !== 'root') return `\`${command.text}\` does not run in the project root`;
  }
  return undefined;
}
