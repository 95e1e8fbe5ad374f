import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast changes [--out FILE]

Prints the git work tree's change against its last commit as the input \`holdfast check\` reads:
{"actions": [...], "existing": [...]}. A changed or new file is a write of its content, a removed
one a delete; "existing" is what the last commit holds. holdfast's own .holdfast/ folder is left out.

Options:
  --out FILE   write it to FILE (folders made as needed) instead of stdout
  -h, --help   show this help

Exit codes: 0 ok, 2 not in a git repository or bad input, 3 internal error.`;

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('changes', args, {
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new InputError('E_ARGS', `holdfast changes: unexpected argument "${positionals[0]}". See \`holdfast changes --help\`.`);
  const [{ gitRoot }, { workTreeChanges }] = await Promise.all([import('@holdfast/gate'), import('@holdfast/gate')]);
  let input;
  try {
    input = workTreeChanges(gitRoot(io.cwd));
  } catch (error) {
    throw new InputError(
      'E_GIT',
      `holdfast changes: cannot read the git work tree in ${io.cwd} (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); run it inside a git repository.`,
      { cause: error },
    );
  }
  const text = JSON.stringify(input);
  if (values.out === undefined) {
    writeLine(io.stdout, text);
    return EXIT.ok;
  }
  const out = resolve(io.cwd, values.out);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${text}\n`);
  return EXIT.ok;
}
