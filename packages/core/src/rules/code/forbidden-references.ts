import type { SgNode } from '@ast-grep/napi';
import { decodeEscapes } from './js-escapes.js';

/**
 * Finds, on a JavaScript or TypeScript syntax tree, every static spelling of a reference to a
 * forbidden global (`fetch`, `console.log`) and every import of a forbidden module. A reference is
 * followed through optional chaining, computed access with a constant key, the global object
 * (`globalThis`, `window`, `self`, `global`), parentheses and type assertions, destructuring and
 * simple aliases (`const c = console`). A name the file binds itself (an import, a parameter, a
 * local function) is not the global inside that binding's scope. A name computed at run time
 * (`console[name]`) is out of reach of any static check; docs/code-checks.md lists those limits.
 */
export interface ForbiddenReferences {
  /** Dotted paths from the global scope: `fetch`, `console.log`. */
  readonly names: readonly string[];
  /** Module specifiers; `node:http` and `http` are the same module, `axios` covers `axios/lib/x`. */
  readonly modules: readonly string[];
}

export interface Finding {
  /** 1-based line. */
  readonly line: number;
  readonly column: number;
  /** The code as written, shortened: `console?.log`, `import … from "axios"`. */
  readonly spelling: string;
  /** The forbidden name or module it reaches. */
  readonly forbidden: string;
}

const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);
const TRANSPARENT = new Set(['parenthesized_expression', 'non_null_expression', 'as_expression', 'satisfies_expression', 'type_assertion']);
const SCOPES = new Set([
  'program',
  'statement_block',
  'for_statement',
  'for_in_statement',
  'switch_body',
  'class_static_block',
  'catch_clause',
  'arrow_function',
  'function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'generator_function_declaration',
  'method_definition',
]);
const PATTERN_KINDS = new Set(['object_pattern', 'array_pattern', 'pair_pattern', 'rest_pattern', 'assignment_pattern', 'object_assignment_pattern']);
const MAX_ALIAS_PASSES = 4;

export interface CompiledForbidden {
  readonly names: readonly (readonly string[])[];
  readonly modules: readonly string[];
  /** False when the text cannot hold any spelling this check finds, so the file need not be parsed. */
  readonly mayMention: (content: string) => boolean;
  /** The same, for the names and the modules apart: a tree is only searched for what its text may hold. */
  readonly mayMentionNames: (content: string) => boolean;
  readonly mayMentionModules: (content: string) => boolean;
}

export function compileForbidden(forbid: ForbiddenReferences): CompiledForbidden {
  const names = forbid.names.map((name) => {
    const segments = name.split('.');
    while (segments.length > 1 && GLOBAL_OBJECTS.has(segments[0] as string)) segments.shift();
    return segments;
  });
  const modules = forbid.modules.map(withoutNodePrefix);
  const roots = [...new Set(names.map((segments) => segments[0] as string))];
  // Tried only just after a quote (found by indexOf): the same answer as the unanchored `['"\`](?:node:)?(?:…)['"\`/]`
  // without running a regex over every character of every file.
  const moduleText = modules.length === 0 ? undefined : new RegExp(`(?:node:)?(?:${modules.map(escapeRegex).join('|')})['"\`/]`, 'y');
  // A static spelling holds its root name literally, or spells it with escapes (`\u0063onsole`, `'\x61xios'`): then one of
  // the text's escape readings holds it. Most code holds a backslash (a regular expression, a `\n`) and neither, and is not parsed.
  const mentionsName = (text: string) => roots.some((root) => text.includes(root));
  const mayMentionNames = (content: string) => names.length > 0 && (mentionsName(content) || escapeReadings(content).some(mentionsName));
  const mayMentionModules = (content: string) =>
    moduleText !== undefined && (quotedAt(content, moduleText) || escapeReadings(content).some((text) => quotedAt(text, moduleText)));
  return { names, modules, mayMention: (content) => mayMentionNames(content) || mayMentionModules(content), mayMentionNames, mayMentionModules };
}

/**
 * The content with its escapes read, for a file that holds a backslash: as the parser reads a valid file (decodeEscapes
 * left to right, `\\` one backslash), and with each run of backslashes read as one escape, so a token that a recovered
 * tree starts inside such a run (`\\u0063onsole` in code that does not parse) is read too. Empty without a backslash.
 */
function escapeReadings(content: string): string[] {
  if (!content.includes('\\')) return [];
  return [decodeEscapes(content), decodeEscapes(content.replace(/\\+/g, '\\'))];
}

const QUOTES = ['"', "'", '`'] as const;

