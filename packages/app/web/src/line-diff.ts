export interface DiffLine {
  readonly kind: 'same' | 'added' | 'removed';
  readonly text: string;
}

/** Above this many line pairs the table would cost too much; the diff then shows old and new whole. */
const MAX_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A line diff of the repo state (`before`, null when the file is new) against what the model wrote.
 * Longest common subsequence after trimming the shared head and tail, which is most of a real edit.
 */
export function lineDiff(before: string | null, after: string): DiffLine[] {
  const old = splitLines(before ?? '');
  const next = splitLines(after);
  let head = 0;
  while (head < old.length && head < next.length && old[head] === next[head]) head += 1;
  let tail = 0;
  while (tail < old.length - head && tail < next.length - head && old[old.length - 1 - tail] === next[next.length - 1 - tail]) tail += 1;

  const oldMiddle = old.slice(head, old.length - tail);
  const nextMiddle = next.slice(head, next.length - tail);
  const result: DiffLine[] = old.slice(0, head).map((text) => ({ kind: 'same', text }));

  if (oldMiddle.length * nextMiddle.length > MAX_CELLS) {
    for (const text of oldMiddle) result.push({ kind: 'removed', text });
    for (const text of nextMiddle) result.push({ kind: 'added', text });
  } else {
    const rows = oldMiddle.length;
    const columns = nextMiddle.length;
    // lengths[i * (columns + 1) + j]: LCS length of oldMiddle[i..] and nextMiddle[j..].
    const lengths = new Uint32Array((rows + 1) * (columns + 1));
    for (let i = rows - 1; i >= 0; i--) {
      for (let j = columns - 1; j >= 0; j--) {
        lengths[i * (columns + 1) + j] =
          oldMiddle[i] === nextMiddle[j]
            ? (lengths[(i + 1) * (columns + 1) + j + 1] ?? 0) + 1
            : Math.max(lengths[(i + 1) * (columns + 1) + j] ?? 0, lengths[i * (columns + 1) + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < rows && j < columns) {
      if (oldMiddle[i] === nextMiddle[j]) {
        result.push({ kind: 'same', text: oldMiddle[i] ?? '' });
        i += 1;
        j += 1;
      } else if ((lengths[(i + 1) * (columns + 1) + j] ?? 0) >= (lengths[i * (columns + 1) + j + 1] ?? 0)) {
        result.push({ kind: 'removed', text: oldMiddle[i] ?? '' });
        i += 1;
      } else {
        result.push({ kind: 'added', text: nextMiddle[j] ?? '' });
        j += 1;
      }
    }
    for (; i < rows; i++) result.push({ kind: 'removed', text: oldMiddle[i] ?? '' });
    for (; j < columns; j++) result.push({ kind: 'added', text: nextMiddle[j] ?? '' });
  }
  for (const text of old.slice(old.length - tail)) result.push({ kind: 'same', text });
  return result;
}
