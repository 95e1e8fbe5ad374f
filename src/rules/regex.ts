export type CompiledPattern = { ok: true; regex: RegExp } | { ok: false; reason: string };

export function compilePattern(source: string, flags: string): CompiledPattern {
  try {
    return { ok: true, regex: new RegExp(source, flags) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // V8 says "Invalid regular expression: /(/g: Unterminated group"; keep only the cause.
    const cause = /:\s*([^:]+)$/.exec(message)?.[1] ?? message;
    return { ok: false, reason: cause.trim() };
  }
}

/**
 * The patterns of one rule field. The rulebook parser refuses a pattern that does not compile, so
 * `broken` is only ever set for a rulebook built without it; the check then fails closed.
 */
export function compilePatterns(sources: readonly string[], flags: string): { patterns: RegExp[]; broken: string | undefined } {
  const patterns: RegExp[] = [];
  let broken: string | undefined;
  for (const source of sources) {
    const compiled = compilePattern(source, flags);
    if (compiled.ok) patterns.push(compiled.regex);
    else broken ??= compiled.reason;
  }
  return { patterns, broken };
}

/**
 * A repeated group that itself contains a repetition (`(a+)+`, `(\w*,?)*`) can take exponential
 * time on a crafted input. Patterns run over model-written content, so the rulebook refuses them.
 * This is a conservative syntactic test: it also refuses some nestings that happen to be safe.
 */
export function nestedQuantifier(source: string): string | undefined {
  const groups: { start: number; repeats: boolean }[] = [];
  let inClass = false;
  let lastGroup: { start: number; repeats: boolean } | undefined;
  for (let index = 0; index < source.length; index++) {
    const character = source[index];
    if (character === '\\') {
      index++;
      lastGroup = undefined;
      continue;
    }
    if (inClass) {
      if (character === ']') inClass = false;
      continue;
    }
    const repeats = isRepetition(source, index);
    if (repeats !== undefined) {
      if (lastGroup?.repeats === true && repeats) return source.slice(lastGroup.start, index + 1);
      const enclosing = groups[groups.length - 1];
      if (repeats && enclosing !== undefined) enclosing.repeats = true;
      lastGroup = undefined;
      continue;
    }
    if (character === '[') {
      inClass = true;
      lastGroup = undefined;
    } else if (character === '(') {
      groups.push({ start: index, repeats: false });
      lastGroup = undefined;
    } else if (character === ')') {
      const closed = groups.pop();
      lastGroup = closed;
      const enclosing = groups[groups.length - 1];
      if (closed?.repeats === true && enclosing !== undefined) enclosing.repeats = true;
    } else {
      lastGroup = undefined;
    }
  }
  return undefined;
}

/** True for `*`, `+`, `{n,}`, `{n,m}` with m > 1; false for `?` and `{0,1}`; undefined when not a quantifier. */
function isRepetition(source: string, index: number): boolean | undefined {
  const character = source[index];
  if (character === '*' || character === '+') return true;
  if (character === '?') return source[index - 1] === '(' ? undefined : false;
  if (character !== '{') return undefined;
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index, index + 24));
  if (braces === null) return undefined;
  if (braces[2] === undefined) return Number(braces[1]) > 1;
  return braces[3] === '' || Number(braces[3]) > 1;
}
