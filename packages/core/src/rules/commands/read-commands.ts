import type { AndOr, CompoundList, ParsedScript, PipelineNode, Statement, SyntaxNode, Command } from 'unbash';
import { forEachChild, parse } from 'unbash';
import { posix } from 'node:path';
import { expandWord, UNKNOWN_OUTPUT } from '../../shell/shell-word.js';
import type { Expander, Field } from '../../shell/shell-word.js';
import { isWrapper, unwrap } from '../../shell/wrappers.js';

/**
 * Where a command runs, relative to the project root: the root itself, a folder inside it, outside
 * it (an absolute path, `~`, a `..` that climbs out), or not known (`cd "$X"`, `cd -`).
 */
export type CommandFolder =
  | { readonly where: 'root' }
  | { readonly where: 'inside'; readonly path: string }
  | { readonly where: 'outside'; readonly path: string }
  | { readonly where: 'unknown'; readonly why: string };

/** One simple command a command line would run, after its wrappers (`env`, `sudo`, `sh -c`, …) are taken off. */
export interface SimpleCommand {
  /** The program's base name (`git` for `/usr/bin/git`). */
  readonly program: string;
  readonly args: readonly Field[];
  /** The command as written, for a detail sentence. */
  readonly text: string;
  readonly folder: CommandFolder;
  /**
   * True when the whole command line exiting 0 proves this command ran and exited 0: the last of a
   * `;` list, any link of an `&&` chain with no `||` after it, the last of a pipeline, not in the
   * background, not inside an `if` or a loop.
   */
  readonly decisive: boolean;
  /** The wrappers it was found inside, outermost first ("env", "sh -c"). */
  readonly via: readonly string[];
}

/** A part of the command line that cannot be read statically, and why. */
interface UndecidedCommand {
  readonly text: string;
  readonly why: string;
}

export interface CommandReading {
  readonly commands: readonly SimpleCommand[];
  readonly undecided: readonly UndecidedCommand[];
}

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash']);
const MAX_DEPTH = 16;
const MAX_LENGTH = 64 * 1024;
const ROOT: CommandFolder = { where: 'root' };

interface Context {
  folder: CommandFolder;
  readonly variables: Map<string, string | undefined>;
  readonly via: readonly string[];
  readonly depth: number;
}

/**
 * Reads a command line as the shell would run it, with unbash's bash grammar: every simple command,
 * with its wrappers removed, the folder it runs in and whether its success is decisive. Comments and
 * quoted text are never commands. What cannot be known statically (a program name computed at run
 * time, a `sh -c "$X"`) is listed as undecided. Pure and never throws.
 */
export function readCommands(commandLine: string): CommandReading {
  const commands: SimpleCommand[] = [];
  const undecided: UndecidedCommand[] = [];
  try {
    readScript(commandLine, { folder: ROOT, variables: new Map(), via: [], depth: 0 }, true, commands, undecided);
  } catch (error) {
    undecided.push({ text: shorten(commandLine), why: `it could not be read (${error instanceof Error ? error.message : String(error)})` });
  }
  return { commands, undecided };
}

function readScript(source: string, context: Context, decisive: boolean, commands: SimpleCommand[], undecided: UndecidedCommand[]): void {
  if (source.length > MAX_LENGTH) {
    undecided.push({ text: shorten(source), why: `it is longer than ${MAX_LENGTH} characters` });
    return;
  }
  if (context.depth > MAX_DEPTH) {
    undecided.push({ text: shorten(source), why: `it nests commands more than ${MAX_DEPTH} deep` });
    return;
  }
  const script = parse(source);
  if (script.errors !== undefined && script.errors.length > 0) {
    undecided.push({ text: shorten(source), why: `it does not parse as a shell command (${script.errors[0]?.message ?? 'syntax error'})` });
    return;
  }
  new Walker(script.source ?? source, commands, undecided).list(script.commands, context, decisive);
}

class Walker {
  constructor(
    private readonly source: string,
    private readonly commands: SimpleCommand[],
    private readonly undecided: UndecidedCommand[],
  ) {}

