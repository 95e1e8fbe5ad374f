import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { Action, ParsedReply } from '@holdfast/core/contract';
import { parseCommandArgs } from '@holdfast/core/command';
import { EXIT, readAllText, writeLine } from '@holdfast/core/command';
import type { CliIo } from '@holdfast/core/command';

const HELP = `Usage: holdfast parse [--json] [FILE|-]

Reads a raw model reply (FILE, or stdin when FILE is - or absent) and prints what it amounts to:
actions (with how they were read: json, fenced, object, salvaged or repaired), a decline with its
reason, or unparseable with why.

Options:
  --json      print {"kind","method","actions","reason","reasoning"} as one JSON object
  -h, --help  show this help

Exit codes: 0 the reply was read (whatever its kind), 2 the input could not be read.`;

export async function run(args: string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandArgs('parse', args, {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) {
      writeLine(io.stdout, HELP);
      return EXIT.ok;
    }
    if (positionals.length > 1) {
      throw new InputError('E_ARGS', `holdfast parse: expected one FILE, got ${positionals.length}. See \`holdfast parse --help\`.`);
    }
    const text = await readReply(positionals[0], io);
    const { parseReply, describeAction } = await import('@holdfast/core/reply');
    const parsed = parseReply(text);
    if (values.json) writeLine(io.stdout, JSON.stringify(toJson(parsed)));
    else printHuman(parsed, describeAction, io);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof InputError) {
      writeLine(io.stderr, error.message);
      return EXIT.usage;
    }
    throw error;
  }
}

async function readReply(file: string | undefined, io: CliIo): Promise<string> {
  if (file === undefined || file === '-') {
    if (file === undefined && io.stdin.isTTY === true) {
      throw new InputError('E_INPUT', 'holdfast parse: give a FILE or pipe a reply on stdin. See `holdfast parse --help`.');
    }
    return readAllText(io.stdin);
  }
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : error instanceof Error ? error.message : String(error);
    throw new InputError('E_INPUT', `holdfast parse: cannot read ${file}: ${why}.`, { cause: error });
  }
}

function toJson(parsed: ParsedReply): Record<string, unknown> {
  switch (parsed.kind) {
    case 'actions':
      return { kind: parsed.kind, method: parsed.method, actions: parsed.actions, ...(parsed.reasoning === undefined ? {} : { reasoning: parsed.reasoning }) };
    case 'declined':
      return { kind: parsed.kind, ...(parsed.method === undefined ? {} : { method: parsed.method }), actions: [], reason: parsed.reason };
    case 'unparseable':
      return { kind: parsed.kind, actions: [], reason: parsed.reason };
  }
}

function printHuman(parsed: ParsedReply, describeAction: (action: Action) => string, io: CliIo): void {
  writeLine(io.stdout, `kind: ${parsed.kind}`);
  if (parsed.kind !== 'unparseable' && parsed.method !== undefined) writeLine(io.stdout, `method: ${parsed.method}`);
  if (parsed.kind === 'actions') {
    writeLine(io.stdout, `actions: ${parsed.actions.length}`);
    for (const [index, action] of parsed.actions.entries()) writeLine(io.stdout, `  ${index}  ${describeAction(action)}`);
    if (parsed.reasoning !== undefined) writeLine(io.stdout, `reasoning: ${firstLine(parsed.reasoning)}`);
  } else {
    writeLine(io.stdout, `reason: ${parsed.reason}`);
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  const cut = line.length > 160 ? `${line.slice(0, 160)}…` : line;
  return cut.length < text.trim().length ? `${cut} …` : cut;
}
