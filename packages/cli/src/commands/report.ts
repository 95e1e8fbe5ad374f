import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { ArmResult } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';
import { roundLabel } from '@holdfast/lab/report';
import type { RoundName } from '@holdfast/lab/report';

const HELP = `Usage: holdfast report FILE [--format table|md|json|junit]
       holdfast report --harnesses FILE... [--format table|md|json]
       holdfast report --audit [FILE] [--json]

Prints a run file: the verdict of every round's two arms and the totals per target and arm
(attempts, landed, blocked, warned, declined, …, each rate with its n and a Wilson 95% interval;
warned = held-arm violations of rules at enforcement: warn, let through and counted apart).

  --format table   aligned text (default)
  --format md      markdown tables, for a pull request or a wiki
  --format json    {runId, status, failedTargets, headline, definitions, demo, notes, mode, rounds, totals, judged, problems}
  --format junit   JUnit XML: a testsuite per target and arm, a testcase per round
                   (violated/blocked/warned fail, unparseable/error are errors, refused is skipped)

Every format opens with the headline, per target: "Told: a violation landed in X of n rounds
(95 % CI). Held: gate leaks Y of n; blocked and recovered Z of n (loop and agent modes); W warned (rules at warn,
not enforced; when there are any); clean and done D of n."
(JUnit: a \`headline\` property of each of the target's testsuites.)

Judge-graded rules (a rulebook's judgeRules) are shown in their own "judged (advisory)" section,
column or testsuite, with the judge's confidence: they never change a verdict or fail a suite.

  --diffs          also print, for every round run with \`holdfast run --sandbox\`, the diff of what
                   landed in each arm's repository, its commits and the exit codes of its commands

  --harnesses FILE...
                   harnesses side by side, one table per model ("same model, which harness keeps
                   our rules"), over agent-mode run files (one with several harness targets, or one
                   per harness): told landed, held landed (leaks), held blocked, held warned, each
                   rounds with a Wilson 95% interval, and told − held landed with Newcombe's
                   interval and Fisher's p

  --audit [FILE]   summarise the live gate's audit log instead (default .holdfast/audit.jsonl):
                   calls judged, allowed, blocked per rule, per agent

Lines of the file that cannot be read are reported on stderr with their line number; the rest
is still reported. Exit codes: 0 ok, 2 bad input.`;

