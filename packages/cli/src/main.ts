import { packageVersion } from '@holdfast/core/command';
import { EXIT, processIo, runCommand, writeLine } from '@holdfast/core/command';
import type { CommandModule } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';
import { GATE_COMMANDS, GATE_COMMAND_SUMMARIES } from '@holdfast/gate/commands';
import type { GateCommandName } from '@holdfast/gate/commands';

export { exitQuietlyOnClosedPipe } from '@holdfast/core/command';

/** A command is loaded only when it is called, so `holdfast --version` stays as fast as node itself. */
interface CommandEntry {
  summary: string;
  load: () => Promise<CommandModule>;
}

/** The gate's verbs live in the gate package (installable alone, with its own `holdfast-gate`); the CLI only names them. */
function gateCommand(name: GateCommandName): CommandEntry {
  return { summary: GATE_COMMAND_SUMMARIES[name], load: GATE_COMMANDS[name] };
}

const COMMANDS: Record<string, CommandEntry> = {
  init: { summary: 'set up a first measurement on your repository: rulebook from your AGENTS.md, a task, targets', load: () => import('./commands/init.js') },
  check: { summary: 'judge an action list against the rulebook', load: () => import('./commands/check.js') },
  changes: { summary: "the git work tree's change as an action list for check", load: () => import('./commands/changes.js') },
  parse: { summary: 'read a raw model reply into actions', load: () => import('./commands/parse.js') },
  rulebook: {
    summary: 'render the rulebook as AGENTS.md prose, export it, or draft one from your AGENTS.md (init)',
    load: () => import('./commands/rulebook.js'),
  },
  tasks: { summary: 'list the task fixtures and the rules each tempts, or make one from your repo (tasks new)', load: () => import('./commands/tasks.js') },
  targets: { summary: 'list the configured targets and whether they are reachable', load: () => import('./commands/targets.js') },
  run: { summary: 'run the told/held experiment', load: () => import('./commands/run.js') },
  worker: { summary: 'play rounds queued by `run --queue` (sweeps across machines)', load: () => import('./commands/worker.js') },
  report: { summary: 'print a run file (or the gate audit log) as a table, markdown, JSON or JUnit', load: () => import('./commands/report.js') },
  rescore: { summary: 're-check a recorded run with a rulebook, no model calls', load: () => import('./commands/rescore.js') },
  judge: { summary: 'grade a recorded run with judge rules (advisory), or calibrate a judge on labelled cases', load: () => import('./commands/judge.js') },
  pressure: { summary: 'pressure fixtures: lint, list, coverage, prompt, evaluate, report, run, compare, docs', load: () => import('./commands/pressure.js') },
  verify: gateCommand('verify'),
  hook: gateCommand('hook'),
  install: gateCommand('install'),
  uninstall: gateCommand('uninstall'),
  allow: gateCommand('allow'),
  exec: gateCommand('exec'),
  doctor: gateCommand('doctor'),
  serve: { summary: 'the web app on 127.0.0.1:5177', load: () => import('./commands/serve.js') },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`);
  return [
    'holdfast: measure whether coding agents obey their rulebook, then enforce it.',
    '',
    'Usage: holdfast <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `holdfast <command> --help` for the options of one command.',
    'Exit codes: 0 ok, 1 something judged failed, 2 bad input, 3 internal error, 4 the disk is full or a file is not writable.',
  ].join('\n');
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    writeLine(io.stdout, usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    writeLine(io.stdout, packageVersion());
    return EXIT.ok;
  }
  const entry = COMMANDS[name];
  if (entry === undefined) {
    writeLine(io.stderr, `holdfast: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}.`);
    return EXIT.usage;
  }
  return runCommand(name, entry.load, rest, io);
}
