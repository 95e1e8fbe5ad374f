import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { Rulebook, Totals } from '@holdfast/core/contract';
import type { VerdictChange } from '@holdfast/lab/experiment';
import type { RoundState } from '@holdfast/lab/store';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';
import { roundLabel } from '@holdfast/lab/report';

const HELP = `Usage: holdfast rescore FILE [--rulebook F] [--rejudge] [--json]

Re-checks the actions recorded in a run file with a rulebook (default: the shipped one), with no
model calls, and shows which verdicts change. The told arm is relabelled; the held arm is enforced
again, replaying recorded approval answers (a commit no one was asked about is refused when the
run had a human gate). Judge grades (judgeRules, advisory) are kept as recorded unless you ask
for --rejudge; to record new grades in the file, use \`holdfast judge FILE\`.

  --rulebook F   the rulebook to judge with
  --rejudge      also grade every arm again with the rulebook's judge rules (calls the judge
                 targets, writes nothing); the grades stay advisory and apart from the verdicts
  --json         {changes: [...], totals: {...}, judged?: {...}}

Exit codes: 0 ok (whether or not verdicts changed), 2 bad input.`;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('rescore', args, {
    rulebook: { type: 'string' },
    rejudge: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) throw new InputError('E_ARGS', 'give exactly one run file, e.g. `holdfast rescore runs/example.jsonl`.');
  const [{ readRunFile, computeTotals }, { loadRulebook }, { rescoreRun }, formats] = await Promise.all([
    import('@holdfast/lab/store'),
    import('@holdfast/core/rules'),
    import('@holdfast/lab/experiment'),
    import('@holdfast/lab/report'),
  ]);
  const contents = await readRunFile(resolve(io.cwd, file));
  for (const problem of contents.problems) writeLine(io.stderr, `warning: ${file} line ${problem.line}: ${problem.message}`);
  if (contents.events.length === 0) throw new InputError('E_RUN_FILE', `${file} has no readable events.`);
  const rulebook = await loadRulebook(values.rulebook === undefined ? undefined : resolve(io.cwd, values.rulebook));
  const result = await rescoreRun(contents.events, rulebook);
  const totals = computeTotals({
    rounds: result.rounds,
    rulebook,
    ...(result.before.start !== undefined ? { targets: result.before.start.config.targets, tasks: result.before.start.config.tasks } : {}),
  });
  if (values.rejudge)
    return rejudge(result.rounds, rulebook, io, values.rulebook ?? 'the default rulebook', { json: values.json, changes: result.changes, totals, formats });
  const judgedKept = result.rounds.reduce((sum, round) => sum + (round.judged?.told?.length ?? 0) + (round.judged?.held?.length ?? 0), 0);
  const judged = { kept: judgedKept, note: 'judge grades are kept as recorded; grade again with holdfast judge FILE' };
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ changes: result.changes, totals, ...(judgedKept > 0 ? { judged } : {}) }, null, 2));
    return EXIT.ok;
  }
  writeChanges(io, result.changes, values.rulebook ?? 'the default rulebook');
  if (judgedKept > 0)
    writeLine(io.stdout, `${judgedKept} judge grade${judgedKept === 1 ? '' : 's'} (advisory) kept as recorded; grade again with \`holdfast judge FILE\`.`);
  writeLine(io.stdout);
  writeLine(io.stdout, formats.formatTotalsTable(totals));
  return EXIT.ok;
}

/** `--rejudge`: the rescored arms graded again by the rulebook's judge rules, shown apart and never written. */
async function rejudge(
  rounds: readonly RoundState[],
  rulebook: Rulebook,
  io: CliIo,
  rulebookName: string,
  output: { json: boolean; changes: readonly VerdictChange[]; totals: Totals; formats: typeof import('@holdfast/lab/report') },
): Promise<number> {
  const rules = rulebook.judgeRules ?? [];
  if (rules.length === 0) throw new InputError('E_ARGS', '--rejudge needs a rulebook with judge rules (judgeRules:), e.g. --rulebook rulebooks/judged.yaml.');
  const { judgeArm, resolveJudgeTargets } = await import('@holdfast/lab/judge');
  const targets = await resolveJudgeTargets(rulebook, io.cwd, io.env);
  const problem = [...targets.problems.values()][0];
  if (problem !== undefined) throw new InputError('E_JUDGE_TARGET', `${problem}.`);
  const regraded: RoundState[] = [];
  for (const round of rounds) {
    const told = round.told === undefined ? [] : await judgeArm(rules, round.told, targets.judges);
    const held = round.held === undefined ? [] : await judgeArm(rules, round.held, targets.judges);
    regraded.push({ ...round, judged: { told, held } });
  }
  const rows = output.formats.judgedRows({ rounds: regraded });
  if (output.json) {
    writeLine(
      io.stdout,
      JSON.stringify(
        { changes: output.changes, totals: output.totals, judged: { advisory: true, regraded: true, totals: output.formats.judgedTotals(rows), rows } },
        null,
        2,
      ),
    );
    return EXIT.ok;
  }
  writeChanges(io, output.changes, rulebookName);
  writeLine(io.stdout);
  writeLine(io.stdout, output.formats.formatTotalsTable(output.totals));
  writeLine(io.stdout, `\n${output.formats.formatJudgedTable(rows)}\n(regraded now, not written; \`holdfast judge FILE\` records grades)`);
  return EXIT.ok;
}

function writeChanges(io: CliIo, changes: readonly VerdictChange[], rulebookName: string): void {
  writeLine(io.stdout, `${changes.length} verdict${changes.length === 1 ? '' : 's'} changed with ${rulebookName}.`);
  for (const change of changes) writeLine(io.stdout, `  ${roundLabel(change)} ${change.arm}: ${change.before} → ${change.after} (${change.reason})`);
}
