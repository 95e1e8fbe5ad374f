import type { SgNode, SgRoot } from '@ast-grep/napi';
import type { SecretScanOptions } from './secret-finding.js';
import { loadAstGrep } from '../code/code-language.js';
import { countParsedText } from '../code/parsed-text.js';

/*
 * Constant folding of string expressions in TypeScript and JavaScript, so R1 reads a key the way the
 * program will hold it: `'AK' + 'IA…'`, `['AKIA', '…'].join('')`, `` `${'AKIA'}…` ``, `'\x41KIA…'`,
 * and names bound once by `const` in the same file. Parsed by tree-sitter through ast-grep; only what
 * is constant is folded, so a value computed at run time (an argument, an environment variable, a
 * call) is never guessed at. Other languages are read as text only.
 */

/** How an expression put its string together, for the finding's wording. */
export type FoldForm = 'concatenation' | 'join' | 'template' | 'escapes' | 'char-codes';

/** One string expression whose value is known before the program runs. */
export interface FoldedString {
  /** The expression's span in the content (UTF-16 offsets). */
  readonly start: number;
  readonly end: number;
  readonly value: string;
  readonly form: FoldForm;
}

type Language = 'TypeScript' | 'Tsx' | 'JavaScript';
const LANGUAGES: Readonly<Record<string, Language>> = {
  ts: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  tsx: 'Tsx',
  js: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  jsx: 'JavaScript',
};

/** Parsing costs about a quarter of a millisecond per kilobyte: larger files are read as text only. */
const MAX_FOLDED_FILE = 256 * 1024;
/** A folded value longer than this is no credential (a PEM key with subkeys stays below it). */
const MAX_VALUE = 32 * 1024;
const MAX_DEPTH = 32;
/**
 * Nodes looked at per file, however the expressions nest or chain: each is a few calls into the
 * parser, so hostile input costs a bounded amount of work (a key split into more parts is not folded).
 */
const MAX_STEPS = 5_000;
const MAX_FOLDS = 2_048;
/** Shorter than any credential a detector reports: not worth a second scan. */
const MIN_VALUE = 8;

/**
 * What may stand between two tokens: any white space or line end (Unicode's too) and comments. The
 * pre-check reads past all of it, so no padding or comment hides a fold from it.
 */
const GAP = String.raw`(?:[\s\uFEFF]|\/\*[\s\S]*?\*\/|\/\/[^\n\r\u2028\u2029]*)*`;
/** A name as JavaScript spells one, Unicode letters included (escapes in names are seen by hasTextEscape). */
const NAME = String.raw`[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*`;
/**
 * A declarator's name: after `const`, then `=` or a type annotation; or after a comma (a later
 * declarator of a `const` list), then `=`, or a type annotation and `=` on the same statement. It is a
 * superset (a default parameter or an assignment after a comma also counts), never less than every
 * name a `const` binds with a value.
 */
