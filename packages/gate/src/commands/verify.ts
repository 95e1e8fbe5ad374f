import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { VerifyFinding, VerifyReport } from '../verify/index.js';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const FORMATS = ['text', 'json', 'sarif', 'junit', 'md'] as const;
type Format = (typeof FORMATS)[number];

const HELP = `Usage: holdfast verify --base REF [--head REF] [--rulebook PATH] [--run-required] [--format text|json|sarif|junit|md] [--out FILE]

The authority layer, for CI: judges every commit of BASE..HEAD on its own change (against its
parent; a merge on what it wrote itself) and the final tree against where HEAD's history left BASE,
with the same checks as the git pre-commit gate. The rulebook is read from the BASE commit's tree
with git, never from the work tree or the branch under review: a change cannot weaken the rules
it is judged by. A base without the rulebook is refused (exit 2) with what to do. So is the code of
its custom checks (module, program, scripts, and their folders): read from the BASE commit into a
folder of verify's own and run inside bubblewrap (no network, nothing writable); without bwrap a
rulebook with custom checks is refused (exit 2).
Which commands passed before a commit (R6 ORDER, requires rules) is not in a history: without
--run-required those rules are listed as not judged; with it, each command they require is run on
the head tree, confined by bubblewrap, and a failure is a violation.

Files are judged as a checkout writes them (working-tree-encoding and eol applied by holdfast,
no filter run); a file above 8 MiB is "too large to judge" (a violation where a content rule
reads it); a committed link out of the repository or into .git/ is a violation; commit messages
are read by the secret rules, and every key printed is masked. A rule's first 1000 findings are
listed; the rest are counted (they still fail the range).

Run it where the agent cannot reach (a CI job on the pull or merge request); copy
examples/ci/github-actions.yml or examples/ci/gitlab-ci.yml. The checkout needs the full history.

Options:
  --base REF       the target branch's commit (GitHub: github.event.pull_request.base.sha,
                   GitLab: CI_MERGE_REQUEST_DIFF_BASE_SHA)
  --head REF       the last commit to judge (default HEAD)
  --rulebook PATH  the rulebook's path in the base commit (default holdfast/rulebook.yaml)
  --run-required   run each command the base's order and requires rules name on a private copy of
                   the head tree (bubblewrap: no network, the system read-only, installed
                   dependencies read-only, the rulebook's sandbox.timeoutSeconds or 60 s); needs bwrap
  --format F       text (default), json, sarif (SARIF 2.1.0, GitHub code scanning), junit, md
  --out FILE       write the report to FILE; a one-line verdict still goes to stdout
  -h, --help       this help

A rule at \`enforcement: warn\` (what holdfast init drafts) is reported as a warning (SARIF level
"warning", "warn" in text, Markdown and JUnit output) and alone never fails the run.

Exit codes: 0 no blocking rule broken (warnings may be listed), 1 at least one violation of a
rule that blocks, 2 bad input (a ref, a flag, no rulebook in the base), 3 internal error.`;

/** FAIL when a rule that blocks was broken, warn when only rules at warn were. */
function mark(findings: readonly VerifyFinding[]): string {
  if (findings.some((finding) => finding.level === 'block')) return 'FAIL';
  return findings.length === 0 ? 'ok  ' : 'warn';
}

/** A commit whose listed findings are all warnings, or none, still fails when findings past a rule's listing limit are only counted. */
function markOf(findings: readonly VerifyFinding[], unlisted: number): string {
  return unlisted > 0 && findings.length === 0 ? 'FAIL' : mark(findings);
}

function findingLine(finding: VerifyFinding): string {
  return finding.level === 'warn' ? `warn: ${finding.detail}` : finding.detail;
}

function textReport(report: VerifyReport): string {
  const lines = [
    `holdfast verify: ${report.base.slice(0, 12)}..${report.head.slice(0, 12)}, ${report.commits.length} commit(s), rulebook ${report.rulebookPath} as of the base`,
  ];
  if (report.ruleCode.length > 0) lines.push(`  custom checks run confined from the base's ${report.ruleCode.join(', ')}`);
  for (const commit of report.commits) {
    lines.push(`  ${markOf(commit.findings, commit.unlisted)}  ${commit.commit.slice(0, 12)} ${commit.subject} (${commit.changes} file change(s))`);
    for (const finding of commit.findings) lines.push(`          ${findingLine(finding)}`);
    if (commit.unlisted > 0) lines.push(`          and ${commit.unlisted} more finding(s), not listed`);
  }
  lines.push(
    `  ${markOf(report.tree.findings, report.tree.unlisted)}  final tree against ${report.mergeBase.slice(0, 12)} (${report.tree.changes} file change(s))`,
  );
  for (const finding of report.tree.findings) lines.push(`          ${findingLine(finding)}`);
  if (report.tree.unlisted > 0) lines.push(`          and ${report.tree.unlisted} more finding(s), not listed`);
  for (const more of report.unlisted)
    lines.push(`  note  ${more.rule} ${more.name}: ${more.count} more finding(s) than the ones listed (a rule's first 1000 are)`);
  for (const run of report.required) lines.push(`  ${run.failure === undefined ? 'ok  ' : 'FAIL'}  ${run.rule} \`${run.command}\` on the head tree`);
  for (const note of report.notJudged) lines.push(`  note  ${note}`);
  lines.push(verdictLine(report));
  return `${lines.join('\n')}\n`;
}

