export interface FencedBlock {
  /** The info string after the opening backticks (`json`, `JSON`, or empty). */
  readonly language: string;
  readonly content: string;
  /** False when the reply ended before the closing fence (a truncated reply). */
  readonly closed: boolean;
}

const INFO = /^[A-Za-z0-9_+.-]*/y;

/**
 * Markdown code fences (```json … ``` or bare ```), paired in order of appearance. Models often
 * put the fence mid-line (`Here it is: ```json {…}```), so a fence is any run of three or more
 * backticks, not only one at the start of a line. One pass over the text.
 */
export function findFencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let position = text.indexOf('```');
  while (position !== -1) {
    let cursor = skipBackticks(text, position);
    INFO.lastIndex = cursor;
    const language = INFO.exec(text)?.[0] ?? '';
    cursor += language.length;
    const lineEnd = text.indexOf('\n', cursor);
    const restOfLine = text.slice(cursor, lineEnd === -1 ? text.length : lineEnd);
    if (lineEnd !== -1 && restOfLine.trim() === '') cursor = lineEnd + 1;
    const close = text.indexOf('```', cursor);
    if (close === -1) {
      blocks.push({ language, content: text.slice(cursor), closed: false });
      break;
    }
    blocks.push({ language, content: text.slice(cursor, close), closed: true });
    const next = text.indexOf('```', skipBackticks(text, close));
    position = next;
  }
  return blocks;
}

function skipBackticks(text: string, position: number): number {
  let cursor = position;
  while (text.charCodeAt(cursor) === 96) cursor += 1;
  return cursor;
}

/**
 * Whether the span starting at `start` sits right after an opening fence (only whitespace and a
 * language tag in between). Labels an object found by bracket matching as fenced when the fence
 * pairing itself was thrown off, e.g. by backticks inside a written file's content.
 */
export function followsFence(text: string, start: number): boolean {
  let cursor = start - 1;
  const limit = Math.max(0, start - 64);
  while (cursor >= limit && /\s/.test(text[cursor] ?? '')) cursor -= 1;
  const tagEnd = cursor;
  while (cursor >= 0 && /[A-Za-z0-9_+.-]/.test(text[cursor] ?? '') && tagEnd - cursor < 32) cursor -= 1;
  return cursor >= 2 && text.slice(cursor - 2, cursor + 1) === '```';
}
