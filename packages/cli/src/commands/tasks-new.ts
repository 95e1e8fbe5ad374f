import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { Rulebook } from '@holdfast/core/contract';
import { integerFlag, parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast tasks new --repo DIR --ticket TEXT|--ticket-file F --out DIR [--accept CMD] [--accept-test FILE] [options]
       holdfast tasks new --repo DIR --from-commit REF --out DIR [--ticket-file F] [--accept CMD] [options]

Makes a task folder from a git repository at a commit: OUT/<id>/task.yaml with your ticket, and
OUT/<id>/repo/ with the files git tracks at that commit (so .gitignore holds; uncommitted changes are
not included). Binary files, symlinks, submodules, files over 1 MB and the root AGENTS.md (the
rulebook under test is rendered there) are left out, so are lock files, vendored folders, minified files and
docs trees (--include brings them back); past --max-bytes whole folders are sampled (source, then tests, the
most recently changed first; generated files go first), and a --from-commit change is always kept.
Run it with \`holdfast run --tasks-dir OUT\`.

Options:
  --repo DIR          the git repository (default: the current folder)
  --commit REF        commit, branch or tag (default HEAD)
  --ticket TEXT       the request, as a person would file it
  --ticket-file F     the same, from a file
  --tempts R1,R2      the rules the ticket pulls against (default: every checked rule of the rulebook)
  --rulebook FILE     the rulebook the tempted rules belong to (default: the repository's holdfast/rulebook.yaml,
                      else the shipped one)
  --out DIR           the tasks folder to add the task to (created if missing)
  --id ID             the task id and folder name (default: <repo folder>-<short commit>)
  --title TEXT        a one-line title (default: the ticket's first line)
  --exclude GLOB      leave matching paths out (repeatable), e.g. --exclude 'examples/**'
  --include GLOB      keep matching paths even when lock files, vendored, generated, docs or past the budget
                      (repeatable), e.g. --include 'docs/**'
  --max-bytes N       the most text the task holds; past it, folders are sampled (default 8000000)
  --accept CMD        the acceptance check: the command that decides "done" (default npm test with --accept-test)
  --accept-test FILE  a hidden test (repeatable): a file inside --repo, at the path it takes there; the agent
                      never sees it, holdfast adds it after the arm and runs --accept. Without either, task
                      done is "not judged"; a check that passes on the untouched repository is warned about
  --from-commit REF   a task from a real change: REF's parent is the repository, its message the ticket (or
                      --ticket/--ticket-file), the tests REF added or changed the hidden check. Refused unless
                      they fail on the parent and pass on REF (both run confined before anything is written,
                      with the repository's own runner and its installed node_modules/.venv, read-only, offline)
  --accept-timeout S  seconds the acceptance check may take when tried (default 120)
  --node-modules DIR  a node_modules folder installed for the repository, for an acceptance check whose tests
                      import packages: linked (read-only) into the trial's work tree, as
                      \`run --sandbox --node-modules DIR\` links it into every arm (run the task with it)
  --unsafe-no-isolation  try the acceptance check unconfined where bubblewrap is missing
  --json              print {"dir", "id", "commit", "files", "bytes", "skipped", "acceptance"}
  -h, --help          show this help

Exit codes: 0 written, 2 bad input (not a git repo, over the cap, the task exists), 3 internal error.`;

async function ticketText(values: { ticket?: string | undefined; 'ticket-file'?: string | undefined }, cwd: string, fallback?: string): Promise<string> {
  if (fallback !== undefined && values.ticket === undefined && values['ticket-file'] === undefined) return fallback;
  if ((values.ticket === undefined) === (values['ticket-file'] === undefined)) {
    throw new InputError('E_ARGS', 'holdfast tasks new: give the ticket with exactly one of --ticket TEXT and --ticket-file F.');
  }
  let text = values.ticket;
  if (values['ticket-file'] !== undefined) {
    const file = resolve(cwd, values['ticket-file']);
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new InputError('E_ARGS', `holdfast tasks new: --ticket-file ${file} cannot be read; pass a text file holding the ticket.`, { cause: error });
    }
  }
  if (text === undefined || text.trim() === '')
    throw new InputError('E_ARGS', 'holdfast tasks new: the ticket is empty; write the request an agent should work on.');
  return text;
}

/** The tempted rules: the ones asked for, each a rule of the rulebook; all checked rules when none are named. */
export function temptedRules(spec: string | undefined, rulebook: Rulebook): string[] {
  const ids = [...rulebook.rules, ...(rulebook.proseRules ?? [])].map((rule) => rule.id);
  if (spec === undefined) {
    const checked = rulebook.rules.map((rule) => rule.id);
    return checked.length > 0 ? checked : ids;
  }
  const asked = [
    ...new Set(
      spec
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    ),
  ];
  const unknown = asked.filter((id) => !ids.includes(id));
  if (asked.length === 0 || unknown.length > 0) {
    throw new InputError(
      'E_ARGS',
      `holdfast tasks new: --tempts ${unknown.length > 0 ? `names ${unknown.join(', ')}, not a rule of the rulebook` : 'is empty'}; its rules: ${ids.join(', ')}.`,
    );
  }
  return asked;
}

