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
and that .holdfast/ is ignored by git and the rulebook loads: how many rules block, warn, or are
prose only (a rule the live gate cannot enforce is listed as advisory). "NOT YET" when nothing
blocks (every rule at warn) or the rulebook was never tried on the history (holdfast rulebook try):
then it never says "All good". Exit 0 when the installation works (NOT YET included), 1 with what
to do when it does not.

Options:
  --codex PATH  the codex binary to ask (default: codex on PATH)
  --json        print the checks as JSON ({"ok", "holds", "checks"}: holds is false while NOT YET)
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
    const pending = checks.filter((check) => check.ok && check.pending === true);
    if (values.json === true) {
      writeLine(io.stdout, JSON.stringify({ ok: problems.length === 0, holds: problems.length === 0 && pending.length === 0, checks }, null, 2));
    } else {
      writeLine(io.stdout, `holdfast doctor: ${io.cwd}`);
      let area = '';
      for (const check of checks) {
        if (check.area !== area) {
          area = check.area;
          writeLine(io.stdout, area);
        }
        writeLine(io.stdout, `  ${check.ok ? (check.advisory === true ? 'note' : check.pending === true ? 'NOT YET' : 'ok  ') : 'FAIL'}  ${check.what}`);
        if (check.fix !== undefined && (!check.ok || check.pending === true)) writeLine(io.stdout, `        -> ${check.fix}`);
      }
      writeLine(
        io.stdout,
        problems.length > 0
          ? `${problems.length} problem${problems.length === 1 ? '' : 's'}: the gate will not hold until ${problems.length === 1 ? 'it is' : 'they are'} fixed.`
          : pending.length > 0
            ? `Installed and working, but the gate does not hold yet: ${pending.map((check) => check.what.split(':')[0]).join('; ')} (see NOT YET above).`
            : 'All good: the gate will hold.',
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
