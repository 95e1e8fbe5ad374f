import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast rulebook init [--from FILE]... [--repo DIR] [--out FILE] [--json]

Drafts a holdfast rulebook from the rule file your agents already read (AGENTS.md, CLAUDE.md,
.cursor/rules/*.mdc, .github/copilot-instructions.md). Every list item and every instruction
paragraph becomes a rule with its text kept verbatim; paragraphs that only describe the project
become the description. Where a rule maps onto a check (secret, scope, sibling-test,
forbidden-pattern, http-helper, order) one is proposed, its parameters filled from the repository
(the test command from package.json, the source folders that exist); every other rule is a prose
rule, shown to the agent and never checked. A \`# draft\` comment above each rule says what was
guessed and why. Read it, fix what is wrong, then \`holdfast rulebook render --rulebook FILE\`.

Without --from, the rule files are found as \`holdfast init\` finds them: the root AGENTS.md and CLAUDE.md
(one a link to the other is read once), what a CLAUDE.md imports with @file, and every nested AGENTS.md
or CLAUDE.md git tracks, its checks scoped to its folder; without a root AGENTS.md or CLAUDE.md, Copilot
instructions, .cursorrules or .cursor/rules/. A file or link outside the repository is never read: a note
on stderr names it.

Options:
  --from FILE   a rule file (repeatable; default: found in the repository, as above)
  --repo DIR    the repository the checks' parameters come from (default: the current folder)
  --out FILE    write the draft there (refused if it exists); default: print it
  --json        print {"file", "rules": [{"id", "name", "kind", "why", "source"}], "notes"} (needs --out)
  -h, --help    show this help

Exit codes: 0 drafted, 2 bad input (no rule file, no rules in it, --out exists), 3 internal error.`;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('rulebook init', args, {
    from: { type: 'string', multiple: true },
    repo: { type: 'string' },
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0)
    throw new InputError('E_ARGS', `holdfast rulebook init: unexpected argument "${positionals[0]}"; name the rule file with --from FILE.`);
  if (values.json && values.out === undefined)
    throw new InputError('E_ARGS', 'holdfast rulebook init: --json prints a summary of the draft written with --out FILE; add --out.');
  const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
  if (out !== undefined && existsSync(out))
    throw new InputError('E_ARGS', `holdfast rulebook init: ${out} already exists; pick another --out or delete it first.`);
  const onboard = await import('@holdfast/lab/onboard');
  const repoDir = resolve(io.cwd, values.repo ?? '.');
  const found =
    values.from === undefined
      ? await onboard.discoverRuleFiles(repoDir)
      : { files: values.from.map((path) => ({ path: resolve(io.cwd, path), scope: undefined })), notes: [] };
  const scopes = new Map(found.files.flatMap((file) => (file.scope !== undefined ? [[file.path, file.scope] as const] : [])));
  const drafted = onboard.draftRulebook(
    await onboard.readRuleFiles(
      found.files.map((file) => file.path),
      repoDir,
      scopes,
    ),
    onboard.readRepoFacts(repoDir),
  );
  if (!values.json) for (const note of found.notes) writeLine(io.stderr, `note: ${note}`);
  if (out === undefined) {
    io.stdout.write(drafted.yaml);
    return EXIT.ok;
  }
  await writeFile(out, drafted.yaml);
  if (values.json) {
    writeLine(
      io.stdout,
      JSON.stringify({ file: out, rules: drafted.rules.map(({ id, name, kind, why, source }) => ({ id, name, kind, why, source })), notes: found.notes }),
    );
    return EXIT.ok;
  }
  const checked = drafted.rules.filter((rule) => rule.kind !== 'prose');
  writeLine(
    io.stdout,
    `Drafted ${drafted.rules.length} rules into ${out}: ${checked.length} with a proposed check (${checked.map((rule) => `${rule.id} ${rule.kind}`).join(', ') || 'none'}), ${drafted.rules.length - checked.length} prose only (not enforced).`,
  );
  writeLine(io.stdout, '');
  writeLine(io.stdout, drafted.table);
  writeLine(io.stdout, '');
  writeLine(io.stdout, `Read the # draft notes, fix what is wrong, then: holdfast rulebook render --rulebook ${values.out}`);
  return EXIT.ok;
}
