import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast rulebook promote ID [--rulebook FILE] [--repo DIR] [--force]

Sets rule ID to \`enforcement: block\`: the live gate, the git hooks and holdfast exec then refuse
what breaks it, and \`holdfast verify\` fails on it. A drafted rule starts at \`warn\` (the gate lets
the call through, tells the agent the rule and records it as warned); promote it once it proves
right on the team's own history. Setting \`enforcement: block\` in the YAML by hand does the same.

promote reads what \`holdfast rulebook try\` last found (kept beside the rulebook, e.g.
holdfast/rulebook.trials.json) and refuses, saying why, when:
  - the rule was never tried, or its check changed since: run \`holdfast rulebook try\` first;
  - the check refused more than 5 % of the recent commits tried (one in twenty): it is probably
    wrong (a rule the team follows is rarely broken by the team's own merged history); fix the
    check, then try it again;
  - a history cannot judge it (a rule about commands: order, requires, command): its warnings in
    .holdfast/audit.jsonl are its trial; read them, then promote with --force.

Options:
  --rulebook FILE  the rulebook (default: the project's holdfast/rulebook.yaml, or $HOLDFAST_RULEBOOK)
  --repo DIR       the git repository (default: the current folder)
  --force          promote even when refused above (the reason is still printed)
  -h, --help       show this help

Exit codes: 0 promoted (or already blocking), 1 refused, 2 bad input (no such rule, no rulebook).`;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('rulebook promote', args, {
    rulebook: { type: 'string' },
    repo: { type: 'string' },
    force: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  const [id, extra] = positionals;
  if (id === undefined) throw new InputError('E_ARGS', 'holdfast rulebook promote: name the rule to promote (holdfast rulebook promote R4).');
  if (extra !== undefined) throw new InputError('E_ARGS', `holdfast rulebook promote: unexpected argument "${extra}"; promote one rule at a time.`);
  const repoDir = resolve(io.cwd, values.repo ?? '.');
  let file = values.rulebook === undefined ? undefined : resolve(io.cwd, values.rulebook);
  if (file === undefined) {
    const { findProjectRulebook } = await import('@holdfast/gate');
    const found = findProjectRulebook(repoDir, io.env);
    if (found.state === 'missing') throw new InputError('E_ARGS', `holdfast rulebook promote: ${found.message}.`);
    file = found.path;
  }
  const [{ parseRulebook, readRuleTrials, ruleTrialsPath, trialOf }, { PROBABLY_WRONG_SHARE }, { parseDocument, isMap, isSeq }] = await Promise.all([
    import('@holdfast/core/rules'),
    import('@holdfast/lab/onboard'),
    import('yaml'),
  ]);
  const shown = relative(io.cwd, file) || file;
  const text = readFileSync(file, 'utf8');
  const rulebook = parseRulebook(text, shown);
  const rule = rulebook.rules.find((each) => each.id === id);
  if (rule === undefined) {
    const prose = rulebook.proseRules?.some((each) => each.id === id) === true;
    throw new InputError(
      'E_ARGS',
      prose
        ? `holdfast rulebook promote: ${id} in ${shown} is prose only (no check), so nothing can enforce it; give it a check first.`
        : `holdfast rulebook promote: ${shown} has no rule ${id} with a check (rules: ${rulebook.rules.map((each) => each.id).join(', ') || 'none'}).`,
    );
  }
  if ((rule.enforcement ?? 'block') === 'block') {
    writeLine(io.stdout, `${id} ${rule.name} already blocks in ${shown}.`);
    return EXIT.ok;
  }
  const trials = ruleTrialsPath(relative(io.cwd, file) || file);
  const trial = trialOf(readRuleTrials(file), rule);
  const tryIt = `holdfast rulebook try${values.rulebook === undefined ? '' : ` --rulebook ${values.rulebook}`}${values.repo === undefined ? '' : ` --repo ${values.repo}`}`;
  const refusal =
    trial === undefined
      ? `${id} ${rule.name} was never tried on this repository's history${readRuleTrials(file) === undefined ? '' : ' (or its check changed since it was)'}: run \`${tryIt}\`, read what it would have refused, then promote it.`
      : trial.notInHistory !== undefined
        ? `a history of commits cannot judge ${id} ${rule.name} (${trial.notInHistory}); its warnings in .holdfast/audit.jsonl are its trial: read them, then promote it with --force.`
        : trial.probablyWrong === true
          ? `${id} ${rule.name} refused ${trial.refused ?? 0} of the last ${readRuleTrials(file)?.commits ?? 0} commits tried, more than ${PROBABLY_WRONG_SHARE * 100} %: the check is probably wrong (a rule the team follows is rarely broken by its own history). Read its # draft note, fix the check, and run \`${tryIt}\` again.`
          : undefined;
  if (refusal !== undefined && !values.force) {
    writeLine(io.stderr, `holdfast rulebook promote: not promoted: ${refusal} (--force promotes it anyway; the trial record is ${trials}.)`);
    return EXIT.failed;
  }
  // The YAML is edited in place, comments and layout kept: only this rule's enforcement changes.
  const document = parseDocument(text);
  const rules = document.get('rules');
  const node = isSeq(rules) ? rules.items.find((item) => isMap(item) && item.get('id') === id) : undefined;
  if (!isMap(node))
    throw new InputError('E_ARGS', `holdfast rulebook promote: rule ${id} is not a mapping under rules: in ${shown}; set its enforcement: block by hand.`);
  node.set('enforcement', 'block');
  const promoted = document.toString({ lineWidth: 0 });
  parseRulebook(promoted, shown);
  writeFileSync(file, promoted);
  writeLine(
    io.stdout,
    `${id} ${rule.name} now blocks in ${shown}${refusal === undefined ? ` (it refused ${trial?.refused ?? 0} of the last ${readRuleTrials(file)?.commits ?? 0} commits tried)` : ` (forced: ${refusal})`}. Commit the rulebook.`,
  );
  return EXIT.ok;
}
