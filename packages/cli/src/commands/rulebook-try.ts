import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { integerFlag, parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast rulebook try [--rulebook FILE] [--repo DIR] [--commits N] [--json]

Runs the rulebook's checks over the repository's last N commits (each commit as the writes and
deletes that make it) and prints what the gate would have refused, commit by commit, with the rule
and the detail. No model and no key: the first evidence of whether a drafted check is right. A check
that refuses more than 5 % of the commits (one in twenty) is flagged "probably wrong", and
\`holdfast rulebook promote\` will not set it to block. Rules about commands (order, requires:
commands that must pass first; command: forbidden commands) cannot be judged from history: each
is listed as "not judged" with why, and no commit is then said to pass.

What it found is kept beside the rulebook (holdfast/rulebook.yaml -> holdfast/rulebook.trials.json),
for \`holdfast rulebook promote\` and \`holdfast doctor\`; commit it with the rulebook.

Options:
  --rulebook FILE  the rulebook (default: the project's holdfast/rulebook.yaml, or $HOLDFAST_RULEBOOK)
  --repo DIR       the git repository (default: the current folder)
  --commits N      how many commits back, merges left out (default 20)
  --json           print {"head", "commits": [{"commit", "subject", "refusals"}], "rules": [...], "unjudged": [...]}
  -h, --help       show this help

Exit codes: 0 checked (refusals are findings, not failures), 2 bad input (no rulebook, not a repository).`;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('rulebook try', args, {
    rulebook: { type: 'string' },
    repo: { type: 'string' },
    commits: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new InputError('E_ARGS', `holdfast rulebook try: unexpected argument "${positionals[0]}".`);
  const count = integerFlag('rulebook try', 'commits', values.commits, 20, 1);
  const repoDir = resolve(io.cwd, values.repo ?? '.');
  let file = values.rulebook === undefined ? undefined : resolve(io.cwd, values.rulebook);
  if (file === undefined) {
    const { findProjectRulebook } = await import('@holdfast/gate');
    const found = findProjectRulebook(repoDir, io.env);
    if (found.state === 'missing') throw new InputError('E_ARGS', `holdfast rulebook try: ${found.message}.`);
    file = found.path;
  }
  const [{ loadRulebook, writeRuleTrials }, { checkHistory, formatHistoryCheck, historyTrials }] = await Promise.all([
    import('@holdfast/core/rules'),
    import('@holdfast/lab/onboard'),
  ]);
  const rulebook = await loadRulebook(file);
  const check = await checkHistory(repoDir, rulebook, count);
  writeRuleTrials(file, historyTrials(check, rulebook));
  if (values.json) writeLine(io.stdout, JSON.stringify(check));
  else for (const line of formatHistoryCheck(check)) writeLine(io.stdout, line);
  return EXIT.ok;
}
