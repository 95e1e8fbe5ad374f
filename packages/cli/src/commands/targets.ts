import { InputError } from '@holdfast/core/contract';
import { integerFlag, parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast targets [--json] [--timeout <ms>]

Lists the targets of holdfast.config.yaml (or the built-in local Ollama target when there is no
such file): provider, model, base URL, the variable holding the key and whether it is set (never
its value), and whether the target answers right now. Keys are read from the environment and .env.

Probes run in parallel and spend no tokens: an OpenAI-compatible server is asked for its model
list, an Anthropic target only needs its key, a command target needs its program on PATH, an agent harness its binary (PATH or the agent cache).

It also says what isolation this machine gives the commands models write (\`holdfast run
--sandbox\`): bubblewrap when it is installed and can make namespaces here, otherwise none, and
then \`run --sandbox\` refuses unless --unsafe-no-isolation is given.

Agent CLIs: a target with provider claude-code, codex, gemini-cli, qwen-code, opencode or copilot-cli
runs that harness in agent mode (told: holdfast's hook observes; held: it enforces, as \`holdfast
install\` sets it up), and the live gate speaks to each. holdfast's own tests drive all six end to end,
offline, with the real binary on a scripted model server on 127.0.0.1 (Claude Code 2.1.197, Codex
0.171.0, Gemini CLI 0.61.0, Qwen Code 0.24.4 on Node 24, OpenCode 1.18.33 with a local provider,
Copilot CLI 1.0.102 with no GitHub login), in agent mode as well (told and held). None
is only contract-tested. Each target's row says how the tests drive it. Limits:
OpenCode's plugin cannot hold the turn at its end (a module left without its test is caught at the
commit); Copilot CLI reports no tokens and has no turn cap of its own (the run's cap stops it); Qwen Code
needs Node 22 or newer first on the target's PATH.

Options:
  --json          print JSON instead of a table
  --timeout <ms>  how long each probe may take (default 2000)
  -h, --help      show this help

Exit codes: 0 listed (reachable or not), 2 bad config or flag, 3 internal error.`;

interface TargetRow {
  id: string;
  provider: string;
  model: string | null;
  baseUrl: string | null;
  command: string[] | null;
  keyEnv: string | null;
  keySet: boolean | null;
  reachable: boolean;
  detail: string;
  /** Why it cannot run, with the fix, in the web app's words; null when nothing is known to stop it. */
  problem: string | null;
  /** An agent harness: how holdfast's own tests drive it in agent mode; null for a model or a generic agent. */
  tested: string | null;
}

function table(rows: readonly TargetRow[]): string[] {
  const header = ['ID', 'PROVIDER', 'MODEL', 'BASE URL / COMMAND', 'KEY', 'REACHABLE'];
  const cells = rows.map((row) => [
    row.id,
    row.provider,
    row.model ?? '-',
    row.baseUrl ?? row.command?.join(' ') ?? '-',
    row.keyEnv === null ? '-' : `${row.keyEnv} (${row.keySet ? 'set' : 'not set'})`,
    row.reachable ? 'yes' : 'no',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => (line[column] ?? '').length)));
  const format = (line: readonly string[]): string =>
    line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const lines = [format(header)];
  rows.forEach((row, index) => {
    lines.push(format(cells[index] ?? []));
    // The fix first, in the run form's words (one function gives both); what the probe saw after it.
    if (row.problem !== null) lines.push(`  cannot run: ${row.problem}`);
    lines.push(`  ${row.detail}`);
    if (row.tested !== null) lines.push(`  agent mode, tested ${row.tested}`);
  });
  return lines;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs('targets', args, {
      json: { type: 'boolean' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    if (positionals.length > 0) {
      throw new InputError('E_ARGS', `holdfast targets: unexpected argument "${positionals[0]}". See \`holdfast targets --help\`.`);
    }
    const timeoutMs = integerFlag('targets', 'timeout', values.timeout, 2_000, 1, 600_000);
    const { isHarnessTarget, loadDotEnv, loadTargetsConfig } = await import('@holdfast/lab/models');
    const { harnessOf, probeTarget } = await import('@holdfast/lab/harness');
    const env = await loadDotEnv(io.cwd, io.env);
    const config = await loadTargetsConfig(io.cwd);
    const { detectIsolation, INSTALL_HINT } = await import('@holdfast/lab/sandbox');
    const isolationProbe = detectIsolation('auto', { searchPath: io.env.PATH ?? '' });
    const rows = await Promise.all(
      config.targets.map(async (target): Promise<TargetRow> => {
        const probe = await probeTarget(target, env, { timeoutMs });
        return {
          id: target.id,
          provider: target.provider,
          model: target.model ?? null,
          baseUrl: target.provider === 'openai-compatible' || target.provider === 'anthropic' ? target.baseUrl : null,
          command: target.provider === 'command' || target.provider === 'agent' ? target.command : null,
          keyEnv: target.keyEnv ?? null,
          keySet: target.keyEnv === undefined ? null : probe.hasKey,
          reachable: probe.reachable,
          detail: probe.detail,
          problem: probe.problem ?? null,
          tested: isHarnessTarget(target) ? (harnessOf(target.provider).tested ?? null) : null,
        };
      }),
    );
    const detected = await isolationProbe;
    const isolation = {
      kind: detected.kind,
      detail: detected.detail,
      ...(detected.kind === 'bubblewrap' ? { bwrap: detected.bwrap } : { install: INSTALL_HINT }),
    };
    if (values.json) {
      writeLine(io.stdout, JSON.stringify({ source: config.source, targets: rows, isolation }, null, 2));
      return EXIT.ok;
    }
    const source = config.source === 'built-in' ? 'no holdfast.config.yaml here: the built-in local Ollama target' : config.source;
    writeLine(io.stdout, `Targets from ${source}`);
    writeLine(io.stdout);
    for (const line of table(rows)) writeLine(io.stdout, line);
    writeLine(io.stdout);
    if (detected.kind === 'bubblewrap') {
      writeLine(io.stdout, `Sandbox isolation: bubblewrap (${detected.bwrap}) works here: ${detected.detail}.`);
    } else {
      writeLine(io.stdout, `Sandbox isolation: none (${detected.detail}). \`holdfast run --sandbox\` refuses to run model-written commands unisolated.`);
      writeLine(io.stdout, `  To isolate them, ${INSTALL_HINT}; or pass --unsafe-no-isolation to run them as you.`);
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    writeLine(io.stderr, `holdfast targets: internal error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.internal;
  }
}