const FORMATS = ['table', 'md', 'json', 'junit'] as const;
type Format = (typeof FORMATS)[number];

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('report', args, {
    format: { type: 'string', default: 'table' },
    audit: { type: 'boolean', default: false },
    harnesses: { type: 'boolean', default: false },
    diffs: { type: 'boolean', default: false },
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
  if (values.harnesses) return harnessReport(positionals, format, io);
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) throw new InputError('E_ARGS', 'give exactly one run file, e.g. `holdfast report runs/example.jsonl`.');

  const [{ futureVersionError, readRunFile, reduceRunEvents, computeTotals }, formats] = await Promise.all([
    import('@holdfast/lab/store'),
    import('@holdfast/lab/report'),
  ]);
  const path = resolve(io.cwd, file);
  const contents = await readRunFile(path);
  // A file a newer holdfast wrote is refused as replay and resume refuse it: its numbers would be read wrong.
  if (!contents.events.some((event) => event.type === 'run-start')) {
    const future = await futureVersionError(path);
    if (future !== undefined) throw future;
  }
  for (const problem of contents.problems) writeLine(io.stderr, `warning: ${file} line ${problem.line}: ${problem.message}`);
  if (contents.events.length === 0) throw new InputError('E_RUN_FILE', `${file} has no readable events.`);
  const state = reduceRunEvents(contents.events);
  const totals = computeTotals(state);

  if (format === 'junit') {
    io.stdout.write(formats.formatJunit(state));
    return EXIT.ok;
  }
  const judged = formats.judgedRows(state);
  // Older run files have no failedTargets in their run-end: the totals say the same.
  const failedTargets = state.end?.failedTargets ?? formats.failedTargets(totals);
  const rounds = [...state.rounds].map((round) => ({
    roundId: round.roundId,
    target: round.target,
    task: round.task,
    rep: round.rep,
    told: round.told?.verdict ?? null,
    held: round.held?.verdict ?? null,
    ...(values.diffs ? { toldDiff: round.told?.sandbox?.diff.text ?? null, heldDiff: round.held?.sandbox?.diff.text ?? null } : {}),
  }));
  if (format === 'json') {
    const body = {
      runId: state.runId ?? null,
      status: state.end?.status ?? 'unfinished',
      failedTargets,
      headline: formats.headlines(totals),
      definitions: { ...formats.HEADLINE_DEFINITIONS, ...formats.RATE_DEFINITIONS },
      demo: state.start?.demo ?? null,
      notes: state.start?.notes ?? [],
      mode: state.start?.config.mode ?? 'plan',
      rounds,
      totals,
      judged: { advisory: true, totals: formats.judgedTotals(judged), rows: judged },
      problems: contents.problems,
    };
    writeLine(io.stdout, JSON.stringify(body, null, 2));
    return EXIT.ok;
  }
  const status = state.end?.status ?? 'unfinished (no run-end: resume it with holdfast run --resume)';
  const header = [
    `Run ${state.runId ?? '(unknown)'} · ${status} · ${rounds.length} rounds · ${state.start?.config.mode ?? 'plan'} mode`,
    ...(state.start?.demo !== undefined ? [`DEMO: ${state.start.demo}`] : []),
    ...(state.start?.notes ?? []).map((note) => `Note: ${note}`),
    ...failedTargets.map((failed) => `FAILED target ${failed.target}: ${failed.reason}`),
  ];
  if (format === 'md') {
    const lines = [`# holdfast run ${state.runId ?? ''}`.trim(), '', ...header.slice(1).map((line) => `> ${line}`), ''];
    lines.push(
      ...formats.headlines(totals).map((headline) => `**${headline.target}**: ${headline.text}`),
      '',
      `Status: ${status}, ${rounds.length} rounds, ${state.start?.config.mode ?? 'plan'} mode.`,
      '',
      formats.formatTotalsMarkdown(totals),
    );
    if (judged.length > 0) lines.push('', formats.formatJudgedMarkdown(judged));
    if (values.diffs) lines.push('', landedDiffs([...state.rounds], 'md'));
    writeLine(io.stdout, lines.join('\n'));
    return EXIT.ok;
  }
  writeLine(io.stdout, header.join('\n'));
  const noColor = io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '';
  writeLine(
    io.stdout,
    formats.formatHeadlines(totals, (line) => (noColor ? line : `\u001b[1;31m${line}\u001b[0m`)),
  );
  writeLine(io.stdout);
  writeLine(io.stdout, formats.formatTotalsTable(totals));
  if (judged.length > 0) writeLine(io.stdout, `\n${formats.formatJudgedTable(judged)}`);
  if (values.diffs) {
    writeLine(io.stdout);
    writeLine(io.stdout, landedDiffs([...state.rounds], 'table'));
  }
  return EXIT.ok;
}

type ReportedRound = RoundName & { told?: ArmResult; held?: ArmResult };

