import { runCommand } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';
import { GATE_COMMANDS } from '../commands/index.js';
import type { GateCommandName } from '../commands/index.js';

/** The gate's verbs as the `holdfast` CLI runs them (same exit codes and messages), for the gate's own tests. */
export function gateMain(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || !(name in GATE_COMMANDS)) throw new Error(`not a gate verb: ${String(name)}`);
  return runCommand(name, GATE_COMMANDS[name as GateCommandName], rest, io);
}