  list(statements: readonly Statement[], context: Context, decisive: boolean): void {
    statements.forEach((statement, index) => {
      this.node(statement.command, context, decisive && index === statements.length - 1 && statement.background !== true);
    });
  }

  node(node: PipelineNode | AndOr | SyntaxNode, context: Context, decisive: boolean): void {
    switch (node.type) {
      case 'AndOr':
        node.commands.forEach((command, index) => {
          // `a || b`: b may not run, a may have failed; `a || b && c`: c runs last and decides.
          const after = node.operators.slice(index).every((operator) => operator === '&&');
          this.node(command, context, decisive && after && (index === 0 || node.operators[index - 1] === '&&'));
        });
        return;
      case 'Pipeline': {
        const negated = node.prefixes.some((prefix) => prefix.type === 'Negation');
        node.commands.forEach((command, index) => {
          this.node(command, child(context), decisive && !negated && index === node.commands.length - 1);
        });
        return;
      }
      case 'Subshell':
        this.list(node.body.commands, child(context), decisive);
        return;
      case 'BraceGroup':
        this.list(node.body.commands, context, decisive);
        return;
      case 'Redirected':
        this.node(node.command, context, decisive);
        return;
      case 'Command':
        this.command(node, context, decisive);
        return;
      default:
        this.nested(node, context);
    }
  }

  /** Commands inside an `if`, a loop, a `case` or a function body: read, but never decisive. */
  private nested(node: SyntaxNode, context: Context): void {
    const inner = child(context);
    forEachChild(node, (part) => {
      if (part.type === 'CompoundList') this.list((part as CompoundList).commands, inner, false);
      else if (part.type === 'Statement') this.node((part as Statement).command, inner, false);
      else this.nested(part, inner);
    });
    if (!sameFolder(inner.folder, context.folder)) context.folder = { where: 'unknown', why: 'a `cd` inside a branch or a loop' };
  }

  private expander(context: Context): Expander {
    return {
      variable: (name) => context.variables.get(name),
      home: () => '~',
      substitute: (script) => {
        if (script !== undefined) this.substitution(script, context);
        return UNKNOWN_OUTPUT;
      },
      runNested: (script) => {
        if (script !== undefined) this.substitution(script, context);
      },
    };
  }

  private substitution(script: ParsedScript, context: Context): void {
    new Walker(script.source ?? this.source, this.commands, this.undecided).list(script.commands, child(context), false);
  }

  private command(node: Command, context: Context, decisive: boolean): void {
    const expander = this.expander(context);
    const text = this.source.slice(node.pos, node.end);
    const assignments: [string, Field][] = [];
    for (const prefix of node.prefix) {
      if (prefix.type !== 'Assignment') continue;
      const fields = prefix.value.type === 'Word' ? expandWord(prefix.value, expander) : [{ ...blank(), literal: false, text: prefix.text }];
      const literal = fields.every((field) => field.literal);
      assignments.push([prefix.name, { ...(fields[0] ?? blank()), text: fields.map((field) => field.text).join(' '), literal }]);
    }
    const fields: Field[] = node.name === undefined ? [] : expandWord(node.name, expander);
    for (const argument of node.suffix) if (argument.type === 'Word') fields.push(...expandWord(argument, expander));
    if (fields.length === 0) {
      for (const [name, value] of assignments) context.variables.set(name, value.literal ? value.text : undefined);
      return;
    }
    this.program(fields, text, context, decisive);
  }

