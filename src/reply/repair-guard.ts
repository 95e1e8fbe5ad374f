/** Deeper than any reply nests (reply → actions → action); deeper text is not parsed whole nor repaired. */
export const MAX_DEPTH = 64;
const MAX_ANOMALIES = 32;
/** Beyond this size a reply is not repaired: jsonrepair runs at about a microsecond a character. */
export const MAX_REPAIR_CHARS = 2_000_000;

/**
 * Whether text is damaged in the ordinary way jsonrepair is for (a trailing comma, single quotes,
 * comments, a cut-off end) rather than adversarially. jsonrepair re-scans from each string it
 * cannot close, so runs of quotes or unclosed braces make it quadratic: 100 KB of `"` takes ten
 * seconds. This linear pre-check refuses text that nests deeper than any reply, or where strings
 * are followed by something other than a delimiter more than a few times.
 */
export function looksRepairable(text: string): boolean {
  if (text.length > MAX_REPAIR_CHARS) return false;
  let depth = 0;
  let anomalies = 0;
  let index = 0;
  while (index < text.length) {
    const character = text[index];
    if (character === '"' || character === "'") {
      let cursor = index + 1;
      while (cursor < text.length && text[cursor] !== character) cursor += text[cursor] === '\\' ? 2 : 1;
      if (cursor >= text.length) return true;
      cursor += 1;
      while (cursor < text.length && /\s/.test(text[cursor] ?? '')) cursor += 1;
      if (cursor < text.length && !':,}]'.includes(text[cursor] ?? '')) {
        anomalies += 1;
        if (anomalies > MAX_ANOMALIES) return false;
      }
      index = cursor;
      continue;
    }
    if (character === '{' || character === '[') {
      depth += 1;
      if (depth > MAX_DEPTH) return false;
    } else if ((character === '}' || character === ']') && depth > 0) depth -= 1;
    index += 1;
  }
  return true;
}