/** Whether the sticky `pattern` matches just after some quote of the content. */
function quotedAt(content: string, pattern: RegExp): boolean {
  for (const quote of QUOTES) {
    for (let at = content.indexOf(quote); at !== -1; at = content.indexOf(quote, at + 1)) {
      pattern.lastIndex = at + 1;
      if (pattern.test(content)) return true;
    }
  }
  return false;
}

/** The first forbidden reference or import in the tree, in source order. */
export function findForbidden(root: SgNode, forbidden: CompiledForbidden, typescript: boolean, content: string): Finding | undefined {
  const findings = [
    ...(forbidden.mayMentionModules(content) ? findModules(root, forbidden.modules, typescript) : []),
    ...(forbidden.mayMentionNames(content) ? findNames(root, forbidden.names, content.includes('\\')) : []),
  ];
  findings.sort((left, right) => left.line - right.line || left.column - right.column);
  return findings[0];
}

function findModules(root: SgNode, modules: readonly string[], typescript: boolean): Finding[] {
  if (modules.length === 0) return [];
  const findings: Finding[] = [];
  const candidates = root.findAll({
    rule: {
      any: [
        { kind: 'import_statement' },
        { kind: 'export_statement', has: { field: 'source', kind: 'string' } },
        // `import x = require('y')` is TypeScript only; JavaScript's grammar has no such kind.
        ...(typescript ? [{ kind: 'import_require_clause' }] : []),
        { kind: 'call_expression', has: { field: 'function', any: [{ kind: 'import' }, { kind: 'identifier', regex: '^require$' }] } },
      ],
    },
  });
  for (const node of candidates) {
    // `import q = require('x')` is an import_statement holding an import_require_clause: read the clause once.
    if (kindOf(node) === 'import_statement' && node.field('source') === null) continue;
    const source = kindOf(node) === 'call_expression' ? node.field('arguments')?.child(1) : node.field('source');
    const specifier = source === null || source === undefined ? undefined : staticString(source);
    if (specifier === undefined) continue;
    const module = withoutNodePrefix(specifier);
    const match = modules.find((forbidden) => module === forbidden || module.startsWith(`${forbidden}/`));
    if (match !== undefined) findings.push(finding(node, shorten(node.text()), match));
  }
  return findings;
}

interface Alias {
  readonly path: readonly string[];
  readonly scope: SgNode;
}

