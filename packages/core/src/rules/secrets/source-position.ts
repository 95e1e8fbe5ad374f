export interface SourcePosition {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units like every editor column. */
  column: number;
}

/** Maps offsets to line and column; the line starts are computed once per content. */
export function createPositionLookup(content: string): (offset: number) => SourcePosition {
  const lineStarts = [0];
  for (let index = content.indexOf('\n'); index !== -1; index = content.indexOf('\n', index + 1)) {
    lineStarts.push(index + 1);
  }
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 };
  };
}