/** What really landed in each arm's sandbox: a reviewer reads the diff, not the label. */
function landedDiffs(rounds: readonly ReportedRound[], format: 'table' | 'md'): string {
  const sections: string[] = [];
  for (const round of rounds) {
    for (const result of [round.told, round.held]) {
      if (result === undefined) continue;
      const title = `${roundLabel(round)} · ${result.arm} · ${result.verdict}`;
      const sandbox = result.sandbox;
      const lines = [format === 'md' ? `### ${title}` : `=== ${title}`];
      if (sandbox === undefined) {
        lines.push(result.actions.length === 0 ? 'No actions, so no sandbox.' : 'Not run with --sandbox: nothing really landed.');
        sections.push(lines.join('\n'));
        continue;
      }
      lines.push(
        `isolation: ${sandbox.isolation}${sandbox.isolationDetail !== undefined ? ` (${sandbox.isolationDetail})` : ''}; base ${sandbox.baseCommit.slice(0, 12)}`,
      );
      for (const commit of sandbox.commits) lines.push(`commit ${commit.hash.slice(0, 12)} (action ${commit.index}): ${commit.message.split('\n')[0] ?? ''}`);
      for (const command of sandbox.commands) {
        const how = command.executed
          ? command.timedOut === true
            ? 'killed at the timeout'
            : command.exitCode !== undefined
              ? `exit ${command.exitCode}`
              : `signal ${command.signal ?? '?'}`
          : (command.reason ?? 'not executed');
        lines.push(`run (action ${command.index}) ${command.cmd}: ${how}`);
        // A run that did not pass: the end of its output, where a test runner says what failed.
        if (command.executed && command.exitCode !== 0 && command.output !== undefined && command.output.text.trim() !== '') {
          for (const line of command.output.text.trimEnd().split('\n').slice(-8)) lines.push(`  | ${line}`);
        }
      }
      for (const refused of sandbox.refusedWrites) lines.push(`refused write (action ${refused.index}) ${refused.path}: ${refused.reason}`);
      const diff = sandbox.diff.text === '' ? '(nothing landed)' : sandbox.diff.text.trimEnd();
      lines.push(format === 'md' ? `\n\`\`\`diff\n${diff}\n\`\`\`` : diff);
      if (sandbox.diff.truncated) lines.push(`(diff cut at ${sandbox.diff.text.length} of ${sandbox.diff.bytes} bytes)`);
      sections.push(lines.join('\n'));
    }
  }
  return sections.length === 0 ? 'No rounds.' : sections.join('\n\n');
}

async function auditReport(positionals: string[], json: boolean, io: CliIo): Promise<number> {
  if (positionals.length > 1) throw new InputError('E_ARGS', 'give at most one audit log, e.g. `holdfast report --audit .holdfast/audit.jsonl`.');
  const { summarizeAudit, formatAuditSummary } = await import('@holdfast/gate');
  const path = resolve(io.cwd, positionals[0] ?? '.holdfast/audit.jsonl');
  const summary = summarizeAudit(path);
  writeLine(io.stdout, json ? JSON.stringify(summary, null, 2) : formatAuditSummary(summary));
  return EXIT.ok;
}

/** `--harnesses`: several run files read as one comparison, per model and harness. */
async function harnessReport(files: readonly string[], format: Format, io: CliIo): Promise<number> {
  if (files.length === 0)
    throw new InputError('E_ARGS', 'give one or more agent-mode run files, e.g. `holdfast report --harnesses runs/claude.jsonl runs/codex.jsonl`.');
  if (format === 'junit') throw new InputError('E_ARGS', '--harnesses prints a table, markdown or JSON; --format junit is for one run file.');
  const [{ readRunFile, reduceRunEvents }, { formatHarnessComparison, harnessComparison }] = await Promise.all([
    import('@holdfast/lab/store'),
    import('@holdfast/lab/report'),
  ]);
  const states = [];
  for (const file of files) {
    const contents = await readRunFile(resolve(io.cwd, file));
    for (const problem of contents.problems) writeLine(io.stderr, `warning: ${file} line ${problem.line}: ${problem.message}`);
    if (contents.events.length === 0) throw new InputError('E_RUN_FILE', `${file} has no readable events.`);
    states.push(reduceRunEvents(contents.events));
  }
  const rows = harnessComparison(states);
  writeLine(io.stdout, format === 'json' ? JSON.stringify({ harnesses: rows }, null, 2) : formatHarnessComparison(rows, format));
  return EXIT.ok;
}
