import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { Rulebook, TaskInfo } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, withCommandPrefix, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast tasks [--dir DIR] [--rulebook FILE] [--json]
       holdfast tasks new --repo DIR --ticket TEXT|--ticket-file F --out DIR [...]  (see \`holdfast tasks new --help\`)

Lists the task fixtures: each task's id, title, the rules it tempts and how many files its repo has.
Every task is validated on the way, and a tempted rule the rulebook lacks is an error.

Options:
  --dir DIR        the tasks folder (default: the shipped tasks/)
  --rulebook FILE  the rulebook that names the rules (default: the shipped rulebooks/default.yaml)
  --json           print {"tasks": [{"id", "title", "tempts": [{"id", "name"}], "files"}]}
  -h, --help       show this help

Exit codes: 0 ok, 2 a task or the rulebook is invalid, 3 internal error.`;

export interface TaskListing {
  id: string;
  title: string;
  tempts: { id: string; name: string }[];
  files: number;
}

export function listTasks(tasks: readonly TaskInfo[], rulebook: Rulebook): TaskListing[] {
  // Prose and judge rules are rules too: a drafted rulebook's task tempts them, and a listing that shows `?` for them reads as a broken task.
  const names = new Map([...rulebook.rules, ...(rulebook.proseRules ?? []), ...(rulebook.judgeRules ?? [])].map((rule) => [rule.id, rule.name]));
  return tasks.map((task) => ({
    id: task.id,
    title: task.title,
    tempts: task.tempts.map((id) => ({ id, name: names.get(id) ?? '?' })),
    files: Object.keys(task.files).length,
  }));
}

function table(listings: readonly TaskListing[]): string {
  const rows = [
    ['id', 'title', 'tempts', 'files'],
    ...listings.map((task) => [task.id, task.title, task.tempts.map((rule) => `${rule.id} ${rule.name}`).join(', '), String(task.files)]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(5))).join('  ')).join('\n');
}

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args[0] === 'new') {
    try {
      return await (await import('./tasks-new.js')).run(args.slice(1), io);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      writeLine(io.stderr, withCommandPrefix('tasks new', error.message));
      return EXIT.usage;
    }
  }
  try {
    const { values, positionals } = parseCommandArgs('tasks', args, {
      dir: { type: 'string' },
      rulebook: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    if (positionals.length > 0) {
      throw new InputError('E_ARGS', `holdfast tasks: takes no arguments, got "${positionals.join(' ')}". See \`holdfast tasks --help\`.`);
    }
    const [{ loadRulebook }, { loadTasks, defaultTasksDir }] = await Promise.all([import('@holdfast/core/rules'), import('@holdfast/lab/experiment')]);
    const rulebook = await loadRulebook(values.rulebook === undefined ? undefined : resolve(io.cwd, values.rulebook));
    const dir = values.dir === undefined ? defaultTasksDir() : resolve(io.cwd, values.dir);
    const listings = listTasks(await loadTasks(dir, { rulebook }), rulebook);
    if (values.json) writeLine(io.stdout, JSON.stringify({ tasks: listings }));
    else writeLine(io.stdout, table(listings));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    writeLine(io.stderr, `holdfast tasks: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.internal;
  }
}