function findNames(root: SgNode, names: readonly (readonly string[])[], escapes: boolean): Finding[] {
  if (names.length === 0) return [];
  const findings: Finding[] = [];
  const aliases = new Map<string, Alias[]>();
  const isPrefix = (path: readonly string[]) => names.some((name) => path.length <= name.length && path.every((segment, index) => name[index] === segment));
  const isForbidden = (path: readonly string[]) => names.some((name) => name.length === path.length && path.every((segment, index) => name[index] === segment));
  const found = new Set<number>();
  const report = (node: SgNode, spelling: string, path: readonly string[]) => {
    if (found.has(node.id())) return;
    found.add(node.id());
    findings.push(finding(node, shorten(spelling), path.join('.')));
  };

  /** Binds the names a declaration's left side introduces, reporting the ones that take a forbidden member. */
  const bind = (pattern: SgNode | null, path: readonly string[], scope: SgNode, declaration: SgNode): void => {
    if (pattern === null) return;
    if (kindOf(pattern) === 'identifier') {
      if (isPrefix(path)) addAlias(aliases, decodeEscapes(pattern.text()), { path, scope });
      return;
    }
    if (kindOf(pattern) !== 'object_pattern') return;
    for (const property of pattern.namedChildren()) {
      let key: string | undefined;
      let target: SgNode | null = null;
      if (kindOf(property) === 'shorthand_property_identifier_pattern') {
        key = decodeEscapes(property.text());
        target = property;
      } else if (kindOf(property) === 'object_assignment_pattern') {
        target = property.field('left');
        key = target === null ? undefined : decodeEscapes(target.text());
      } else if (kindOf(property) === 'pair_pattern') {
        const keyNode = property.field('key');
        key = keyNode === null ? undefined : kindOf(keyNode) === 'property_identifier' ? decodeEscapes(keyNode.text()) : staticString(keyNode);
        target = property.field('value');
      }
      if (key === undefined) continue;
      const next = step(path, key);
      if (isForbidden(next)) report(property, declaration.text(), next);
      else if (isPrefix(next) && target !== null) {
        if (kindOf(target) === 'shorthand_property_identifier_pattern') addAlias(aliases, key, { path: next, scope });
        else bind(kindOf(target) === 'assignment_pattern' ? target.field('left') : target, next, scope, declaration);
      }
    }
  };

  const climb = (start: SgNode, initial: readonly string[]): void => {
    let current = start;
    let path = initial;
    for (let depth = 0; depth < 64; depth++) {
      if (isForbidden(path)) {
        report(current, current.text(), path);
        return;
      }
      if (!isPrefix(path)) return;
      const parent = current.parent();
      if (parent === null) return;
      const kind = kindOf(parent);
      if (kind === 'member_expression' || kind === 'subscript_expression') {
        if (parent.field('object')?.id() !== current.id()) return;
        const key = kind === 'member_expression' ? memberKey(parent.field('property')) : subscriptKey(parent.field('index'));
        if (key === undefined) return;
        path = step(path, key);
      } else if (kind === 'sequence_expression') {
        if (parent.namedChildren().at(-1)?.id() !== current.id()) return;
      } else if (kind === 'variable_declarator') {
        if (parent.field('value')?.id() !== current.id()) return;
        bind(parent.field('name'), path, nearestScope(parent) ?? root, parent);
        return;
      } else if (kind === 'assignment_expression') {
        if (parent.field('right')?.id() !== current.id()) return;
        bind(parent.field('left'), path, root, parent);
        return;
      } else if (!TRANSPARENT.has(kind)) return;
      current = parent;
    }
  };

  const roots = new Set([...names.map((name) => name[0] as string), ...GLOBAL_OBJECTS]);
  const visited = new Set<number>();
  let wanted: ReadonlySet<string> = roots;
  // An alias found in one pass (`const c = console`) is looked up in the next, up to a few levels deep.
  for (let pass = 0; pass < MAX_ALIAS_PASSES; pass++) {
    const occurrences = identifiers(root, wanted, escapes);
    const bindings = new Map<string, SgNode[]>();
    const declaring = new Set<number>();
    for (const node of occurrences) {
      const scope = bindingScope(node);
      if (scope === undefined) continue;
      declaring.add(node.id());
      const name = decodeEscapes(node.text());
      bindings.set(name, [...(bindings.get(name) ?? []), scope]);
    }
    for (const node of occurrences) {
      if (visited.has(node.id()) || declaring.has(node.id()) || !isReference(node)) continue;
      visited.add(node.id());
      const name = decodeEscapes(node.text());
      const alias = aliases.get(name)?.find((candidate) => contains(candidate.scope, node));
      if (alias !== undefined) climb(node, alias.path);
      else if (roots.has(name) && !(bindings.get(name) ?? []).some((scope) => contains(scope, node))) climb(node, GLOBAL_OBJECTS.has(name) ? [] : [name]);
    }
    const added = [...aliases.keys()].filter((name) => !wanted.has(name));
    if (added.length === 0) break;
    wanted = new Set([...wanted, ...added]);
  }
  return findings;
}

/**
 * The identifiers spelling one of `names`. ast-grep compiles a rule's regex on every search, and the
 * escape alternative costs more to compile than the rest of the search: it is asked for only when the
 * file holds a backslash, since without one no identifier is spelled with an escape.
 */
function identifiers(root: SgNode, names: ReadonlySet<string>, escapes: boolean): SgNode[] {
  const alternatives = [...names].map(escapeRegex).join('|');
  return root
    .findAll({
      rule: {
        any: [{ kind: 'identifier' }, { kind: 'shorthand_property_identifier' }, { kind: 'shorthand_property_identifier_pattern' }],
        // An identifier spelled with an escape (`\u0063onsole`) is decoded before it is compared.
        regex: escapes ? `^(?:${alternatives})$|\\\\` : `^(?:${alternatives})$`,
      },
    })
    .filter((node) => names.has(decodeEscapes(node.text())));
}

/** Where a declaring occurrence's binding is visible, or undefined when the occurrence declares nothing. */
function bindingScope(node: SgNode): SgNode | undefined {
  const parent = node.parent();
  if (parent === null) return undefined;
  const kind = kindOf(parent);
  if (kindOf(node) === 'shorthand_property_identifier_pattern' || PATTERN_KINDS.has(kind)) return patternScope(node);
  switch (kind) {
    case 'variable_declarator':
      return parent.field('name')?.id() === node.id() ? nearestScope(parent) : undefined;
    case 'required_parameter':
    case 'optional_parameter':
    case 'formal_parameters':
      return nearestScope(parent);
    case 'arrow_function':
      return parent.field('parameter')?.id() === node.id() ? parent : undefined;
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'class_declaration':
    case 'abstract_class_declaration':
      return parent.field('name')?.id() === node.id() ? (nearestScope(parent) ?? undefined) : undefined;
    case 'function_expression':
    case 'function':
    case 'generator_function':
    case 'class':
      return parent.field('name')?.id() === node.id() ? parent : undefined;
    case 'import_clause':
    case 'namespace_import':
    case 'import_require_clause':
      return programOf(node);
    case 'import_specifier': {
      const alias = parent.field('alias');
      return alias === null || alias.id() === node.id() ? programOf(node) : undefined;
    }
    case 'catch_clause':
      return parent.field('parameter')?.id() === node.id() ? parent : undefined;
    default:
      return undefined;
  }
}

