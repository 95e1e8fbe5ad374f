import { InputError } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast allow --once [--rule ID] [--reason TEXT]

The person's override of the live gate, for one tool call. The next call of the agent that the gate
would refuse (for rule ID, or for any rule without --rule) goes ahead once, within 10 minutes, and is
recorded in .holdfast/audit.jsonl as "allowed-by-person" with your reason.

It only runs at an interactive terminal (stdin and stdout), so an agent cannot run it through its
tools, and the git pre-commit hook never honours it: a commit is always judged.

Options:
  --once         required: the allowance covers one call
  --rule ID      only a refusal by this rule (R2, GATE …) is let through
  --reason TEXT  why, for the audit log
  -h, --help     this help`;

/** Writes the one-time allowance; `now` is the clock its 10-minute expiry starts from. */
export async function run(args: string[], io: CliIo, now: () => Date = () => new Date()): Promise<number> {
  const { values, positionals } = parseCommandArgs('allow', args, {
    once: { type: 'boolean' },
    rule: { type: 'string' },
    reason: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new InputError('E_ARGS', `holdfast allow: unexpected argument "${positionals[0]}". See \`holdfast allow --help\`.`);
  if (values.once !== true)
    throw new InputError('E_ARGS', 'holdfast allow: say --once; an allowance covers exactly one refused call. See `holdfast allow --help`.');
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
    writeLine(
      io.stderr,
      "holdfast allow: refused: this command only runs at an interactive terminal (stdin and stdout must both be a TTY). It is the person's override, so it cannot be run from a script, a pipe or an agent's tool.",
    );
    return EXIT.failed;
  }
  // A second lock for the terminal check: the agents mark the shells they start. An agent could clear
  // these, which is why the gate also refuses any command that runs `holdfast allow`.
  const agentShell = ['CLAUDECODE', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED'].find((name) => io.env[name] !== undefined && io.env[name] !== '');
  if (agentShell !== undefined) {
    writeLine(io.stderr, `holdfast allow: refused: this shell was started by a coding agent (${agentShell} is set). Run it in your own terminal.`);
    return EXIT.failed;
  }
  const rule = values.rule?.trim();
  if (rule === '') throw new InputError('E_ARGS', 'holdfast allow: --rule needs a rule id such as R2 or GATE.');
  const [{ grantAllowance, allowancePath, ALLOWANCE_MINUTES }, { gitRoot }] = await Promise.all([
    import('../state/allowance.js'),
    import('../git/pre-commit.js'),
  ]);
  const root = gitRoot(io.cwd);
  const allowance = grantAllowance(root, { rule, reason: values.reason?.trim() || 'no reason given', now: now() });
  writeLine(
    io.stdout,
    `holdfast allow: the next agent tool call the gate would refuse${rule === undefined ? '' : ` for ${rule}`} goes ahead once, until ${allowance.expires} (${ALLOWANCE_MINUTES} minutes). Written to ${allowancePath(root)}; the git pre-commit hook still judges every commit.`,
  );
  return EXIT.ok;
}