  private program(fields: readonly Field[], text: string, context: Context, decisive: boolean): void {
    const [first, ...args] = fields;
    if (first === undefined) return;
    if (!first.literal) {
      this.undecided.push({ text: shorten(text), why: `the program name is computed at run time (${first.text}), so what it runs cannot be known` });
      return;
    }
    const program = posix.basename(first.text);
    if (program === 'cd' || program === 'pushd' || program === 'popd') {
      context.folder =
        program === 'popd'
          ? { where: 'unknown', why: 'a `popd`' }
          : changeFolder(
              context.folder,
              args.find((arg) => !arg.text.startsWith('-')),
            );
      return;
    }
    if (isWrapper(program)) {
      const unwrapped = unwrap(program, args);
      const inner = unwrapped.inner;
      if (inner.length === 0) {
        this.record(program, args, text, context, decisive);
        return;
      }
      const directory =
        unwrapped.values.get('chdir') ?? (program === 'env' ? unwrapped.values.get('C') : program === 'sudo' ? unwrapped.values.get('D') : undefined);
      const folder = directory === undefined ? context.folder : changeFolder(context.folder, directory);
      this.program(inner, text, { ...context, folder, via: [...context.via, program] }, decisive);
      return;
    }
    if (SHELLS.has(program)) {
      const script = shellScript(args);
      if (script === 'none') {
        this.record(program, args, text, context, decisive);
        return;
      }
      if (!script.literal) {
        this.undecided.push({ text: shorten(text), why: `the script given to ${program} -c is computed at run time (${script.text})` });
        return;
      }
      readScript(script.text, { ...child(context), via: [...context.via, `${program} -c`], depth: context.depth + 1 }, decisive, this.commands, this.undecided);
      return;
    }
    if (program === 'eval') {
      if (!args.every((arg) => arg.literal)) {
        this.undecided.push({ text: shorten(text), why: 'the text given to eval is computed at run time' });
        return;
      }
      readScript(
        args.map((arg) => arg.text).join(' '),
        { ...context, via: [...context.via, 'eval'], depth: context.depth + 1 },
        decisive,
        this.commands,
        this.undecided,
      );
      return;
    }
    this.record(program, args, text, context, decisive);
  }

  private record(program: string, args: readonly Field[], text: string, context: Context, decisive: boolean): void {
    this.commands.push({ program, args, text: shorten(text), folder: context.folder, decisive, via: context.via });
  }
}

/** The script of `sh -c 'script'` (options may be grouped: `bash -lc`), or 'none' when the shell runs a file or its input. */
function shellScript(args: readonly Field[]): Field | 'none' {
  let commandMode = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as Field;
    if (arg.literal && arg.text === '--') return commandMode ? (args[index + 1] ?? 'none') : 'none';
    if (arg.literal && /^[-+][A-Za-z]+$/.test(arg.text)) {
      if (arg.text.includes('c')) commandMode = true;
      if (arg.text.endsWith('o') || arg.text.endsWith('O')) index++;
      continue;
    }
    if (arg.literal && arg.text.startsWith('--')) continue;
    return commandMode ? arg : 'none';
  }
  return 'none';
}

/** The folder after `cd target`, from the folder before it. */
function changeFolder(from: CommandFolder, target: Field | undefined): CommandFolder {
  if (target === undefined) return { where: 'outside', path: '~' };
  if (!target.literal) return { where: 'unknown', why: `\`cd ${target.text}\` goes to a folder computed at run time` };
  return resolveFolder(from, target.text);
}

/** Where a path written in a command points, seen from the folder the command runs in. */
export function resolveFolder(from: CommandFolder, path: string): CommandFolder {
  if (path === '-') return { where: 'unknown', why: '`cd -` goes back to a folder not known here' };
  if (path.startsWith('/') || path.startsWith('~')) return { where: 'outside', path };
  if (from.where === 'unknown' || from.where === 'outside') return from;
  const base = from.where === 'root' ? '.' : from.path;
  const joined = posix.normalize(posix.join(base, path));
  if (joined === '.' || joined === './') return ROOT;
  if (joined === '..' || joined.startsWith('../')) return { where: 'outside', path: joined };
  return { where: 'inside', path: joined.replace(/\/$/, '') };
}

function sameFolder(left: CommandFolder, right: CommandFolder): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

function child(context: Context): Context {
  return { ...context, variables: new Map(context.variables) };
}

function blank(): Field {
  return { text: '', literal: true, knownPrefix: '', descriptor: false, pos: -1, end: -1 };
}

function shorten(text: string): string {
  const single = text.trim().replace(/\s+/g, ' ');
  return single.length <= 120 ? single : `${single.slice(0, 119)}…`;
}
