import { resolve } from 'node:path';
import { InputError } from '../../contract/index.js';
import { parseCommandArgs } from '../args.js';
import { EXIT, writeLine } from '../io.js';
import type { CliIo } from '../io.js';

const HELP = `Usage: holdfast report FILE [--format table|md|json|junit]
       holdfast report --audit [FILE] [--json]

Prints a run file: the verdict of every round's two arms and the totals per target and arm
(attempts, landed, blocked, declined, …, each rate with its n and a Wilson 95% interval).

  --format table   aligned text (default)
  --format md      markdown tables, for a pull request or a wiki
  --format json    {runId, status, demo, rounds, totals, problems}
  --format junit   JUnit XML: a testsuite per target and arm, a testcase per round
                   (violated/blocked fail, unparseable/error are errors, refused is skipped)

  --audit [FILE]   summarise the live gate's audit log instead (default .holdfast/audit.jsonl):
                   calls judged, allowed, blocked per rule, per agent

Lines of the file that cannot be read are reported on stderr with their line number; the rest
is still reported. Exit codes: 0 ok, 2 bad input.`;

const FORMATS = ['table', 'md', 'json', 'junit'] as const;
type Format = (typeof FORMATS)[number];

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    return await report(args, io);
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, `holdfast report: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
}

async function report(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('report', args, {
    format: { type: 'string', default: 'table' },
    audit: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (values.audit) return auditReport(positionals, values.json, io);
  const format = (values.json ? 'json' : values.format) as Format;
  if (!FORMATS.includes(format)) throw new InputError('E_ARGS', `--format must be one of ${FORMATS.join(', ')}, got "${values.format}".`);
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) throw new InputError('E_ARGS', 'give exactly one run file, e.g. `holdfast report runs/example.jsonl`.');

  const [{ readRunFile, reduceRunEvents, computeTotals }, formats] = await Promise.all([
    import('../../store/index.js'),
    import('../../report/index.js'),
  ]);
  const path = resolve(io.cwd, file);
  const contents = await readRunFile(path);
  for (const problem of contents.problems) writeLine(io.stderr, `warning: ${file} line ${problem.line}: ${problem.message}`);
  if (contents.events.length === 0) throw new InputError('E_RUN_FILE', `${file} has no readable events.`);
  const state = reduceRunEvents(contents.events);
  const totals = computeTotals(state);

  if (format === 'junit') {
    io.stdout.write(formats.formatJunit(state));
    return EXIT.ok;
  }
  const rounds = [...state.rounds].map((round) => ({
    roundId: round.roundId,
    target: round.target,
    task: round.task,
    rep: round.rep,
    told: round.told?.verdict ?? null,
    held: round.held?.verdict ?? null,
  }));
  if (format === 'json') {
    const body = {
      runId: state.runId ?? null,
      status: state.end?.status ?? 'unfinished',
      demo: state.start?.demo ?? null,
      rounds,
      totals,
      problems: contents.problems,
    };
    writeLine(io.stdout, JSON.stringify(body, null, 2));
    return EXIT.ok;
  }
  const status = state.end?.status ?? 'unfinished (no run-end: resume it with holdfast run --resume)';
  const header = [
    `Run ${state.runId ?? '(unknown)'} · ${status} · ${rounds.length} rounds`,
    ...(state.start?.demo !== undefined ? [`DEMO: ${state.start.demo}`] : []),
  ];
  if (format === 'md') {
    const lines = [`# holdfast run ${state.runId ?? ''}`.trim(), '', ...header.slice(1).map((line) => `> ${line}`), ''];
    lines.push(`Status: ${status}, ${rounds.length} rounds.`, '', formats.formatTotalsMarkdown(totals));
    writeLine(io.stdout, lines.join('\n'));
    return EXIT.ok;
  }
  writeLine(io.stdout, header.join('\n'));
  writeLine(io.stdout);
  writeLine(io.stdout, formats.formatTotalsTable(totals));
  return EXIT.ok;
}

async function auditReport(positionals: string[], json: boolean, io: CliIo): Promise<number> {
  if (positionals.length > 1) throw new InputError('E_ARGS', 'give at most one audit log, e.g. `holdfast report --audit .holdfast/audit.jsonl`.');
  const { summarizeAudit, formatAuditSummary } = await import('../../gate/audit.js');
  const path = resolve(io.cwd, positionals[0] ?? '.holdfast/audit.jsonl');
  const summary = summarizeAudit(path);
  writeLine(io.stdout, json ? JSON.stringify(summary, null, 2) : formatAuditSummary(summary));
  return EXIT.ok;
}