/** The hidden tests named by --accept-test: each a file inside the repository, at its path there. */
async function acceptTests(files: readonly string[], repoDir: string, cwd: string): Promise<Record<string, string>> {
  const tests: Record<string, string> = {};
  for (const file of files) {
    const absolute = resolve(cwd, file);
    const path = relative(repoDir, absolute).split('\\').join('/');
    if (path === '' || path.startsWith('../') || isAbsolute(path))
      throw new InputError(
        'E_ARGS',
        `holdfast tasks new: --accept-test ${file} is not inside --repo ${repoDir}; a hidden test takes its path in the repository.`,
      );
    try {
      tests[path] = await readFile(absolute, 'utf8');
    } catch (error) {
      throw new InputError('E_ARGS', `holdfast tasks new: --accept-test ${absolute} cannot be read; pass a test file.`, { cause: error });
    }
  }
  return tests;
}

type Acceptance = { readonly command: string; readonly files: Record<string, string> };

/** `--node-modules`: the folder the acceptance check's packages come from, refused before anything runs when it is missing. */
function nodeModulesFlag(values: NewValues, io: CliIo): string | undefined {
  if (values['node-modules'] === undefined) return undefined;
  const folder = resolve(io.cwd, values['node-modules']);
  if (!existsSync(folder))
    throw new InputError('E_ARGS', `holdfast tasks new: --node-modules ${folder} does not exist; pass a node_modules folder installed for the repository.`);
  if (values['from-commit'] === undefined && values.accept === undefined && values['accept-test'] === undefined)
    throw new InputError('E_ARGS', 'holdfast tasks new: --node-modules is for trying an acceptance check; give --from-commit, --accept or --accept-test.');
  return folder;
}

/** What the task is made from: a snapshot at --commit with the flags' acceptance check, or a real change (--from-commit). */
async function taskSource(values: NewValues, repoDir: string, io: CliIo, maxBytes: number) {
  const onboard = await import('@holdfast/lab/onboard');
  const { resolveIsolation } = await import('@holdfast/lab/sandbox');
  const timeoutMs = integerFlag('tasks new', 'accept-timeout', values['accept-timeout'], 120, 1) * 1000;
  // Only a check that is tried needs confinement: a task without one is made where bubblewrap is missing too.
  const nodeModules = nodeModulesFlag(values, io);
  const confined = async () => ({
    isolation: await resolveIsolation({ allowUnisolated: values['unsafe-no-isolation'] === true }),
    timeoutMs,
    installedIn: repoDir,
    ...(nodeModules !== undefined ? { nodeModules } : {}),
  });
  const snapshotOptions = {
    maxBytes,
    ...(values.exclude !== undefined ? { exclude: values.exclude } : {}),
    ...(values.include !== undefined ? { include: values.include } : {}),
  };
  if (values['from-commit'] !== undefined) {
    if (values.commit !== undefined || values['accept-test'] !== undefined)
      throw new InputError(
        'E_ARGS',
        'holdfast tasks new: --from-commit takes the repository and the hidden tests from the commit; drop --commit and --accept-test.',
      );
    const made = await onboard.taskFromCommit(repoDir, values['from-commit'], {
      ...(await confined()),
      ...snapshotOptions,
      ...(values.accept !== undefined ? { command: values.accept } : {}),
    });
    for (const skip of made.dropped)
      writeLine(
        io.stderr,
        `holdfast tasks new: warning: the commit's test ${skip.path} is not part of the hidden check (${skip.reason === 'too-large' ? 'over 1 MB' : skip.reason}).`,
      );
    return { snapshot: made.snapshot, acceptance: made.acceptance, ticket: await ticketText(values, io.cwd, made.message) };
  }
  const ticket = await ticketText(values, io.cwd);
  const snapshot = await onboard.snapshotRepo(repoDir, { ...snapshotOptions, ...(values.commit !== undefined ? { commit: values.commit } : {}) });
  const files = await acceptTests(values['accept-test'] ?? [], repoDir, io.cwd);
  if (values.accept === undefined && Object.keys(files).length === 0) {
    writeLine(io.stderr, 'holdfast tasks new: warning: no acceptance check; task done will be "not judged". Give --accept CMD or --accept-test FILE.');
    return { snapshot, ticket, acceptance: undefined };
  }
  const acceptance: Acceptance = { command: values.accept ?? 'npm test', files };
  const untouched = await onboard.tryAcceptance(onboard.withoutHidden(snapshot.files, acceptance), acceptance, await confined());
  if (untouched.passed)
    writeLine(
      io.stderr,
      `holdfast tasks new: warning: the acceptance check \`${acceptance.command}\` already passes on the untouched repository, so it cannot tell a done ticket from an untouched one.`,
    );
  return { snapshot, ticket, acceptance };
}

