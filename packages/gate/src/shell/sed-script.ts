/**
 * Whether a sed script may write a file or run a command: a `w`/`W` command (`wfile`, `1w file`,
 * `/re/w file`), an `e` command, or an `s` command with the `w` or `e` flag. GNU sed needs no space
 * before the file name, so a regex over the text misses spellings; the script is walked command by
 * command instead, and anything it cannot follow counts as a possible write (judged after the call).
 */
export function sedScriptMayWrite(script: string): boolean {
  let at = 0;
  const length = script.length;
  const skipBlanks = (): void => {
    while (at < length && /[ \t]/.test(script[at] as string)) at += 1;
  };
  /** Skips a delimited part (`/re/`, `s/a/b/`'s parts); false when it does not end. */
  const delimited = (delimiter: string): boolean => {
    while (at < length && script[at] !== delimiter) {
      if (script[at] === '\\') at += 1;
      else if (script[at] === '\n' && delimiter !== '\n') return false;
      at += 1;
    }
    if (at >= length) return false;
    at += 1;
    return true;
  };
  const address = (): boolean => {
    skipBlanks();
    const char = script[at];
    if (char === undefined) return true;
    if (/[0-9$]/.test(char)) {
      while (at < length && /[0-9$~+]/.test(script[at] as string)) at += 1;
      return true;
    }
    if (char === '/') {
      at += 1;
      if (!delimited('/')) return false;
    } else if (char === '\\') {
      const delimiter = script[at + 1];
      if (delimiter === undefined) return false;
      at += 2;
      if (!delimited(delimiter)) return false;
    } else return true;
    while (at < length && /[IM]/.test(script[at] as string)) at += 1;
    return true;
  };
  const toEndOfCommand = (): void => {
    while (at < length && script[at] !== '\n' && script[at] !== ';' && script[at] !== '}') at += 1;
  };
  while (at < length) {
    skipBlanks();
    const separator = script[at];
    if (separator === ';' || separator === '\n' || separator === '}' || separator === '{') {
      at += 1;
      continue;
    }
    if (separator === '#') {
      while (at < length && script[at] !== '\n') at += 1;
      continue;
    }
    if (!address()) return true;
    skipBlanks();
    if (script[at] === ',') {
      at += 1;
      if (!address()) return true;
      skipBlanks();
    }
    while (script[at] === '!' || script[at] === ' ') at += 1;
    const command = script[at];
    if (command === undefined) return false;
    at += 1;
    switch (command) {
      case 'w':
      case 'W':
      case 'e':
        return true;
      case '{':
      case '}':
        continue;
      case 's': {
        const delimiter = script[at];
        if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return true;
        at += 1;
        if (!delimited(delimiter) || !delimited(delimiter)) return true;
        const flagsStart = at;
        toEndOfCommand();
        if (/[we]/.test(script.slice(flagsStart, at))) return true;
        continue;
      }
      case 'y': {
        const delimiter = script[at];
        if (delimiter === undefined) return true;
        at += 1;
        if (!delimited(delimiter) || !delimited(delimiter)) return true;
        continue;
      }
      case 'a':
      case 'i':
      case 'c':
        // Text to the end of the line (GNU one-liner form, or `a\` then the next line).
        if (script[at] === '\\' && script[at + 1] === '\n') at += 2;
        while (at < length && script[at] !== '\n') at += script[at] === '\\' ? 2 : 1;
        continue;
      case 'r':
      case 'R':
      case 'b':
      case 't':
      case 'T':
      case ':':
      case 'l':
      case 'L':
      case 'q':
      case 'Q':
        toEndOfCommand();
        continue;
      default:
        if (/[=dDgGhHnNpPxzF]/.test(command)) continue;
        return true;
    }
  }
  return false;
}
