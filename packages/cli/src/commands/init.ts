import { relative, resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { integerFlag, parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast init [--repo DIR] [--from FILE]... [--ticket TEXT|--ticket-file F] [--model TARGET] [options]

Sets up a first measurement of your agent on your repository, in a holdfast/ folder inside it:
  holdfast/rulebook.yaml          drafted from your AGENTS.md (or CLAUDE.md, Cursor rules, Copilot
                                  instructions; see \`holdfast rulebook init\`), the shipped rulebook if none;
                                  every drafted check at \`enforcement: warn\` (the gate tells, never
                                  refuses) until \`holdfast rulebook promote ID\`
  holdfast/rulebook.trials.json   what the rulebook would have refused in the last commits, per rule
                                  (read by \`holdfast rulebook promote\` and \`holdfast doctor\`)
  holdfast/tasks/<id>/            one task from HEAD (the files git tracks) with a ticket template
  holdfast/holdfast.config.yaml   the targets this machine can run: API keys set in the environment,
                                  the models of a local Ollama (127.0.0.1:11434), claude / codex on PATH
then prints how many drafted rules block, warn or are prose only, what the rulebook would have refused
in the last commits, the last few commits that change code and ship tests (each with its
\`holdfast tasks new --from-commit\` line: git only, no test runs), and the \`holdfast run\` command to
type. holdfast/.gitignore keeps the task copy and run files out of git.

What the task holds is chosen: lock files, vendored folders, minified files and docs trees are left out;
when the rest weighs more than --max-bytes, whole folders are sampled (source, then tests, the most recently
changed first; generated files go first). A line says what was left out; --include brings a part back.
Rules are drafted from the root AGENTS.md / CLAUDE.md (and what CLAUDE.md imports with @file), and from
each nested AGENTS.md or CLAUDE.md, its checks scoped to its folder; never from a file outside the repository.

Options:
  --repo DIR        the git repository (default: the current folder)
  --from FILE       the rule file to draft from (repeatable; default: found in the repository)
  --ticket TEXT     the task's ticket instead of the template
  --ticket-file F   the same, from a file
  --dir NAME        the folder to create inside the repository (default holdfast)
  --exclude GLOB    leave matching paths out of the task (repeatable)
  --include GLOB    keep matching paths even when lock files, vendored, generated, docs or past the budget
                    (repeatable), e.g. --include 'docs/**'
  --max-bytes N     the most text the task holds; past it, folders are sampled (default 8000000)
  --ollama URL      where to look for Ollama (default http://127.0.0.1:11434; loopback only)
  --model TARGET    also ask this model target (holdfast.config.yaml here, or one init finds) for a check for each
                    rule the offline draft leaves prose only, one request per section (at most 16); a proposal is
                    kept only when it parses against the rulebook schema, trips on the model's own example of the
                    violation, stays quiet on its example of compliance and on the last 20 commits (the
                    \`rulebook try\` threshold), and it starts at warn; the rest are listed with why. Without it,
                    drafting is offline. The key is never printed or written.
  --json            print {"dir", "rulebook", "drafted", "ruleFiles", "selection", "task", "config", "targets", "run",
                    "history", "taskCommits", "model"}
  -h, --help        show this help

Exit codes: 0 written, 2 bad input (not a git repository, the files always kept over the budget, the folder
exists, an unknown --model target, or the model failed: nothing is written then), 3 internal error.`;

function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('init', args, {
    repo: { type: 'string' },
    from: { type: 'string', multiple: true },
    ticket: { type: 'string' },
    'ticket-file': { type: 'string' },
    dir: { type: 'string' },
    exclude: { type: 'string', multiple: true },
    include: { type: 'string', multiple: true },
    'max-bytes': { type: 'string' },
    ollama: { type: 'string' },
    model: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new InputError('E_ARGS', `holdfast init: unexpected argument "${positionals[0]}"; pass the repository with --repo DIR.`);
  if (values.ticket !== undefined && values['ticket-file'] !== undefined)
    throw new InputError('E_ARGS', 'holdfast init: give the ticket with one of --ticket TEXT and --ticket-file F, not both.');
  if (values.dir !== undefined && !/^[A-Za-z0-9._-]+$/.test(values.dir))
    throw new InputError('E_ARGS', `holdfast init: --dir is a folder name inside the repository (letters, digits, . _ -), got "${values.dir}".`);
  if (values.ollama !== undefined && !isLoopbackUrl(values.ollama))
    throw new InputError('E_ARGS', `holdfast init: --ollama must be a loopback URL such as http://127.0.0.1:11434, got "${values.ollama}".`);
  const maxBytes = integerFlag('init', 'max-bytes', values['max-bytes'], 8_000_000, 1);
  let ticket = values.ticket;
  if (values['ticket-file'] !== undefined) {
    const { readFile } = await import('node:fs/promises');
    const file = resolve(io.cwd, values['ticket-file']);
    ticket = await readFile(file, 'utf8').catch((error: unknown) => {
      throw new InputError('E_ARGS', `holdfast init: --ticket-file ${file} cannot be read; pass a text file holding the ticket.`, { cause: error });
    });
  }
  const { initRepo } = await import('@holdfast/lab/onboard');
  const repoDir = resolve(io.cwd, values.repo ?? '.');
  const result = await initRepo({
    repoDir,
    env: io.env,
    maxBytes,
    ...(values.from !== undefined ? { from: values.from.map((path) => resolve(io.cwd, path)) } : {}),
    ...(ticket !== undefined ? { ticket } : {}),
    ...(values.dir !== undefined ? { dirName: values.dir } : {}),
    ...(values.exclude !== undefined ? { exclude: values.exclude } : {}),
    ...(values.include !== undefined ? { include: values.include } : {}),
    ...(values.ollama !== undefined ? { ollamaUrl: values.ollama } : {}),
    ...(values.model !== undefined ? { model: { target: values.model, cwd: io.cwd } } : {}),
  });
  const shown = relative(io.cwd, result.dir) || '.';
  const { describeSelection, formatHistoryCheck, formatModelDraft, formatTaskCommits } = await import('@holdfast/lab/onboard');
  if (values.json) {
    writeLine(
      io.stdout,
      JSON.stringify({
        dir: result.dir,
        rulebook: result.rulebookFile,
        drafted: result.drafted?.map(({ id, name, kind, source }) => ({ id, name, kind, source })) ?? null,
        ruleFiles: result.ruleFiles,
        selection: describeSelection(result.task.snapshot),
        task: { id: result.task.task.id, dir: result.task.dir, files: Object.keys(result.task.snapshot.files).length, tempts: result.task.task.tempts },
        config: result.configFile,
        targets: result.targets.map((target) => ({ id: target.config.id, why: target.why, mode: target.mode })),
        run: `cd ${shown} && ${result.runCommand}`,
        history: result.history,
        taskCommits: result.taskCommits,
        model: result.modelDraft ?? null,
      }),
    );
    return EXIT.ok;
  }
  const drafted = result.drafted;
  writeLine(io.stdout, describeSelection(result.task.snapshot));
  writeLine(
    io.stdout,
    drafted === undefined
      ? `Rulebook: no rule file found; copied the shipped rulebook to ${relative(io.cwd, result.rulebookFile)} (draft yours with holdfast rulebook init --from FILE).`
      : `Rulebook: ${relative(io.cwd, result.rulebookFile)}, ${drafted.length} rules drafted from ${result.ruleFiles.read.join(', ')}, ${drafted.filter((rule) => rule.kind !== 'prose').length} with a proposed check (read the # draft notes).`,
  );
  for (const note of result.ruleFiles.notes) writeLine(io.stdout, `  ${note}`);
  if (result.modelDraft !== undefined) for (const line of formatModelDraft(result.modelDraft)) writeLine(io.stdout, line);
  else if (values.model !== undefined) writeLine(io.stdout, `Model drafting: not done (no rule file to draft from); --model ${values.model} was not asked.`);
  writeLine(
    io.stdout,
    `Task: ${relative(io.cwd, result.task.dir)}, ${Object.keys(result.task.snapshot.files).length} files from HEAD ${result.task.snapshot.commit.slice(0, 12)}, tempts ${result.task.task.tempts.join(', ')}.${ticket === undefined ? ' The ticket is a template: edit task.yaml.' : ''}`,
  );
  writeLine(
    io.stdout,
    result.targets.length === 0
      ? `Targets: none found (no API key set, no Ollama on 127.0.0.1:11434, no claude or codex on PATH); add one to ${relative(io.cwd, result.configFile)}.`
      : `Targets: ${result.targets.map((target) => `${String(target.config.id)} (${target.why})`).join(', ')} → ${relative(io.cwd, result.configFile)}`,
  );
  if (result.table !== undefined) {
    writeLine(io.stdout, '');
    writeLine(io.stdout, result.table);
  }
  writeLine(io.stdout, '');
  for (const line of formatHistoryCheck(result.history)) writeLine(io.stdout, line);
  writeLine(io.stdout, '');
  const repoShown = relative(io.cwd, repoDir);
  for (const line of formatTaskCommits(result.taskCommits, repoShown === '' ? '' : `cd ${repoShown} && `)) writeLine(io.stdout, line);
  writeLine(io.stdout, '');
  writeLine(io.stdout, result.targets.length === 0 ? 'With a model (set a key or start Ollama, then add it as a target), run it:' : 'Run it:');
  writeLine(io.stdout, `  cd ${shown} && ${result.runCommand}`);
  writeLine(io.stdout, '  holdfast report runs/<the run file it names>');
  writeLine(
    io.stdout,
    `Then enforce the same rulebook, from the repository root: holdfast install claude-code --rulebook ${relative(repoDir, result.rulebookFile)}`,
  );
  return EXIT.ok;
}