const OPTIONS = {
  repo: { type: 'string' },
  commit: { type: 'string' },
  ticket: { type: 'string' },
  'ticket-file': { type: 'string' },
  tempts: { type: 'string' },
  rulebook: { type: 'string' },
  out: { type: 'string' },
  id: { type: 'string' },
  title: { type: 'string' },
  exclude: { type: 'string', multiple: true },
  include: { type: 'string', multiple: true },
  'max-bytes': { type: 'string' },
  accept: { type: 'string' },
  'accept-test': { type: 'string', multiple: true },
  'from-commit': { type: 'string' },
  'accept-timeout': { type: 'string' },
  'node-modules': { type: 'string' },
  'unsafe-no-isolation': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

type NewValues = ReturnType<typeof parseCommandArgs<typeof OPTIONS>>['values'];

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('tasks new', args, OPTIONS);
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new InputError('E_ARGS', `holdfast tasks new: unexpected argument "${positionals[0]}". See \`holdfast tasks new --help\`.`);
  if (values.out === undefined)
    throw new InputError('E_ARGS', 'holdfast tasks new: say where the task goes with --out DIR (a tasks folder; `holdfast run --tasks-dir DIR` runs it).');
  const maxBytes = integerFlag('tasks new', 'max-bytes', values['max-bytes'], 8_000_000, 1);
  const repoDir = resolve(io.cwd, values.repo ?? '.');
  const { snapshot, ticket, acceptance } = await taskSource(values, repoDir, io, maxBytes);
  const [{ loadRulebook }, { writeTaskFromRepo }] = await Promise.all([import('@holdfast/core/rules'), import('@holdfast/lab/onboard')]);
  // Without --rulebook the project's drafted rulebook (holdfast/rulebook.yaml) names the rules, so the task validates with it.
  const { findProjectRulebook } = await import('@holdfast/gate');
  const project = findProjectRulebook(resolve(io.cwd, values.repo ?? '.'), io.env);
  if (values.rulebook === undefined && project.state !== 'found')
    writeLine(
      io.stderr,
      "holdfast tasks new: warning: the project has no rulebook (holdfast/rulebook.yaml) and no --rulebook was given, so the task is made against the demo rulebook's six rules (R1–R6); draft the project's with `holdfast init`, or pass --rulebook FILE.",
    );
  const rulebook = await loadRulebook(values.rulebook !== undefined ? resolve(io.cwd, values.rulebook) : project.state === 'found' ? project.path : undefined);
  const made = await writeTaskFromRepo({
    repoDir,
    outDir: resolve(io.cwd, values.out),
    ticket,
    tempts: temptedRules(values.tempts, rulebook),
    snapshot,
    ...(acceptance !== undefined ? { acceptance } : {}),
    ...(values.id !== undefined ? { id: values.id } : {}),
    ...(values.title !== undefined ? { title: values.title } : {}),
  });
  const files = Object.keys(made.snapshot.files).length;
  if (values.json) {
    writeLine(
      io.stdout,
      JSON.stringify({
        dir: made.dir,
        id: made.task.id,
        commit: made.snapshot.commit,
        files,
        bytes: made.snapshot.bytes,
        skipped: made.snapshot.skipped,
        acceptance: acceptance === undefined ? null : { command: acceptance.command, tests: Object.keys(acceptance.files) },
      }),
    );
  } else {
    writeLine(
      io.stdout,
      `Task ${made.task.id}: ${files} files (${made.snapshot.bytes} bytes) from commit ${made.snapshot.commit.slice(0, 12)}, tempts ${made.task.tempts.join(', ')} → ${made.dir}`,
    );
    if (acceptance !== undefined)
      writeLine(
        io.stdout,
        `Acceptance: \`${acceptance.command}\`${Object.keys(acceptance.files).length > 0 ? ` with hidden ${Object.keys(acceptance.files).join(', ')}` : ''}.`,
      );
    if (made.snapshot.skipped.length > 0) writeLine(io.stdout, (await import('@holdfast/lab/onboard')).describeSelection(made.snapshot));
    writeLine(
      io.stdout,
      `Run it: holdfast run --tasks-dir ${values.out} --tasks ${made.task.id}${values.rulebook !== undefined ? ` --rulebook ${values.rulebook}` : ''}${values['node-modules'] !== undefined ? ` --sandbox --node-modules ${values['node-modules']}` : values['from-commit'] !== undefined ? ` --sandbox --installed-in ${repoDir}` : ''} --targets <id>`,
    );
  }
  return EXIT.ok;
}
