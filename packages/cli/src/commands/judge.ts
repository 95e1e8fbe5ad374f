import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { JudgeRule, Rulebook, RunEvent } from '@holdfast/core/contract';
import { integerFlag, parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast judge FILE [--rulebook F] [--rule ID,ID] [--target ID] [--samples N] [--dry-run] [--json]
       holdfast judge calibrate CASES.jsonl [--rulebook F] [--target ID] [--samples N] [--json]

Grades a recorded run's arms with the rulebook's judge rules (judgeRules: prose plus a rubric,
graded by a judge model) without re-running the models under test, and appends the grades to the
run file as judge events. A later grade of the same rule replaces the earlier one in every report.
Judge grades are advisory: they never change a recorded verdict (\`holdfast rescore\` leaves them
as recorded), and reports show them apart, as "judged (advisory)", with their confidence.

  --rulebook F    the judge rules to grade with (default: the run's recorded rulebook)
  --rule ID,ID    only these judge rules
  --target ID     grade with this target instead of each rule's own
  --samples N     grade each arm N times (odd) and take the majority
  --dry-run       grade and print, but do not write to the run file
  --json          print the grades as JSON

calibrate: grades a labelled set (JSONL, one case a line: {"id", "rule", "label": "violated"|"clean",
"actions": [...], "reply"?}) and reports the judge's agreement with the person's labels: Cohen's
kappa with a 95% interval and the confusion matrix, per rule and overall; for a rule that covers
a checked rule (\`covers: [R4]\`), its agreement with that rule too. Default rulebook:
rulebooks/judged.yaml; the shipped set is fixtures/judge/calibration.jsonl.

Exit codes: 0 ok (whatever the grades), 2 bad input.`;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('judge', args, {
    rulebook: { type: 'string' },
    rule: { type: 'string' },
    target: { type: 'string' },
    samples: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  const samples = values.samples === undefined ? undefined : integerFlag('judge', 'samples', values.samples, 1, 1, 9);
  if (samples !== undefined && samples % 2 === 0) throw new InputError('E_ARGS', `--samples ${samples} can split evenly; use an odd number (1, 3 or 5).`);
  const [{ loadRulebook, shippedRulebookFile }, judge] = await Promise.all([import('@holdfast/core/rules'), import('@holdfast/lab/judge')]);
  const withOverrides = (rulebook: Rulebook): Rulebook => {
    const only = values.rule
      ?.split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    let rules: JudgeRule[] = rulebook.judgeRules ?? [];
    if (only !== undefined) {
      const unknown = only.find((id) => !rules.some((rule) => rule.id === id));
      if (unknown !== undefined)
        throw new InputError('E_ARGS', `--rule ${unknown}: not a judge rule of the rulebook (${rules.map((rule) => rule.id).join(', ') || 'none'}).`);
      rules = rules.filter((rule) => only.includes(rule.id));
    }
    if (rules.length === 0)
      throw new InputError('E_ARGS', 'the rulebook has no judge rules (judgeRules:); give one that has, e.g. --rulebook rulebooks/judged.yaml.');
    return {
      ...rulebook,
      judgeRules: rules.map((rule) => ({
        ...rule,
        ...(values.target !== undefined ? { target: values.target } : {}),
        ...(samples !== undefined ? { samples } : {}),
      })),
    };
  };
  const judgesFor = async (rulebook: Rulebook) => {
    const targets = await judge.resolveJudgeTargets(rulebook, io.cwd, io.env);
    const problem = [...targets.problems.values()][0];
    if (problem !== undefined) throw new InputError('E_JUDGE_TARGET', `${problem}.`);
    return targets;
  };

  if (positionals[0] === 'calibrate') {
    const file = positionals[1];
    if (file === undefined || positionals.length > 2)
      throw new InputError('E_ARGS', 'give one calibration set, e.g. `holdfast judge calibrate fixtures/judge/calibration.jsonl`.');
    const rulebook = withOverrides(await loadRulebook(resolve(io.cwd, values.rulebook ?? shippedRulebookFile('judged'))));
    const graded = new Set((rulebook.judgeRules ?? []).map((rule) => rule.id));
    // With --rule, the other rules' cases are left out rather than refused.
    const cases = judge.parseCalibrationCases(await readText(resolve(io.cwd, file)), file).filter((item) => values.rule === undefined || graded.has(item.rule));
    const targets = await judgesFor(rulebook);
    const report = await judge.calibrate(cases, rulebook, targets.judges);
    writeLine(io.stdout, values.json ? JSON.stringify(report, null, 2) : judge.formatCalibration(report));
    return EXIT.ok;
  }

  const file = positionals[0];
  if (file === undefined || positionals.length > 1)
    throw new InputError('E_ARGS', 'give exactly one run file, e.g. `holdfast judge runs/example.jsonl`, or `holdfast judge calibrate CASES.jsonl`.');
  const [store, formats] = await Promise.all([import('@holdfast/lab/store'), import('@holdfast/lab/report')]);
  const path = resolve(io.cwd, file);
  const contents = await store.readRunFile(path);
  for (const problem of contents.problems) writeLine(io.stderr, `warning: ${file} line ${problem.line}: ${problem.message}`);
  const before = store.reduceRunEvents(contents.events);
  if (before.start === undefined) throw new InputError('E_RUN_FILE', `${file} has no run-start event; it is not a run file holdfast can grade.`);
  if (before.end === undefined && !values['dry-run']) {
    throw new InputError(
      'E_RUN_FILE',
      `${file} has no run-end: it may still be running. Finish it (holdfast run --resume ${file}) or grade it with --dry-run.`,
    );
  }
  const rulebook = withOverrides(values.rulebook === undefined ? before.start.rulebook : await loadRulebook(resolve(io.cwd, values.rulebook)));
  const targets = await judgesFor(rulebook);
  const writer = values['dry-run'] ? undefined : store.openRunFile(path, { secrets: targets.secrets });
  // Each grade is appended as soon as it is made: an interrupted grading keeps what it finished.
  const added: RunEvent[] = [];
  try {
    await judge.judgeRecordedRun(contents.events, rulebook.judgeRules ?? [], targets.judges, {
      onEvent: (draft) => {
        added.push(writer?.append(draft) ?? ({ ...draft, seq: before.lastSeq + 1 + added.length, time: new Date().toISOString() } as RunEvent));
      },
    });
    // Readers take a file's last line as its end: the run-end is repeated after the grades, as recorded.
    if (writer !== undefined && added.length > 0 && before.end !== undefined) {
      writer.append({
        type: 'run-end',
        runId: before.runId ?? 'run',
        status: before.end.status,
        ...(before.end.reason !== undefined ? { reason: before.end.reason } : {}),
      });
    }
  } finally {
    writer?.close();
  }
  const graded = added.length;
  const after = store.reduceRunEvents(added, before);
  const rows = formats.judgedRows(after);
  if (values.json) {
    writeLine(io.stdout, JSON.stringify({ advisory: true, graded, written: !values['dry-run'], totals: formats.judgedTotals(rows), rows }, null, 2));
    return EXIT.ok;
  }
  writeLine(
    io.stdout,
    `Graded ${graded} arm${graded === 1 ? '' : 's'} with ${(rulebook.judgeRules ?? []).map((rule) => rule.id).join(', ')}${values['dry-run'] ? ' (dry run: nothing written)' : `; appended to ${file}`}.`,
  );
  if (rows.length > 0) writeLine(io.stdout, `\n${formats.formatJudgedTable(rows)}`);
  return EXIT.ok;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError('E_CALIBRATION_READ', `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`, { cause: error });
  }
}
