import type { CliIo } from '../io.js';

// PLACEHOLDER: replaced by the implementation of `holdfast rulebook`.
export async function run(_args: string[], io: CliIo): Promise<number> {
  io.stderr.write('holdfast rulebook: not implemented yet\n');
  return 3;
}
