import { EXIT, packageVersion, runCommand, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';
import { GATE_COMMANDS, GATE_COMMAND_SUMMARIES } from '../commands/index.js';
import type { GateCommandName } from '../commands/index.js';

function usage(): string {
  const names = Object.keys(GATE_COMMAND_SUMMARIES) as GateCommandName[];
  const width = Math.max(...names.map((name) => name.length));
  return [
    "holdfast-gate: holdfast's live gate alone (@holdfast/gate), without the lab or the web app.",
    '',
    'Usage: holdfast-gate <command> [options]',
    '',
    'Commands:',
    ...names.map((name) => `  ${name.padEnd(width)}  ${GATE_COMMAND_SUMMARIES[name]}`),
    '',
    'Each command is the same code as `holdfast <command>` (the full CLI, package holdfast): its help',
    'names it so. Run `holdfast-gate <command> --help` for the options of one command.',
    'Exit codes: 0 ok, 1 something judged failed, 2 bad input, 3 internal error, 4 the disk is full or a file is not writable.',
  ].join('\n');
}

/** The `holdfast-gate` command (bin/holdfast-gate.js): the gate's verbs, dispatched as the full CLI dispatches them. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    writeLine(io.stdout, usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    writeLine(io.stdout, packageVersion());
    return EXIT.ok;
  }
  if (!Object.hasOwn(GATE_COMMANDS, name)) {
    writeLine(io.stderr, `holdfast-gate: unknown command "${name}". Commands: ${Object.keys(GATE_COMMAND_SUMMARIES).join(', ')}.`);
    return EXIT.usage;
  }
  return runCommand(name, GATE_COMMANDS[name as GateCommandName], rest, io);
}
