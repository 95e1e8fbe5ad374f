import type { Field } from '../../shell/shell-word.js';
import type { SimpleCommand } from './read-commands.js';

/**
 * Options a program takes before its subcommand that consume the next word (`git -C dir push`,
 * `npm --prefix dir publish`), so that word is not taken for the subcommand.
 */
const GLOBAL_VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  git: new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path']),
  npm: new Set(['--prefix', '-w', '--workspace', '--registry', '--userconfig', '--cache', '--loglevel']),
  pnpm: new Set(['-C', '--dir', '--filter', '-F', '--workspace-dir', '--reporter', '--loglevel']),
  yarn: new Set(['--cwd', '--registry', '--modules-folder']),
  bun: new Set(['--cwd', '--config']),
  cargo: new Set(['-C', '--manifest-path', '--config', '-Z']),
  go: new Set(['-C']),
  make: new Set(['-C', '--directory', '-f', '--file', '-j', '--jobs']),
  uv: new Set(['--directory', '--project']),
  poetry: new Set(['-C', '--directory', '-P', '--project']),
  docker: new Set(['-H', '--host', '--context', '--config']),
};

/** The subcommand words of a command, options and their values skipped: `git -C x push -f` gives ["push"]. */
export function operandsOf(command: SimpleCommand): { operands: Field[]; optionsEnd: boolean } {
  const valued = GLOBAL_VALUE_OPTIONS[command.program];
  const operands: Field[] = [];
  let optionsEnd = false;
  for (let index = 0; index < command.args.length; index++) {
    const arg = command.args[index] as Field;
    if (!optionsEnd && arg.literal && arg.text === '--') {
      optionsEnd = true;
      continue;
    }
    if (!optionsEnd && arg.literal && arg.text.startsWith('-') && arg.text.length > 1) {
      if (valued?.has(arg.text) === true && operands.length === 0) index++;
      continue;
    }
    operands.push(arg);
  }
  return { operands, optionsEnd };
}

/** Whether the command is `words` (program, then subcommand words in order, before any other operand). */
export function isCommand(command: SimpleCommand, words: readonly string[]): boolean {
  const [program, ...subcommand] = words;
  if (command.program !== program) return false;
  const { operands } = operandsOf(command);
  return subcommand.every((word, index) => operands[index]?.literal === true && operands[index]?.text === word);
}

/** The options a command was given, up to a `--` that ends them. */
function optionsOf(command: SimpleCommand): Field[] {
  const options: Field[] = [];
  for (const arg of command.args) {
    if (arg.literal && arg.text === '--') break;
    if (arg.literal && arg.text.startsWith('-') && arg.text.length > 1) options.push(arg);
  }
  return options;
}

export type FlagMatch = { readonly found: true; readonly as: string } | { readonly found: false; readonly unknown: string | undefined };

/**
 * Whether one of `flags` is among the command's options: a long flag alone or with `=value`, a short
 * flag alone or inside a group (`-rf` holds `-r` and `-f`). A word computed at run time that could be a
 * flag (its known start is empty or a dash) is reported as `unknown`.
 */
export function findFlag(command: SimpleCommand, flags: readonly string[]): FlagMatch {
  let unknown: string | undefined;
  for (const arg of command.args) {
    if (arg.literal && arg.text === '--') break;
    if (!arg.literal) {
      if (arg.knownPrefix === '' || arg.knownPrefix.startsWith('-')) unknown ??= arg.text;
      continue;
    }
    const word = arg.text;
    for (const flag of flags) {
      if (flag.startsWith('--')) {
        if (word === flag || word.startsWith(`${flag}=`)) return { found: true, as: word };
      } else if (word === flag || (/^-[A-Za-z0-9]{2,}$/.test(word) && word.includes(flag.slice(1)))) return { found: true, as: word };
    }
  }
  return { found: false, unknown };
}

/** Options that make a command run somewhere other than the folder it starts in. */
const LOCATION_OPTIONS: readonly string[] = ['--prefix', '-C', '--cwd', '--dir', '--directory', '--chdir', '--manifest-path', '--rootdir'];

/** The option that moves the command to another folder (`npm test --prefix elsewhere`), if it has one. */
export function locationOption(command: SimpleCommand): string | undefined {
  for (const arg of optionsOf(command)) {
    for (const option of LOCATION_OPTIONS) {
      if (arg.text === option || arg.text.startsWith(`${option}=`) || (option === '-C' && /^-C./.test(arg.text))) return arg.text;
    }
  }
  return undefined;
}
