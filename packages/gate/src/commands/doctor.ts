import { InputError } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast doctor [--codex PATH] [--json]

Checks, for each gate installed in the current project, that its hook will actually run:
  claude-code, codex  the config parses; holdfast's command is registered for PreToolUse,
                      PostToolUse and Stop; its node and hook entry exist; the hook starts and
                      answers; the timeout leaves room for the internal deadline
  codex               asked of Codex itself (codex app-server): hooks are switched on, the project
                      folder is trusted, and each holdfast hook is trusted and enabled
  git                 the pre-commit hook git runs holds the gate (core.hooksPath included), is
                      executable, and its node and hook entry exist; which folder git runs hooks
                      from and where core.hooksPath was set; a hook manager found there (husky,
                      lefthook, the pre-commit framework); whether the reference-transaction hook
                      runs holdfast first in its chain, and whether this git (2.28+) runs it
and that .holdfast/ is ignored by git and the rulebook loads (a rule the live gate cannot enforce
is listed as advisory). Exit 0 when the gate will hold, 1 with what to do when it will not.

Options:
  --codex PATH  the codex binary to ask (default: codex on PATH)
  --json        print the checks as JSON
  -h, --help    this help`;

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const { values } = parseCommandArgs('doctor', args, {
      codex: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    const [{ runDoctor }, { findCodex }] = await Promise.all([import('../install/doctor.js'), import('../install/codex-hooks.js')]);
    const checks = await runDoctor({ root: io.cwd, env: io.env, codex: findCodex(values.codex, io.env, io.cwd) });
    const problems = checks.filter((check) => !check.ok);
    if (values.json === true) {
      writeLine(io.stdout, JSON.stringify({ ok: problems.length === 0, checks }, null, 2));
    } else {
      writeLine(io.stdout, `holdfast doctor: ${io.cwd}`);
      let area = '';
      for (const check of checks) {
        if (check.area !== area) {
          area = check.area;
          writeLine(io.stdout, area);
        }
        writeLine(io.stdout, `  ${check.ok ? (check.advisory === true ? 'note' : 'ok  ') : 'FAIL'}  ${check.what}`);
        if (check.fix !== undefined && !check.ok) writeLine(io.stdout, `        -> ${check.fix}`);
      }
      writeLine(
        io.stdout,
        problems.length === 0
          ? 'All good: the gate will hold.'
          : `${problems.length} problem${problems.length === 1 ? '' : 's'}: the gate will not hold until ${problems.length === 1 ? 'it is' : 'they are'} fixed.`,
      );
    }
    return problems.length === 0 ? EXIT.ok : EXIT.failed;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    throw error;
  }
}
