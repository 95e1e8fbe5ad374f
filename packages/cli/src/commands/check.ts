import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { CheckInput, CheckReport } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, readAllText, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast check [--rulebook FILE] [--json] [INPUT | -]

Judges an action list against the rulebook and prints every failed check.
INPUT is a JSON file (or - / nothing for stdin) shaped like
  {"actions": [{"type": "write", "path": "src/a.ts", "content": "..."}, ...], "existing": ["src/lib/http.ts"]}
Action types: write {path, content}, delete {path}, run {cmd}, commit {message}.
"existing" lists the paths that were already in the repository (an edit of one needs no new test).

Options:
  --rulebook FILE  the rulebook (default: the shipped rulebooks/default.yaml)
  --json           print {"checks": [...], "violations": N}
  -h, --help       show this help

Exit codes: 0 no violation, 1 at least one violation, 2 bad input, 3 internal error.`;

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs('check', args, {
      rulebook: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    if (positionals.length > 1)
      throw new InputError('E_ARGS', `holdfast check: give one input file, got ${positionals.length}. See \`holdfast check --help\`.`);
    const { checkActions, loadRulebook, parseCheckInput } = await import('@holdfast/core/rules');
    const source = positionals[0] ?? '-';
    const rulebook = await loadRulebook(values.rulebook === undefined ? undefined : resolve(io.cwd, values.rulebook));
    const input: CheckInput = parseCheckInput(await readInput(source, io), source === '-' ? 'stdin' : source);
    const existingContent = input.existingContent;
    const checks = await checkActions(input.actions, input.existing, rulebook, undefined, (path) =>
      existingContent !== undefined && Object.hasOwn(existingContent, path) ? existingContent[path] : undefined,
    );
    const report: CheckReport = { checks, violations: checks.filter((check) => !check.ok).length };
    if (values.json) writeLine(io.stdout, JSON.stringify(report));
    else printReport(report, input.actions.length, io);
    return report.violations > 0 ? EXIT.failed : EXIT.ok;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    writeLine(io.stderr, `holdfast check: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.internal;
  }
}

async function readInput(source: string, io: CliIo): Promise<string> {
  if (source === '-') {
    if (io.stdin.isTTY === true)
      throw new InputError('E_ARGS', 'holdfast check: give an input file, or pipe the JSON into stdin. See `holdfast check --help`.');
    return readAllText(io.stdin);
  }
  try {
    return await readFile(resolve(io.cwd, source), 'utf8');
  } catch (error) {
    throw new InputError(
      'E_CHECK_INPUT',
      `${source}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); give the path of a JSON file with an "actions" list.`,
      { cause: error },
    );
  }
}

function printReport(report: CheckReport, actionCount: number, io: CliIo): void {
  for (const check of report.checks) if (!check.ok) writeLine(io.stdout, `✗ ${check.detail}`);
  const passed = report.checks.length - report.violations;
  const violations = `${report.violations} violation${report.violations === 1 ? '' : 's'}`;
  writeLine(io.stdout, `${violations} in ${actionCount} action${actionCount === 1 ? '' : 's'}; ${passed} check${passed === 1 ? '' : 's'} passed.`);
}
