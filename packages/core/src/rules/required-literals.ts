/** Escapes that match one position or one class of characters: they end a literal run and are skipped. */
const CLASS_ESCAPES = new Set(['b', 'B', 's', 'S', 'd', 'D', 'w', 'W', 'A', 'z']);

/**
 * What every match of a pattern must contain: a piece of literal text, or one of several
 * alternatives (each a list of needs, all required).
 */
export type Need = string | { readonly anyOf: readonly (readonly Need[])[] };

/**
 * The needs of a pattern, or none when that is not plain from the source. It understands literal
 * runs, escaped punctuation, character classes (skipped), groups (their alternatives, unless the
 * group is optional) and `|`; it gives up (returns []) on anything else: a brace, inline flags, a
 * hex, Unicode or back-reference escape. So a text that lacks a need certainly does not match; a
 * text that meets them all still goes to the regex engine. With the `i` flag the pieces are
 * lower-case ASCII, to be looked for in lower-cased text.
 */
export function requiredNeeds(source: string, flags: string): Need[] {
  // Lookaround and back-references do not compile on RE2: no needs, so the pattern is compiled and refused.
  if (/\(\?<?[=!]|\\[1-9]|\\k</.test(source)) return [];
  const needs = alternatives(source);
  if (needs === undefined) return [];
  return flags.includes('i') ? caseless(needs) : needs;
}

/** The literal pieces every match needs outside any alternation (kept for callers that want only those). */
export function requiredLiterals(source: string, flags: string): string[] {
  return requiredNeeds(source, flags).filter((need): need is string => typeof need === 'string');
}

/** True unless the text certainly lacks something every match needs. */
export function meetsNeeds(text: string, needs: readonly Need[]): boolean {
  return needs.every((need) => (typeof need === 'string' ? text.includes(need) : need.anyOf.some((alternative) => meetsNeeds(text, alternative))));
}

// Case folding beyond ASCII (σ/ς, …) is RE2's business: only ASCII pieces are kept, lower-cased.
function caseless(needs: readonly Need[]): Need[] {
  const kept: Need[] = [];
  for (const need of needs) {
    if (typeof need === 'string') {
      if (/^[\x20-\x7e]+$/.test(need)) kept.push(need.toLowerCase());
    } else {
      const options = need.anyOf.map(caseless);
      // An alternative left with no needs can match anything: the whole choice then needs nothing.
      if (options.every((option) => option.length > 0)) kept.push({ anyOf: options });
    }
  }
  return kept;
}

/** The needs of a source that may hold `|` at its top level; undefined when it cannot be read. */
function alternatives(source: string): Need[] | undefined {
  const parts = splitTopLevel(source);
  if (parts === undefined) return undefined;
  if (parts.length === 1) return sequence(parts[0] as string);
  const options: Need[][] = [];
  for (const part of parts) {
    const needs = sequence(part);
    if (needs === undefined) return undefined;
    if (needs.length === 0) return [];
    options.push(needs);
  }
  return [{ anyOf: options }];
}

/** The source cut at `|` outside groups, classes and escapes. */
function splitTopLevel(source: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < source.length; index++) {
    const character = source[index];
    if (character === '\\') index++;
    else if (character === '[') {
      const end = skipClass(source, index);
      if (end === undefined) return undefined;
      index = end - 1;
    } else if (character === '(') depth++;
    else if (character === ')') {
      depth--;
      if (depth < 0) return undefined;
    } else if (character === '|' && depth === 0) {
      parts.push(source.slice(start, index));
      start = index + 1;
    }
  }
  if (depth !== 0) return undefined;
  parts.push(source.slice(start));
  return parts;
}

/** The needs of a source with no top-level `|`. */
function sequence(source: string): Need[] | undefined {
  const needs: Need[] = [];
  let run = '';
  const close = (): void => {
    if (run !== '') needs.push(run);
    run = '';
  };
  let index = 0;
  while (index < source.length) {
    const character = source[index] as string;
    // A brace or a stray bracket: not plain enough (and the latter may not compile).
    if (character === '{' || character === '}' || character === ')' || character === ']' || character === '|') return undefined;
    if (character === '(') {
      const group = readGroup(source, index);
      if (group === undefined) return undefined;
      close();
      if (!group.optional) {
        const inner = alternatives(group.body);
        if (inner === undefined) return undefined;
        needs.push(...inner);
      }
      index = group.end;
      continue;
    }
    if (character === '[') {
      const end = skipClass(source, index);
      if (end === undefined) return undefined;
      close();
      index = skipQuantifier(source, end).end;
      continue;
    }
    if (character === '*' || character === '?' || character === '+') {
      // The previous character was repeated: `*` and `?` make it optional, `+` keeps one of it.
      if (character !== '+') run = Array.from(run).slice(0, -1).join('');
      close();
      index++;
      continue;
    }
    if (character === '^' || character === '$' || character === '.') {
      close();
      index++;
      continue;
    }
    if (character === '\\') {
      const next = source[index + 1];
      if (next === undefined) return undefined;
      if (/[A-Za-z0-9]/.test(next)) {
        if (!CLASS_ESCAPES.has(next)) return undefined;
        close();
      } else {
        run += next;
      }
      index += 2;
      continue;
    }
    run += character;
    index++;
  }
  close();
  return needs;
}

/** The group opening at `start`: its body (without `?:` or a name), where it ends, and whether it may be skipped. */
function readGroup(source: string, start: number): { body: string; end: number; optional: boolean } | undefined {
  let depth = 0;
  for (let index = start; index < source.length; index++) {
    const character = source[index];
    if (character === '\\') index++;
    else if (character === '[') {
      const end = skipClass(source, index);
      if (end === undefined) return undefined;
      index = end - 1;
    } else if (character === '(') depth++;
    else if (character === ')') {
      depth--;
      if (depth !== 0) continue;
      let body = source.slice(start + 1, index);
      if (body.startsWith('?:')) body = body.slice(2);
      else if (/^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.test(body)) body = body.slice(body.indexOf('>') + 1);
      else if (body.startsWith('?')) return undefined; // inline flags and anything else unusual
      const quantifier = skipQuantifier(source, index + 1);
      return { body, end: quantifier.end, optional: quantifier.optional };
    }
  }
  return undefined;
}

/** The index just past the class that opens at `start`, or undefined. */
function skipClass(source: string, start: number): number | undefined {
  let index = start + 1;
  if (source[index] === '^') index++;
  if (source[index] === ']') index++;
  for (; index < source.length; index++) {
    const character = source[index];
    if (character === '\\') index++;
    else if (character === '[' && source[index + 1] === ':') {
      const end = source.indexOf(':]', index + 2);
      if (end === -1) return undefined;
      index = end + 1;
    } else if (character === ']') return index + 1;
  }
  return undefined;
}

/** Past a quantifier at `index`, if any; optional when it allows zero repetitions. */
function skipQuantifier(source: string, index: number): { end: number; optional: boolean } {
  let end = index;
  let optional = false;
  const character = source[end];
  if (character === '*' || character === '?') {
    optional = true;
    end++;
  } else if (character === '+') end++;
  else if (character === '{') {
    const close = source.indexOf('}', end);
    // `{0,…}` or anything unreadable counts as optional: the group's needs are then dropped.
    optional = close === -1 || !/^\{[1-9]\d*(,\d*)?\}$/.test(source.slice(end, close + 1));
    if (close !== -1) end = close + 1;
  }
  if (source[end] === '?') end++;
  return { end, optional };
}
