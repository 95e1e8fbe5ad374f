import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast rulebook <subverb> [options]

Subverbs:
  render [--rulebook FILE]  print the rulebook as AGENTS.md markdown (the text the told arm shows the model)
  export --format flowspec  print the rulebook as an Agent Relay workflow, one checked step per rule
  init [--from FILE]        draft a rulebook from your AGENTS.md, CLAUDE.md, Cursor rules or Copilot
                            instructions (see \`holdfast rulebook init --help\`)
  try [--commits N]         run the rulebook over the repository's last N commits: what it would have
                            refused, commit by commit (see \`holdfast rulebook try --help\`)
  promote ID [--force]      set a rule from warn to block once \`rulebook try\` shows it quiet on the
                            team's history (see \`holdfast rulebook promote --help\`)

Options:
  --rulebook FILE  the rulebook (default: the shipped rulebooks/default.yaml)
  -h, --help       show this help

Exit codes: 0 ok, 2 bad input (an unknown subverb, an invalid rulebook), 3 internal error.`;

type Subverb = (args: string[], io: CliIo) => Promise<number>;

const SUBVERBS: Record<string, Subverb> = {
  render,
  export: async (args, io) => (await import('./rulebook-export.js')).run(args, io),
  init: async (args, io) => (await import('./rulebook-init.js')).run(args, io),
  try: async (args, io) => (await import('./rulebook-try.js')).run(args, io),
  promote: async (args, io) => (await import('./rulebook-promote.js')).run(args, io),
};

export async function run(args: string[], io: CliIo): Promise<number> {
  const [subverb, ...rest] = args;
  if (subverb === undefined || subverb === '--help' || subverb === '-h' || subverb === 'help') {
    writeLine(subverb === undefined ? io.stderr : io.stdout, HELP);
    return subverb === undefined ? EXIT.usage : EXIT.ok;
  }
  const handler = SUBVERBS[subverb];
  if (handler === undefined) {
    writeLine(io.stderr, `holdfast rulebook: unknown subverb "${subverb}". Subverbs: ${Object.keys(SUBVERBS).join(', ')}.`);
    return EXIT.usage;
  }
  try {
    return await handler(rest, io);
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    writeLine(io.stderr, `holdfast rulebook ${subverb}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.internal;
  }
}

async function render(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('rulebook render', args, {
    rulebook: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    writeLine(io.stdout, HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0)
    throw new InputError('E_ARGS', `holdfast rulebook render: unexpected argument "${positionals[0]}"; pass the rulebook with --rulebook FILE.`);
  const { loadRulebook, renderRulebook } = await import('@holdfast/core/rules');
  const rulebook = await loadRulebook(values.rulebook === undefined ? undefined : resolve(io.cwd, values.rulebook));
  io.stdout.write(renderRulebook(rulebook));
  return EXIT.ok;
}
