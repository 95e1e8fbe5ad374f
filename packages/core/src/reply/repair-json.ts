import { PieceBuffer } from './piece-buffer.js';
import { MAX_DEPTH } from './scan.js';

type Container = { kind: 'object'; state: 'key' | 'colon' | 'value' | 'after' } | { kind: 'array'; state: 'value' | 'after' };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = /[A-Za-z_$][\w$]*/y;
const LITERALS: Readonly<Record<string, string>> = { true: 'true', false: 'false', null: 'null', True: 'true', False: 'false', None: 'null' };
const ESCAPED_CONTROL: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * Repairs the ordinary damage of a model's JSON in one pass: comments, trailing or missing commas,
 * single-quoted strings, unquoted keys, Python literals, raw control characters in strings,
 * several top-level values (read as one array), and a reply cut off mid-way (the open string is
 * closed, a dangling key gets `null`, open brackets are closed). Anything else outside a string
 * (prose, fences) is not guessed at: the result is undefined. Linear in the input, with the output
 * built from pieces joined once, so no input makes it slower than a read of the text.
 */
export function repairJson(text: string): string | undefined {
  const out = new PieceBuffer();
  const stack: Container[] = [];
  let topValues = 0;
  let pendingComma = false;
  let index = 0;

  /** Called before a value (or an object key) is written; false when none is allowed here. */
  const beginValue = (isKey: boolean): boolean => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (topValues > 0) out.push(',');
      topValues += 1;
      pendingComma = false;
      return !isKey;
    }
    if (top.state === 'after') {
      out.push(',');
      top.state = top.kind === 'object' ? 'key' : 'value';
    } else if (pendingComma) out.push(',');
    pendingComma = false;
    if (top.kind === 'array') {
      top.state = 'after';
      return true;
    }
    if (top.state === 'key') {
      top.state = 'colon';
      return true;
    }
    if (top.state === 'value' && !isKey) {
      top.state = 'after';
      return true;
    }
    return false;
  };
  const inKeyPosition = (): boolean => {
    const top = stack[stack.length - 1];
    return top?.kind === 'object' && (top.state === 'key' || top.state === 'after');
  };

  while (index < text.length) {
    const character = text[index] as string;
    if (character === ' ' || character === '\n' || character === '\r' || character === '\t') {
      index += 1;
    } else if (character === '/' && text[index + 1] === '/') {
      const end = text.indexOf('\n', index);
      index = end === -1 ? text.length : end;
    } else if (character === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 2;
    } else if (character === '"' || character === "'") {
      if (!beginValue(inKeyPosition())) return undefined;
      index = copyString(text, index, out);
    } else if (character === '{' || character === '[') {
      if (!beginValue(false) || stack.length >= MAX_DEPTH) return undefined;
      stack.push(character === '{' ? { kind: 'object', state: 'key' } : { kind: 'array', state: 'value' });
      out.push(character);
      index += 1;
    } else if (character === '}' || character === ']') {
      // A closer closes the nearest open container of its kind and those left open inside it
      // (`{"actions": [{…}}` lost its `]`); with none open it is dropped.
      const kind = character === '}' ? 'object' : 'array';
      if (stack.some((container) => container.kind === kind)) {
        for (let top = stack.pop(); top !== undefined; top = top.kind === kind ? undefined : stack.pop()) {
          closeDangling(top, out);
          out.push(top.kind === 'object' ? '}' : ']');
        }
      }
      pendingComma = false;
      index += 1;
    } else if (character === ',') {
      const top = stack[stack.length - 1];
      if (top?.state === 'after') {
        top.state = top.kind === 'object' ? 'key' : 'value';
        pendingComma = true;
      }
      index += 1;
    } else if (character === ':') {
      const top = stack[stack.length - 1];
      if (top?.kind !== 'object' || top.state !== 'colon') return undefined;
      top.state = 'value';
      out.push(':');
      index += 1;
    } else {
      NUMBER.lastIndex = index;
      const number = NUMBER.exec(text)?.[0];
      if (number !== undefined) {
        if (!beginValue(false)) return undefined;
        out.push(number);
        index += number.length;
        continue;
      }
      WORD.lastIndex = index;
      const word = WORD.exec(text)?.[0];
      if (word === undefined) return undefined;
      if (inKeyPosition()) {
        beginValue(true);
        out.push(JSON.stringify(word));
      } else {
        const literal = LITERALS[word];
        if (literal === undefined || !beginValue(false)) return undefined;
        out.push(literal);
      }
      index += word.length;
    }
  }
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    closeDangling(top, out);
    out.push(top.kind === 'object' ? '}' : ']');
  }
  if (topValues === 0) return undefined;
  const joined = out.join();
  return topValues > 1 ? `[${joined}]` : joined;
}

/** A key without its value (`{"a": 1, "b"` or `{"a":`) gets `null`, so the keys before it survive. */
function closeDangling(container: Container, out: PieceBuffer): void {
  if (container.kind !== 'object') return;
  if (container.state === 'colon') out.push(':null');
  else if (container.state === 'value') out.push('null');
}

/**
 * Copies the string starting at `open` as a JSON string and returns the index after it. A single
 * quoted string is requoted; raw control characters are escaped; a string the text ends inside
 * is closed (a reply cut off mid-string keeps what was there).
 */
function copyString(text: string, open: number, out: PieceBuffer): number {
  const quote = text[open];
  // Pieces go straight to the output, joined once at the end: no array and join per string.
  out.push('"');
  let runStart = open + 1;
  let index = open + 1;
  const flush = (): void => {
    if (index > runStart) out.push(text.slice(runStart, index));
  };
  while (index < text.length) {
    const character = text[index] as string;
    if (character === '\\') {
      flush();
      const next = text[index + 1];
      if (next === undefined) {
        index += 1;
        runStart = index;
        break;
      }
      out.push(next === "'" ? "'" : `\\${next}`);
      index += 2;
      runStart = index;
      continue;
    }
    if (character === quote) break;
    const control = ESCAPED_CONTROL[character];
    if (control !== undefined || character === '"') {
      flush();
      out.push(control ?? '\\"');
      index += 1;
      runStart = index;
      continue;
    }
    index += 1;
  }
  flush();
  out.push('"');
  return index + 1;
}