/** A name inside a destructuring pattern binds only if the pattern belongs to a declaration or a parameter list. */
function patternScope(node: SgNode): SgNode | undefined {
  let current = node;
  for (let depth = 0; depth < 64; depth++) {
    const parent = current.parent();
    if (parent === null) return undefined;
    const kind = kindOf(parent);
    if (PATTERN_KINDS.has(kind)) {
      // A default value (`{ a = fetch }`) and a computed key are expressions, not bindings.
      if ((kind === 'object_assignment_pattern' || kind === 'assignment_pattern') && parent.field('right')?.id() === current.id()) return undefined;
      if (kind === 'pair_pattern' && parent.field('value')?.id() !== current.id()) return undefined;
      current = parent;
      continue;
    }
    if (kind === 'variable_declarator') return parent.field('name')?.id() === current.id() ? nearestScope(parent) : undefined;
    if (kind === 'required_parameter' || kind === 'optional_parameter' || kind === 'formal_parameters') return nearestScope(parent);
    if (kind === 'catch_clause') return parent;
    if (kind === 'for_in_statement') return parent;
    return undefined;
  }
  return undefined;
}

function isReference(node: SgNode): boolean {
  if (kindOf(node) === 'shorthand_property_identifier_pattern') return false;
  const parent = node.parent();
  if (parent === null) return false;
  const kind = kindOf(parent);
  if (kind === 'import_specifier' || kind === 'labeled_statement') return false;
  // `typeof console.log` in a type is a type, not a use.
  let outer: SgNode | null = parent;
  while (outer !== null && (kindOf(outer) === 'member_expression' || kindOf(outer) === 'subscript_expression' || kindOf(outer) === 'nested_identifier'))
    outer = outer.parent();
  if (outer !== null && kindOf(outer) === 'type_query') return false;
  if (kind === 'export_specifier') return parent.field('name')?.id() === node.id();
  return true;
}

function nearestScope(node: SgNode): SgNode | undefined {
  for (let current = node.parent(); current !== null; current = current.parent()) if (SCOPES.has(kindOf(current))) return current;
  return undefined;
}

function programOf(node: SgNode): SgNode {
  let current = node;
  for (let parent = current.parent(); parent !== null; parent = current.parent()) current = parent;
  return current;
}

function contains(scope: SgNode, node: SgNode): boolean {
  const outer = scope.range();
  const inner = node.range();
  return outer.start.index <= inner.start.index && inner.end.index <= outer.end.index;
}

function addAlias(aliases: Map<string, Alias[]>, name: string, alias: Alias): void {
  const list = aliases.get(name);
  if (list === undefined) aliases.set(name, [alias]);
  else list.push(alias);
}

function step(path: readonly string[], key: string): readonly string[] {
  return path.length === 0 && GLOBAL_OBJECTS.has(key) ? path : [...path, key];
}

function memberKey(property: SgNode | null): string | undefined {
  return property !== null && kindOf(property) === 'property_identifier' ? decodeEscapes(property.text()) : undefined;
}

function subscriptKey(index: SgNode | null): string | undefined {
  if (index === null) return undefined;
  if (kindOf(index) === 'number') return String(Number(index.text()));
  return staticString(index);
}

/** The value of a string or a template without substitutions; undefined for anything computed. */
function staticString(node: SgNode): string | undefined {
  const kind = kindOf(node);
  if (kind === 'parenthesized_expression') {
    const inner = node.namedChildren()[0];
    return inner === undefined ? undefined : staticString(inner);
  }
  if (kind !== 'string' && kind !== 'template_string') return undefined;
  if (kind === 'template_string' && node.namedChildren().some((child) => kindOf(child) === 'template_substitution')) return undefined;
  const text = node.text();
  return decodeEscapes(text.slice(1, -1));
}

function kindOf(node: SgNode): string {
  return String(node.kind());
}

function finding(node: SgNode, spelling: string, forbidden: string): Finding {
  const start = node.range().start;
  return { line: start.line + 1, column: start.column, spelling, forbidden };
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
}

function withoutNodePrefix(specifier: string): string {
  return specifier.startsWith('node:') ? specifier.slice('node:'.length) : specifier;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
