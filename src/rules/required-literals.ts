/** Escapes that match one position or one class of characters: they end a literal run and are skipped. */
const CLASS_ESCAPES = new Set(['b', 'B', 's', 'S', 'd', 'D', 'w', 'W', 'A', 'z']);

/**
 * Literal pieces of text that every match of the pattern must contain, or none when that is not
 * plain from the source. It reads only the top level of the pattern (outside groups and classes) and
 * gives up (returns []) on anything it does not fully understand: an alternation at the top level, a
 * brace, inline flags, a hex, Unicode or back-reference escape. So a text that lacks one of the
 * pieces certainly does not match; a text that has them all still goes to the regex engine.
 * With the `i` flag the pieces are lower-case ASCII, to be looked for in lower-cased text.
 */
export function requiredLiterals(source: string, flags: string): string[] {
  // Lookaround and back-references do not compile on RE2: no pieces, so the pattern is compiled and refused.
  if (/\(\?<?[=!]|\\[1-9]|\\k</.test(source)) return [];
  const caseless = flags.includes('i');
  const literals: string[] = [];
  let run = '';
  const close = (): void => {
    if (run !== '') literals.push(run);
    run = '';
  };
  let index = 0;
  while (index < source.length) {
    const character = source[index] as string;
    // An alternation, a brace, a stray bracket: not plain enough (and the last two may not compile).
    if (character === '|' || character === '{' || character === '}' || character === ')' || character === ']') return [];
    if (character === '(') {
      if (source[index + 1] === '?' && /[a-zA-Z-]/.test(source[index + 2] ?? '') && source[index + 2] !== 'P') return []; // inline flags: (?i)
      const end = skipGroup(source, index);
      if (end === undefined) return [];
      close();
      index = end;
      continue;
    }
    if (character === '[') {
      const end = skipClass(source, index);
      if (end === undefined) return [];
      close();
      index = end;
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
      if (next === undefined) return [];
      if (/[A-Za-z0-9]/.test(next)) {
        if (!CLASS_ESCAPES.has(next)) return [];
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
  if (!caseless) return literals;
  // Case folding beyond ASCII (σ/ς, …) is RE2's business: only ASCII pieces are kept.
  return literals.filter((literal) => /^[\x20-\x7e]+$/.test(literal)).map((literal) => literal.toLowerCase());
}

/** The index just past the group that opens at `start` (and past a quantifier on it), or undefined. */
function skipGroup(source: string, start: number): number | undefined {
  let depth = 0;
  for (let index = start; index < source.length; index++) {
    const character = source[index];
    if (character === '\\') {
      index++;
    } else if (character === '[') {
      const end = skipClass(source, index);
      if (end === undefined) return undefined;
      index = end - 1;
    } else if (character === '(') {
      depth++;
    } else if (character === ')') {
      depth--;
      if (depth === 0) return skipQuantifier(source, index + 1);
    }
  }
  return undefined;
}

/** The index just past the class that opens at `start` (and past a quantifier on it), or undefined. */
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
    } else if (character === ']') return skipQuantifier(source, index + 1);
  }
  return undefined;
}

function skipQuantifier(source: string, index: number): number {
  let next = index;
  if (source[next] === '*' || source[next] === '+' || source[next] === '?') next++;
  else if (source[next] === '{') {
    const end = source.indexOf('}', next);
    if (end !== -1) next = end + 1;
  }
  if (source[next] === '?') next++;
  return next;
}
