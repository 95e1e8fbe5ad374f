import { relative, resolve } from 'node:path';
import { InputError } from '../../contract/errors.js';
import { parseCommandArgs } from '../args.js';
import { EXIT, writeLine } from '../io.js';
import type { CliIo } from '../io.js';

const HELP = `Usage: holdfast rulebook export --format flowspec [--rulebook FILE] [--json] [--holdfast CMD]

Prints the rulebook as an Agent Relay workflow (FlowSpec, schema version 0.1.0): one deterministic
step per rule, each running \`holdfast check\` on the action list in $HOLDFAST_ACTIONS (default
actions.json) and verified by its exit code, so the measured rulebook runs as an enforced workflow.

Options:
  --format flowspec  the export format (the only one so far)
  --rulebook FILE    the rulebook (default: the shipped rulebooks/default.yaml)
  --holdfast CMD     how the workflow calls holdfast (default: holdfast)
  --json             JSON instead of YAML
  -h, --help         this help`;

/** `holdfast rulebook export`: dispatched from the rulebook command's subverb table, which also turns an InputError into exit 2. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('rulebook export', args, {
    format: { type: 'string' },
    rulebook: { type: 'string' },
    holdfast: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new InputError('E_ARGS', `holdfast rulebook export: unexpected argument "${positionals[0]}". See \`holdfast rulebook export --help\`.`);
  if (values.format !== 'flowspec') {
    throw new InputError('E_ARGS', `holdfast rulebook export: --format must be flowspec${values.format === undefined ? '' : `, got "${values.format}"`}.`);
  }
  const [{ loadRulebook, defaultRulebookPath }, { rulebookToFlowSpec }] = await Promise.all([import('../../rules/index.js'), import('../../gate/flowspec.js')]);
  const file = values.rulebook === undefined ? undefined : resolve(io.cwd, values.rulebook);
  const rulebook = await loadRulebook(file);
  const rulebookPath = values.rulebook ?? relative(io.cwd, defaultRulebookPath());
  const spec = rulebookToFlowSpec(rulebook, { rulebookPath, holdfast: values.holdfast ?? 'holdfast' });
  if (values.json === true) writeLine(io.stdout, JSON.stringify(spec, null, 2));
  else {
    const { stringify } = await import('yaml');
    io.stdout.write(stringify(spec, { lineWidth: 0 }));
  }
  return EXIT.ok;
}
