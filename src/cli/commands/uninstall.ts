import { InputError } from '../../contract/errors.js';
import { parseCommandArgs } from '../args.js';
import { EXIT, writeLine } from '../io.js';
import type { CliIo } from '../io.js';
import { printChanges, readTargets } from './install.js';

const HELP = `Usage: holdfast uninstall <claude-code|codex|git>... [--json]

Removes the gate that \`holdfast install\` wrote, and only that: other hooks and settings in
.claude/settings.json, .codex/hooks.json and .git/hooks/pre-commit are kept as they are.

Options:
  --json      print the changes as JSON
  -h, --help  this help`;

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs('uninstall', args, {
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    const targets = readTargets('uninstall', positionals);
    const { uninstallGate } = await import('../../gate/install.js');
    const changes = targets.map((target) => ({ target, ...uninstallGate(target, io.cwd) }));
    printChanges(io, changes, values.json === true);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    throw error;
  }
}