const DECLARED = new RegExp(String.raw`\bconst\b${GAP}(${NAME})${GAP}[:=]|,${GAP}(${NAME})${GAP}(?:=|:[^;]{0,200}?(?<![=!<>])=)(?![=>])`, 'gu');
/** `.join` / `.concat` as a member (white space and comments may stand around the dot). */
const JOIN_OR_CONCAT = new RegExp(String.raw`\.${GAP}(?:join|concat)(?![\p{ID_Continue}$])`, 'u');
/** What a `${` or a `+` operand may open with that folding reads: a quote, a number, a parenthesis, an array. */
const LITERAL_START = /^(?:['"`([]|\.?\d)/;
const OPERAND_AFTER = new RegExp(String.raw`^${GAP}(?:[(+\-!~]${GAP})*(${NAME}|['"\x60(\[]|\.?\d)`, 'u');
const NAME_END = /[\p{ID_Continue}$\u200C\u200D]+$/u;
const NAME_START = /^[\p{ID_Start}$_]/u;
const LINE_END = /[\n\r\u2028\u2029]/;

/** The names the file's declarators may bind with a value (a superset: see DECLARED). */
function declaredNames(content: string): ReadonlySet<string> {
  let names: Set<string> | undefined;
  DECLARED.lastIndex = 0;
  for (let match = DECLARED.exec(content); match !== null; match = DECLARED.exec(content)) (names ??= new Set()).add((match[1] ?? match[2]) as string);
  return names ?? NO_NAMES;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** How far the pre-check looks past a `+` or a `${` for an operand: longer padding than this is read as a match (parsed). */
const LOOK = 512;

/**
 * The operand before `at` (exclusive), read backwards past white space, `)` and `!`: a quote, a name
 * or a digit; 'parse' when a comment stands between (read backwards, a comment cannot be told from
 * code without lexing the file) or the padding is longer than LOOK; undefined when it is none of these.
 */
function operandBefore(content: string, at: number): string | undefined {
  let position = at - 1;
  for (; position >= 0; position--) {
    if (at - position > LOOK) return 'parse';
    const char = content[position] as string;
    if (LINE_END.test(char)) {
      // The line before may end in a `//` comment, whose text is no operand.
      let start = position - 1;
      while (start >= 0 && !LINE_END.test(content[start] as string)) start--;
      if (content.slice(start + 1, position).includes('//')) return 'parse';
      continue;
    }
    if (/\s|\uFEFF/.test(char) || char === ')' || char === '!') continue;
    if (char === '/' && content[position - 1] === '*') return 'parse';
    break;
  }
  if (position < 0) return undefined;
  const char = content[position] as string;
  if (QUOTES.includes(char) || /\d/.test(char)) return char;
  const name = NAME_END.exec(content.slice(Math.max(0, position - 255), position + 1))?.[0];
  return name !== undefined && NAME_START.test(name) ? name : undefined;
}

const QUOTES = ['"', "'", '`'];

/**
 * A `+` with, on either side (white space, comments, parentheses and `!` between), a string, a
 * template or a name a declarator binds. The `+` of `++` and `+=` counts too: it is cheaper to parse
 * than to prove either side unfoldable.
 */
function hasFoldablePlus(content: string, names: () => ReadonlySet<string>): boolean {
  for (let plus = content.indexOf('+'); plus !== -1; plus = content.indexOf('+', plus + 1)) {
    const left = operandBefore(content, plus);
    if (left === 'parse') return true;
    const after = content.slice(plus + 1, plus + 1 + LOOK);
    const right = OPERAND_AFTER.exec(after)?.[1];
    // Padding longer than the window hides the operand: parse rather than guess.
    if (right === undefined && after.length === LOOK) return true;
    for (const operand of [left, right]) {
      // A number beside a `+` adds to a string only when a string or a name stands beside another `+` of the chain.
      if (operand === undefined || /^\.?\d/.test(operand)) continue;
      if (QUOTES.includes(operand) || names().has(operand)) return true;
    }
  }
  return false;
}

/** A `${` whose expression opens (after white space and comments) with a literal, a parenthesis, an array, or a declared name. */
function hasFoldableSubstitution(content: string, names: () => ReadonlySet<string>): boolean {
  for (let at = content.indexOf('${'); at !== -1; at = content.indexOf('${', at + 2)) {
    const after = content.slice(at + 2, at + 2 + LOOK);
    const operand = OPERAND_AFTER.exec(after)?.[1];
    if (operand === undefined) {
      if (after.length === LOOK) return true;
      continue;
    }
    if (LITERAL_START.test(operand) || names().has(operand)) return true;
  }
  return false;
}

function hasTextEscape(content: string): boolean {
  for (let at = content.indexOf('\\'); at !== -1; at = content.indexOf('\\', at + 1)) {
    const next = content.charCodeAt(at + 1);
    if (next === 120 /* x */ || next === 117 /* u */) return true;
    at++;
  }
  return false;
}

/** The first named child that is no comment: a substitution or a parenthesis with a comment before its expression holds the comment as a child. */
function firstExpression(node: SgNode): SgNode | undefined {
  return node.namedChildren().find((child) => child.kind() !== 'comment');
}

function foldLanguageOf(filePath: string): Language | undefined {
  const dot = filePath.lastIndexOf('.');
  return dot === -1 ? undefined : LANGUAGES[filePath.slice(dot + 1).toLowerCase()];
}

/**
 * Whether folding could find anything in this content, read without parsing it: `.join`/`.concat`,
 * an `\x`/`\u` escape, a `+` or a `${` beside a literal, a parenthesis or a name a declarator binds
 * (white space, line ends and comments between read past). It never says no to content folding would
 * fold (held against a forced parse in fold-strings.test.ts); files without any (most) are never parsed.
 */
export function mayFold(content: string, filePath: string): boolean {
  if (foldLanguageOf(filePath) === undefined || content.length > MAX_FOLDED_FILE) return false;
  if (JOIN_OR_CONCAT.test(content) || hasTextEscape(content)) return true;
  let names: ReadonlySet<string> | undefined;
  const declared = () => (names ??= declaredNames(content));
  return hasFoldableSubstitution(content, declared) || hasFoldablePlus(content, declared);
}

/** Folding without the pre-check: what mayFold is held against. */
export function foldParsed(content: string, filePath: string): FoldedString[] {
  const language = foldLanguageOf(filePath);
  if (language === undefined || content.length > MAX_FOLDED_FILE) return [];
  const root: SgRoot = loadAstGrep().parse(language, content);
  return new Folder(root.root()).fold();
}

/**
 * Every outermost string expression of the file whose value is constant and differs from its text:
 * what a scanner of the text alone cannot see. In a `+` chain with unknown operands, each run of two
 * or more known ones is folded (its text is part of the result whatever the unknowns are).
 */
export function foldConstantStrings(content: string, filePath: string, parsed?: SecretScanOptions['parsed']): FoldedString[] {
  const language = foldLanguageOf(filePath);
  if (language === undefined || !mayFold(content, filePath)) return [];
  const shared = parsed?.(TREE_LANGUAGES[language], content);
  if (shared !== undefined) return new Folder(shared.root()).fold();
  const root: SgRoot = loadAstGrep().parse(language, content);
  countParsedText(content.length);
  return new Folder(root.root()).fold();
}

/** The name the code checks give the language, under which a check call keeps its syntax trees. */
const TREE_LANGUAGES: Readonly<Record<Language, 'typescript' | 'tsx' | 'javascript'>> = { TypeScript: 'typescript', Tsx: 'tsx', JavaScript: 'javascript' };

interface Operand {
  readonly node: SgNode;
  readonly value: string | undefined;
  readonly string: boolean;
}

class Folder {
  private steps = 0;
  private readonly constants = new Map<string, SgNode | 'shadowed'>();
  private declared: Map<string, SgNode | 'bound again'> | undefined;
  private tagged: Set<number> | undefined;
  private readonly resolving = new Set<string>();

  constructor(private readonly root: SgNode) {}

  fold(): FoldedString[] {
    const found: FoldedString[] = [];
    // Spans already folded, by rising start: an expression inside one is part of its value.
    const covered: { start: number; end: number }[] = [];
    let next = 0;
    const candidates = this.root.findAll({
      rule: {
        any: [
          { kind: 'binary_expression', has: { field: 'operator', regex: '^\\+$' } },
          {
            kind: 'call_expression',
            has: { field: 'function', kind: 'member_expression', has: { field: 'property', regex: '^(?:join|concat)$' } },
          },
          { kind: 'template_string', has: { kind: 'template_substitution' } },
          { kind: 'string', has: { kind: 'escape_sequence', regex: '^\\\\[xu]' } },
        ],
      },
    });
    // Found in tree order: an expression comes before the ones inside it.
    for (const node of candidates) {
      if (++this.steps > MAX_STEPS || found.length >= MAX_FOLDS) break;
      const { start } = span(node);
      while (next < covered.length && (covered[next] as { end: number }).end <= start) next++;
      if (next < covered.length && (covered[next] as { start: number }).start <= start) continue;
      for (const each of this.foldCandidate(node)) {
        covered.push(each);
        if (each.value.length >= MIN_VALUE) found.push(each);
      }
    }
    return found;
  }

  private foldCandidate(node: SgNode): FoldedString[] {
    const kind = node.kind();
    if (kind === 'binary_expression') return this.foldChain(node);
    if (kind === 'call_expression') {
      const value = this.evaluateCall(node, 0);
      return value === undefined ? [] : [{ ...span(node), value, form: callForm(node) }];
    }
    const value = this.evaluate(node, 0);
    return value === undefined ? [] : [{ ...span(node), value, form: kind === 'template_string' ? 'template' : 'escapes' }];
  }

  private foldChain(node: SgNode): FoldedString[] {
    if (!isPlus(node)) return [];
    const operands = this.operandsOf(node, 0);
    if (operands === undefined) return [];
    const folds: FoldedString[] = [];
    // Before the first string, `+` may add numbers: a run starts at a string.
    let run: Operand[] = [];
    const flush = () => {
      if (run.length >= 2) {
        const first = run[0] as Operand;
        const last = run[run.length - 1] as Operand;
        const value = run.map((operand) => operand.value).join('');
        if (value.length <= MAX_VALUE) folds.push({ start: span(first.node).start, end: span(last.node).end, value, form: 'concatenation' });
      }
      run = [];
    };
    for (const operand of operands) {
      if (operand.value === undefined) flush();
      else if (run.length > 0 || operand.string) run.push(operand);
    }
    flush();
    return folds;
  }

  /** The operands of a `+` chain, left to right, walked without recursion however long the chain is. */
  private operandsOf(node: SgNode, depth: number): Operand[] | undefined {
    const rights: SgNode[] = [];
    let left = node;
    while (isPlus(left)) {
      if (++this.steps > MAX_STEPS) return undefined;
      const children = left.children();
      const right = children[children.length - 1];
      const next = children[0];
      if (right === undefined || next === undefined) return undefined;
      rights.push(right);
      left = next;
    }
    rights.push(left);
    rights.reverse();
    return rights.map((operand) => {
      const value = this.evaluate(operand, depth + 1);
      return { node: operand, value, string: value !== undefined && isStringTyped(operand) };
    });
  }

  private evaluate(node: SgNode, depth: number): string | undefined {
    if (depth > MAX_DEPTH || ++this.steps > MAX_STEPS) return undefined;
    switch (node.kind()) {
      case 'string':
        return node.isLeaf() ? undefined : stringValue(node);
      case 'template_string':
        return this.templateValue(node, depth);
      case 'number': {
        const number = Number(node.text().replace(/_/g, ''));
        return Number.isFinite(number) ? String(number) : undefined;
      }
      case 'parenthesized_expression':
      case 'as_expression':
      case 'satisfies_expression':
      case 'non_null_expression': {
        const inner = firstExpression(node);
        return inner === undefined ? undefined : this.evaluate(inner, depth + 1);
      }
      case 'binary_expression': {
        if (!isPlus(node)) return undefined;
        const operands = this.operandsOf(node, depth);
        if (operands === undefined || !operands.some((operand) => operand.string)) return undefined;
        const firstString = operands.findIndex((operand) => operand.string);
        // `1 + 2 + 'a'` is `3a`: numbers before the first string are not folded.
        if (firstString > 1) return undefined;
        return bounded(operands.map((operand) => operand.value));
      }
      case 'call_expression':
        return this.evaluateCall(node, depth);
      case 'identifier':
        return this.resolve(node, depth);
      default:
        return undefined;
    }
  }

  private templateValue(node: SgNode, depth: number): string | undefined {
    // A tagged template (String.raw`…`) is its tag's business.
    if (this.isTagged(node)) return undefined;
    const parts: (string | undefined)[] = [];
    for (const child of node.children()) {
      const kind = child.kind();
      if (kind === 'string_fragment') parts.push(child.text());
      else if (kind === 'escape_sequence') parts.push(unescape(child.text()));
      else if (kind === 'template_substitution') {
        const inner = firstExpression(child);
        parts.push(inner === undefined ? undefined : this.evaluate(inner, depth + 1));
      }
    }
    return bounded(parts);
  }

  /** `[…].join(sep)`, `name.join(sep)` of a const array, `'a'.concat('b', …)`. */
  private evaluateCall(node: SgNode, depth: number): string | undefined {
    const callee = node.field('function');
    if (callee?.kind() !== 'member_expression') return undefined;
    const method = callee.field('property')?.text();
    const object = callee.field('object');
    const args = node.field('arguments');
    if (object === null || args === null || args.kind() !== 'arguments') return undefined;
    const argValues = args.namedChildren().map((argument) => this.evaluate(argument, depth + 1));
    if (argValues.some((value) => value === undefined)) return undefined;
    if (method === 'join') {
      const elements = this.arrayValues(object, depth + 1);
      if (elements === undefined || argValues.length > 1) return undefined;
      const separator = argValues[0] ?? ',';
      const joined = elements.join(separator);
      return joined.length <= MAX_VALUE ? joined : undefined;
    }
    if (method === 'concat') {
      const base = this.evaluate(object, depth + 1);
      return base === undefined || !isStringTyped(object) ? undefined : bounded([base, ...argValues]);
    }
    return undefined;
  }

  private arrayValues(node: SgNode, depth: number): string[] | undefined {
    if (depth > MAX_DEPTH || ++this.steps > MAX_STEPS) return undefined;
    let array: SgNode | undefined = node;
    if (node.kind() === 'identifier') array = this.constantNode(node.text());
    if (array?.kind() !== 'array') return undefined;
    const values: string[] = [];
    for (const element of array.namedChildren()) {
      if (element.kind() === 'comment') continue;
      const value = this.evaluate(element, depth + 1);
      if (value === undefined) return undefined;
      values.push(value);
    }
    // A hole (`[a, , b]`) leaves a comma without an element: the values would not line up.
    return array.children().filter((child) => child.kind() === ',').length >= values.length ? undefined : values;
  }

  /** Looked up from one search of the file rather than by climbing to a parent, which the parser does from the root. */
  private isTagged(node: SgNode): boolean {
    // `has` looks one level down; an `inside` search climbs from every template, which nesting makes quadratic.
    this.tagged ??= new Set(
      this.root
        .findAll({ rule: { kind: 'call_expression', has: { field: 'arguments', kind: 'template_string' } } })
        .map((call) => call.field('arguments'))
        .filter((template): template is SgNode => template !== null)
        .map((template) => span(template).start),
    );
    return this.tagged.has(span(node).start);
  }

  private resolve(node: SgNode, depth: number): string | undefined {
    const name = node.text();
    if (this.resolving.has(name)) return undefined;
    const value = this.constantNode(name);
    if (value === undefined) return undefined;
    this.resolving.add(name);
    try {
      return this.evaluate(value, depth + 1);
    } finally {
      this.resolving.delete(name);
    }
  }

  /**
   * The initialiser of `name` when the file binds that name exactly once, with `const`, and never as a
   * parameter, a destructured name, a loop variable or a catch binding: then every use reads that value.
   */
  private constantNode(name: string): SgNode | undefined {
    this.declared ??= this.collectDeclarations();
    const declarator = this.declared.get(name);
    // Most names a chain holds are no declarator of the file, or one bound twice: those need no more.
    if (declarator === undefined || declarator === 'bound again') return undefined;
    let known = this.constants.get(name);
    if (known === undefined) {
      const value = constValue(declarator);
      known = value === undefined || this.boundElsewhere(name) ? 'shadowed' : value;
      this.constants.set(name, known);
    }
    return known === 'shadowed' ? undefined : known;
  }

  /**
   * The declarator of each name a declarator of the file binds once ('bound again' for the others), from one search.
   * Whether the one declarator is a `const` is asked only of the few names a fold resolves (constValue): climbing to
   * its parent costs a search from the root, which asking it of every declarator of a test file made the larger part
   * of folding.
   */
  private collectDeclarations(): Map<string, SgNode | 'bound again'> {
    const declarators = new Map<string, SgNode | 'bound again'>();
    for (const declarator of this.root.findAll({ rule: { kind: 'variable_declarator', has: { field: 'name', kind: 'identifier' } } })) {
      const text = (declarator.field('name') as SgNode).text();
      declarators.set(text, declarators.has(text) ? 'bound again' : declarator);
    }
    return declarators;
  }

  /**
   * Whether `name` is also bound as a parameter, inside a destructuring pattern or a catch clause (any identifier
   * spelled so within one of those), as a `for…in`/`for…of` variable or an arrow function's lone parameter: one search
   * for the one name, climbing in the parser.
   */
  private boundElsewhere(name: string): boolean {
    const spelled = `^${escapeRegex(name)}$`;
    return (
      this.root.find({
        rule: {
          any: [
            {
              any: [{ kind: 'identifier' }, { kind: 'shorthand_property_identifier_pattern' }],
              regex: spelled,
              inside: { any: [...BINDING_SITES].map((kind) => ({ kind })), stopBy: 'end' },
            },
            { kind: 'identifier', regex: spelled, inside: { kind: 'for_in_statement', field: 'left' } },
            { kind: 'identifier', regex: spelled, inside: { kind: 'arrow_function', field: 'parameter' } },
          ],
        },
      }) !== null
    );
  }
}

/** Where any identifier binds a name (collectConstants once searched each of these whole). */
const BINDING_SITES: ReadonlySet<string> = new Set(['formal_parameters', 'object_pattern', 'array_pattern', 'catch_clause']);

/**
 * The start of a `const` declaration, as ast-grep's `regex: '^const\\b'` read the declarator's parent: Rust's `\b`
 * is Unicode-aware, so `const` must not be followed by a character of its `\w` (`constá` is an identifier).
 */
const CONST_START = /^const(?![\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}])/u;

/** The initialiser of a declarator whose parent is a `const` declaration; undefined for a `let`, a `var` or none. */
function constValue(declarator: SgNode): SgNode | undefined {
  const parent = declarator.parent();
  if (parent === null || !CONST_START.test(parent.text())) return undefined;
  return declarator.field('value') ?? undefined;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function span(node: SgNode): { start: number; end: number } {
  const range = node.range();
  return { start: range.start.index, end: range.end.index };
}

function isPlus(node: SgNode): boolean {
  return node.kind() === 'binary_expression' && node.field('operator')?.text() === '+';
}

/** A literal, template or fold known to be a string (a number operand is not). */
function isStringTyped(node: SgNode): boolean {
  const kind = node.kind();
  if (kind === 'number') return false;
  if (kind === 'parenthesized_expression' || kind === 'as_expression' || kind === 'satisfies_expression' || kind === 'non_null_expression') {
    const inner = node.namedChildren()[0];
    return inner !== undefined && isStringTyped(inner);
  }
  return true;
}

function callForm(node: SgNode): FoldForm {
  return node.field('function')?.field('property')?.text() === 'join' ? 'join' : 'concatenation';
}

function bounded(parts: readonly (string | undefined)[]): string | undefined {
  let length = 0;
  for (const part of parts) {
    if (part === undefined) return undefined;
    length += part.length;
    if (length > MAX_VALUE) return undefined;
  }
  return parts.join('');
}

function stringValue(node: SgNode): string | undefined {
  let value = '';
  for (const child of node.children()) {
    const kind = child.kind();
    if (kind === 'string_fragment') value += child.text();
    else if (kind === 'escape_sequence') value += unescape(child.text());
    else if (kind === 'html_character_reference') return undefined;
  }
  return value;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

/** One JavaScript escape sequence as the string holds it. */
function unescape(sequence: string): string {
  const body = sequence.slice(1);
  const first = body[0] ?? '';
  if (first === 'x') return String.fromCharCode(parseInt(body.slice(1, 3), 16));
  if (first === 'u') {
    const hex = body.startsWith('u{') ? body.slice(2, -1) : body.slice(1, 5);
    const code = parseInt(hex, 16);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  }
  if (first === '\r' || first === '\n' || first === '\u2028' || first === '\u2029') return '';
  return SIMPLE_ESCAPES[first] ?? first;
}
