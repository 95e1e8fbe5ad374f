import { fileURLToPath } from 'node:url';
import { InputError } from '../../contract/errors.js';
import { parseCommandArgs } from '../args.js';
import { EXIT, writeLine } from '../io.js';
import type { CliIo } from '../io.js';
import type { InstallChange } from '../../gate/install.js';
import { GATE_AGENTS } from '../../gate/tool-call.js';
import type { GateAgent } from '../../gate/tool-call.js';

const HELP = `Usage: holdfast install <claude-code|codex|git>... [--rulebook FILE] [--json]

Installs the live gate in the current project, merging with the configuration already there:
  claude-code  a PreToolUse hook in .claude/settings.json (Write, Edit, MultiEdit, NotebookEdit, Bash)
  codex        a PreToolUse hook in .codex/hooks.json (Bash, apply_patch)
  git          a block in .git/hooks/pre-commit that judges the staged changes
Running it again changes nothing; \`holdfast uninstall\` removes only holdfast's entries.
The hook runs this node and this holdfast by absolute path, so it needs neither PATH nor npx.

Options:
  --rulebook FILE  the rulebook the hook enforces (relative to the project root)
  --json           print the changes as JSON
  -h, --help       this help`;

export function readTargets(verb: string, positionals: string[]): GateAgent[] {
  if (positionals.length === 0) throw new InputError('E_ARGS', `holdfast ${verb}: name at least one of ${GATE_AGENTS.join(', ')}. See \`holdfast ${verb} --help\`.`);
  return positionals.map((target) => {
    if (!(GATE_AGENTS as readonly string[]).includes(target)) {
      throw new InputError('E_ARGS', `holdfast ${verb}: unknown target "${target}"; use ${GATE_AGENTS.join(', ')}.`);
    }
    return target as GateAgent;
  });
}

/** The report shared by install and uninstall: one line per target, or the list as JSON. */
export function printChanges(io: CliIo, changes: readonly ({ target: GateAgent } & InstallChange)[], json: boolean): void {
  if (json) writeLine(io.stdout, JSON.stringify({ changes }, null, 2));
  else for (const change of changes) writeLine(io.stdout, `${change.target}: ${change.change} ${change.file} (${change.note})`);
}

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs('install', args, {
      rulebook: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    const targets = readTargets('install', positionals);
    const { installGate } = await import('../../gate/install.js');
    const bin = fileURLToPath(new URL('../../../bin/holdfast.js', import.meta.url));
    const changes = targets.map((target) => ({ target, ...installGate(target, io.cwd, { node: process.execPath, bin, rulebook: values.rulebook }) }));
    printChanges(io, changes, values.json === true);
    if (targets.includes('codex') && values.json !== true) {
      writeLine(io.stdout, 'codex: hooks must be enabled in Codex (they are by default in recent versions; older ones need `[features] codex_hooks = true` in config.toml).');
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    throw error;
  }
}
