import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast rulebook export --format flowspec [--rulebook FILE] [--json] [--holdfast CMD]

Prints the rulebook as an Agent Relay workflow (relay.yaml, as Relay's schema accepts it): a first
step writes the work tree's change (\`holdfast changes\`) to $HOLDFAST_ACTIONS (default
.holdfast/flow/actions.json), then one deterministic step per rule runs \`holdfast check\` on it
and passes when it exits 0, so the measured rulebook runs as an enforced workflow. Without
--rulebook the steps leave the rulebook to \`holdfast check\`, which resolves it as the CLI does.

Options:
  --format flowspec  the export format (the only one so far)
  --rulebook FILE    the rulebook, named as given in every step (default: none, check's own)
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
  if (positionals.length > 0)
    throw new InputError('E_ARGS', `holdfast rulebook export: unexpected argument "${positionals[0]}". See \`holdfast rulebook export --help\`.`);
  if (values.format !== 'flowspec') {
    throw new InputError('E_ARGS', `holdfast rulebook export: --format must be flowspec${values.format === undefined ? '' : `, got "${values.format}"`}.`);
  }
  const [{ loadRulebook }, { rulebookToFlowSpec }] = await Promise.all([import('@holdfast/core/rules'), import('@holdfast/gate')]);
  const rulebook = await loadRulebook(values.rulebook === undefined ? undefined : resolve(io.cwd, values.rulebook));
  const spec = rulebookToFlowSpec(rulebook, {
    ...(values.rulebook !== undefined ? { rulebookPath: values.rulebook } : {}),
    holdfast: values.holdfast ?? 'holdfast',
  });
  if (values.json === true) writeLine(io.stdout, JSON.stringify(spec, null, 2));
  else {
    const { stringify } = await import('yaml');
    io.stdout.write(stringify(spec, { lineWidth: 0 }));
  }
  return EXIT.ok;
}
