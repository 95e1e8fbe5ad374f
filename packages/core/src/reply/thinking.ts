export interface SplitThinking {
  /** The text after the reasoning block: where the answer is. */
  readonly answer: string;
  /** The reasoning block's text, trimmed; undefined when there was none. */
  readonly thinking?: string;
  /** The reply ended inside the reasoning block: there is no answer. */
  readonly unclosed: boolean;
  /** Only a closing tag was found, so the cut is a guess the caller may want to double-check. */
  readonly orphan: boolean;
}

const OPEN = /^\s*<(think|thinking)>/i;

/**
 * Small reasoning models (DeepSeek-R1, Qwen3, QwQ) put a `<think>…</think>` block before the
 * answer; some servers strip the opening tag and leave only `…</think>`. Braces in that block are
 * drafts, not the answer, so it is cut off before any JSON is looked for. Only a leading block is
 * cut: a tag later in the text may be part of an answer (a file that documents think tags).
 */
export function splitThinking(text: string): SplitThinking {
  const open = OPEN.exec(text);
  if (open !== null) {
    const tag = (open[1] ?? 'think').toLowerCase();
    const bodyStart = open[0].length;
    const close = indexOfCaseless(text, `</${tag}>`, bodyStart);
    if (close === -1) return { answer: '', thinking: text.slice(bodyStart).trim(), unclosed: true, orphan: false };
    return {
      answer: text.slice(close + tag.length + 3),
      thinking: text.slice(bodyStart, close).trim(),
      unclosed: false,
      orphan: false,
    };
  }
  // A closing tag on its own line: inside a JSON string it would sit between escaped `\n`s instead.
  const orphanClose = /(?:^|\n)[ \t]*<\/(think|thinking)>/i.exec(text);
  if (orphanClose !== null && !/<(think|thinking)>/i.test(text.slice(0, orphanClose.index))) {
    return {
      answer: text.slice(orphanClose.index + orphanClose[0].length),
      thinking: text.slice(0, orphanClose.index).trim(),
      unclosed: false,
      orphan: true,
    };
  }
  return { answer: text, unclosed: false, orphan: false };
}

function indexOfCaseless(text: string, needle: string, from: number): number {
  const pattern = new RegExp(needle.replace(/[/]/g, '\\/'), 'gi');
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match === null ? -1 : match.index;
}