/**
 * The last line. "Clean" only when every rule was judged: a rule decided at a commit from the commands
 * a session ran (order, requires) is not in a history, so it is never reported as passing.
 */
function verdictLine(report: VerifyReport): string {
  const warned = report.warnings === 0 ? '' : ` ${report.warnings} warning(s) from rules at warn level (reported, not failing: see above).`;
  if (report.violations > 0) return `holdfast verify: ${report.violations} violation(s); the change must not be merged as it is.${warned}`;
  const notJudged = report.notJudged.length;
  if (notJudged === 0) return report.warnings === 0 ? 'holdfast verify: clean, no rule broken.' : `holdfast verify: no blocking rule broken.${warned}`;
  if (notJudged >= report.rulebook.rules.length && report.required.length === 0)
    return `holdfast verify: nothing judged: every rule (${notJudged}) needs what a history cannot show (notes above); no rule was found broken, none was found kept.`;
  return `holdfast verify: no judged ${report.warnings === 0 ? '' : 'blocking '}rule broken; ${notJudged} rule(s) not judged (notes above), so this is not a pass for them.${warned}`;
}

async function formatted(report: VerifyReport, format: Format): Promise<string> {
  switch (format) {
    case 'text':
      return textReport(report);
    case 'json':
      return `${JSON.stringify({ ...report, rulebook: { name: report.rulebook.name, rules: report.rulebook.rules.map((rule) => rule.id) } }, null, 2)}\n`;
    case 'sarif':
      return `${JSON.stringify((await import('../verify/index.js')).verifySarif(report), null, 2)}\n`;
    case 'junit':
      return (await import('../verify/index.js')).verifyJunit(report);
    case 'md':
      return (await import('../verify/index.js')).verifyMarkdown(report);
  }
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('verify', args, {
    base: { type: 'string' },
    head: { type: 'string' },
    rulebook: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    'run-required': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new InputError('E_ARGS', `holdfast verify: unexpected argument "${positionals[0]}". See \`holdfast verify --help\`.`);
  if (values.base === undefined || values.base === '')
    throw new InputError('E_ARGS', 'holdfast verify: --base REF is required (the target branch commit the change is judged against).');
  const format = (values.format ?? 'text') as Format;
  if (!FORMATS.includes(format)) throw new InputError('E_ARGS', `holdfast verify: --format must be one of ${FORMATS.join(', ')}, got "${values.format}".`);
  const [{ verifyRange, DEFAULT_VERIFY_RULEBOOK }, { parseRulebook, redactSecrets, checkActions }, { gitRoot }, { findBubblewrap, BUBBLEWRAP_HINT }] =
    await Promise.all([import('../verify/index.js'), import('@holdfast/core/rules'), import('../git/index.js'), import('../exec/index.js')]);
  const bwrap = values['run-required'] === true ? findBubblewrap(io.env) : undefined;
  if (values['run-required'] === true && bwrap === undefined)
    throw new InputError(
      'E_ARGS',
      `holdfast verify: --run-required runs the required commands confined, and bubblewrap (bwrap) is not installed: ${BUBBLEWRAP_HINT}.`,
    );
  const report = await verifyRange({
    root: gitRoot(io.cwd),
    env: io.env,
    base: values.base,
    head: values.head ?? 'HEAD',
    rulebookPath: values.rulebook ?? DEFAULT_VERIFY_RULEBOOK,
    parseRulebook,
    checkActions,
    redact: (text) => redactSecrets(text),
    ...(bwrap !== undefined ? { runRequired: { bwrap } } : {}),
  });
  const text = await formatted(report, format);
  if (values.out === undefined) io.stdout.write(text);
  else {
    writeFileSync(resolve(io.cwd, values.out), text);
    writeLine(io.stdout, verdictLine(report));
  }
  return report.violations === 0 ? EXIT.ok : EXIT.failed;
}
