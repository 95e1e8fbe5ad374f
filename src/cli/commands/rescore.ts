import { resolve } from 'node:path';
import { InputError } from '../../contract/index.js';
import { parseCommandArgs } from '../args.js';
import { EXIT, writeLine } from '../io.js';
import type { CliIo } from '../io.js';

const HELP = `Usage: holdfast rescore FILE [--rulebook F] [--json]

Re-checks the actions recorded in a run file with a rulebook (default: the shipped one), with no
model calls, and shows which verdicts change. The told arm is relabelled; the held arm is enforced
again, replaying recorded approval answers (a commit no one was asked about is refused when the
run had a human gate). Judge grades (judgeRules, advisory) are kept as recorded: grade again
with \`holdfast judge FILE\`.

  --rulebook F   the rulebook to judge with
  --json         {changes: [...], totals: {...}}

Exit codes: 0 ok (whether or not verdicts changed), 2 bad input.`;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('rescore', args, {
    rulebook: { type: 'string' },
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
    import('../../store/index.js'),
    import('../../rules/index.js'),
    import('../../experiment/rescore.js'),
    import('../../report/index.js'),
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
  const judgedKept = result.rounds.reduce((sum, round) => sum + (round.judged?.told?.length ?? 0) + (round.judged?.held?.length ?? 0), 0);
  const judged = { kept: judgedKept, note: 'judge grades are kept as recorded; grade again with holdfast judge FILE' };
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ changes: result.changes, totals, ...(judgedKept > 0 ? { judged } : {}) }, null, 2));
    return EXIT.ok;
  }
  writeLine(io.stdout, `${result.changes.length} verdict${result.changes.length === 1 ? '' : 's'} changed with ${values.rulebook ?? 'the default rulebook'}.`);
  for (const change of result.changes) {
    writeLine(io.stdout, `  ${change.roundId} ${change.arm}: ${change.before} → ${change.after} (${change.reason})`);
  }
  if (judgedKept > 0) writeLine(io.stdout, `${judgedKept} judge grade${judgedKept === 1 ? '' : 's'} (advisory) kept as recorded; grade again with \`holdfast judge FILE\`.`);
  writeLine(io.stdout);
  writeLine(io.stdout, formats.formatTotalsTable(totals));
  return EXIT.ok;
}
