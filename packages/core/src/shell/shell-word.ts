import type { DoubleQuotedChild, ParsedScript, SyntaxNode, Word, WordPart } from 'unbash';
import { forEachChild } from 'unbash';

/**
 * One argument after expansion. `text` holds everything that can be seen: literal text as the shell
 * would pass it, and the source text of any expansion whose value is not known (so a content rule still
 * sees `AKIA…` in `"AKIA$X"`). `literal` says whether `text` is exactly what the program would get.
 */
export interface Field {
  readonly text: string;
  readonly literal: boolean;
  /** The part of the argument known before the first unknown expansion: `src/` in `src/$NAME.ts`. */
  readonly knownPrefix: string;
  /** A process substitution (`<(cmd)`): a file descriptor, never a file in the project. */
  readonly descriptor: boolean;
  /** Where the word came from in its source, for a command's own text. */
  readonly pos: number;
  readonly end: number;
}

/** What a command printed, as far as it can be known. */
export interface Output {
  readonly text: string;
  readonly known: boolean;
}

export const UNKNOWN_OUTPUT: Output = { text: '', known: false };
export const EMPTY_OUTPUT: Output = { text: '', known: true };

export function joinOutputs(outputs: readonly Output[]): Output {
  return { text: outputs.map((output) => output.text).join(''), known: outputs.every((output) => output.known) };
}

/** What expanding a word needs from the reader: variables and running substitutions. */
export interface Expander {
  /** A variable's value when it is known, undefined otherwise. */
  variable(name: string): string | undefined;
  home(): string;
  /** Runs a `$( )` or backtick substitution (in a subshell) and returns what it prints. */
  substitute(script: ParsedScript | undefined): Output;
  /** Runs a process substitution or a substitution whose output is not used. */
  runNested(script: ParsedScript | undefined): void;
}

class FieldBuilder {
  readonly fields: Field[] = [];
  private text = '';
  private literal = true;
  private knownPrefix = '';
  private started = false;
  private descriptor = false;

  constructor(
    private readonly pos: number,
    private readonly end: number,
  ) {}

  append(text: string, known: boolean): void {
    if (!known && this.literal) {
      this.literal = false;
      this.knownPrefix = this.text;
    }
    this.text += text;
    this.started = true;
  }

  markDescriptor(): void {
    this.descriptor = true;
  }

  /** An unquoted expansion with a known value: split on blanks into separate fields. */
  appendSplit(value: string): void {
    const pieces = value.split(/[ \t\n]+/);
    pieces.forEach((piece, index) => {
      if (index > 0) this.breakField();
      if (piece !== '') this.append(piece, true);
    });
  }

  breakField(): void {
    if (this.started) {
      this.fields.push({
        text: this.text,
        literal: this.literal,
        knownPrefix: this.literal ? this.text : this.knownPrefix,
        descriptor: this.descriptor,
        pos: this.pos,
        end: this.end,
      });
    }
    this.text = '';
    this.literal = true;
    this.knownPrefix = '';
    this.started = false;
    this.descriptor = false;
  }
}

function runScriptsInside(node: SyntaxNode, expander: Expander): void {
  forEachChild(node, (child) => {
    if (child.type === 'Script') expander.runNested(child as ParsedScript);
    else runScriptsInside(child, expander);
  });
}

function plainParameter(part: WordPart | DoubleQuotedChild): string | undefined {
  if (part.type === 'SimpleExpansion') return part.text.slice(1);
  if (part.type === 'ParameterExpansion' && part.operation === undefined && part.prefix === undefined && part.index === undefined) return part.parameter;
  return undefined;
}

function stripTrailingNewlines(text: string): string {
  return text.replace(/\n+$/, '');
}

function expandPart(part: WordPart | DoubleQuotedChild, quoted: boolean, builder: FieldBuilder, expander: Expander, first: boolean): void {
  switch (part.type) {
    case 'Literal': {
      if (!quoted && first && part.value.startsWith('~')) {
        const slash = part.value.indexOf('/');
        const user = slash < 0 ? part.value.slice(1) : part.value.slice(1, slash);
        if (user === '') {
          builder.append(expander.home() + (slash < 0 ? '' : part.value.slice(slash)), true);
          return;
        }
        builder.append(part.value, false);
        return;
      }
      builder.append(part.value, true);
      return;
    }
    case 'SingleQuoted':
    case 'AnsiCQuoted':
      builder.append(part.value, true);
      return;
    case 'DoubleQuoted':
    case 'LocaleString':
      builder.append('', true);
      part.parts.forEach((child) => expandPart(child, true, builder, expander, false));
      return;
    case 'SimpleExpansion':
    case 'ParameterExpansion': {
      const name = plainParameter(part);
      const value = name === undefined ? undefined : expander.variable(name);
      if (value === undefined) {
        runScriptsInside(part, expander);
        builder.append(part.text, false);
      } else if (quoted) builder.append(value, true);
      else builder.appendSplit(value);
      return;
    }
    case 'CommandExpansion': {
      const output = expander.substitute(part.script);
      if (!output.known) builder.append(output.text === '' ? part.text : stripTrailingNewlines(output.text), false);
      else if (quoted) builder.append(stripTrailingNewlines(output.text), true);
      else builder.appendSplit(stripTrailingNewlines(output.text));
      return;
    }
    case 'ProcessSubstitution':
      expander.runNested(part.script);
      builder.append(part.text, false);
      builder.markDescriptor();
      return;
    case 'ArithmeticExpansion':
    case 'Glob':
    case 'ExtendedGlob':
    case 'BraceExpansion':
      runScriptsInside(part, expander);
      builder.append(part.text, false);
      return;
  }
}

/** Expands one word the way the shell would, as far as it can be known statically. */
export function expandWord(word: Word, expander: Expander): Field[] {
  const builder = new FieldBuilder(word.pos, word.end);
  if (word.parts === undefined) {
    expandPart({ type: 'Literal', pos: word.pos, end: word.end, value: word.value, text: word.text }, false, builder, expander, true);
  } else {
    word.parts.forEach((part, index) => expandPart(part, false, builder, expander, index === 0));
  }
  builder.breakField();
  return builder.fields;
}

/** A word where splitting does not happen (assignment values, redirection targets, heredoc bodies). */
export function expandWhole(word: Word, expander: Expander): Field {
  const fields = expandWord(word, expander);
  if (fields.length === 1) return fields[0] as Field;
  const text = fields.map((field) => field.text).join(' ');
  const literal = fields.length > 0 && fields.every((field) => field.literal);
  return {
    text,
    literal: fields.length === 0 ? true : literal,
    knownPrefix: literal ? text : (fields[0]?.knownPrefix ?? ''),
    descriptor: false,
    pos: word.pos,
    end: word.end,
  };
}

/** A heredoc body: literal when its delimiter is quoted, expanded (no splitting) otherwise. */
export function expandHereDocBody(parts: readonly WordPart[] | undefined, text: string, quoted: boolean, expander: Expander): Output {
  if (quoted || parts === undefined) return { text, known: true };
  const builder = new FieldBuilder(0, 0);
  parts.forEach((part) => expandPart(part, true, builder, expander, false));
  builder.breakField();
  const field = builder.fields[0];
  return field === undefined ? EMPTY_OUTPUT : { text: field.text, known: field.literal };
}

/** A field made by the reader itself (xargs input, alias bodies): no position in the source. */
export function syntheticField(text: string, literal = true): Field {
  return { text, literal, knownPrefix: literal ? text : '', descriptor: false, pos: -1, end: -1 };
}
