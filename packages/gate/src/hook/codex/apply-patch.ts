/**
 * The envelope Codex's `apply_patch` tool sends: `*** Begin Patch`, then per file an `*** Add File:`,
 * `*** Delete File:` or `*** Update File:` section (the last optionally `*** Move to:`), then
 * `*** End Patch`. Headers are read with surrounding whitespace trimmed, as Codex does.
 */
export type PatchOperation =
  | { readonly kind: 'add'; readonly path: string; readonly content: string }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'update'; readonly path: string; readonly moveTo: string | undefined; readonly hunks: PatchHunk[] };

export interface PatchHunk {
  readonly before: string[];
  readonly after: string[];
}

const ADD = '*** Add File:';
const DELETE = '*** Delete File:';
const UPDATE = '*** Update File:';
const MOVE = '*** Move to:';

function isHeader(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(ADD) || trimmed.startsWith(DELETE) || trimmed.startsWith(UPDATE) || trimmed === '*** End Patch';
}

/** Reads every file operation of a patch; text outside a file section is ignored. */
export function readApplyPatch(patch: string): PatchOperation[] {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
  const operations: PatchOperation[] = [];
  let index = 0;
  while (index < lines.length) {
    const trimmed = (lines[index] as string).trim();
    if (trimmed.startsWith(ADD)) {
      const path = trimmed.slice(ADD.length).trim();
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !isHeader(lines[index] as string)) {
        const line = lines[index] as string;
        if (line.startsWith('+')) body.push(line.slice(1));
        index += 1;
      }
      operations.push({ kind: 'add', path, content: body.length === 0 ? '' : `${body.join('\n')}\n` });
      continue;
    }
    if (trimmed.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: trimmed.slice(DELETE.length).trim() });
      index += 1;
      continue;
    }
    if (trimmed.startsWith(UPDATE)) {
      const path = trimmed.slice(UPDATE.length).trim();
      let moveTo: string | undefined;
      const hunks: PatchHunk[] = [];
      let hunk: { before: string[]; after: string[] } | undefined;
      index += 1;
      while (index < lines.length && !isHeader(lines[index] as string)) {
        const line = lines[index] as string;
        if (line.trim().startsWith(MOVE)) moveTo = line.trim().slice(MOVE.length).trim();
        else if (line.startsWith('@@')) {
          if (hunk !== undefined) hunks.push(hunk);
          hunk = { before: [], after: [] };
        } else if (line.trim() === '*** End of File') {
          // a marker, not content
        } else if (line.startsWith('+') || line.startsWith('-') || line.startsWith(' ')) {
          hunk ??= { before: [], after: [] };
          const text = line.slice(1);
          if (line.startsWith('+')) hunk.after.push(text);
          else if (line.startsWith('-')) hunk.before.push(text);
          else {
            hunk.before.push(text);
            hunk.after.push(text);
          }
        }
        index += 1;
      }
      if (hunk !== undefined) hunks.push(hunk);
      operations.push({ kind: 'update', path, moveTo, hunks });
      continue;
    }
    index += 1;
  }
  return operations;
}

function findBlock(haystack: string[], needle: string[], from: number): number {
  if (needle.length === 0) return from;
  for (let start = from; start + needle.length <= haystack.length; start += 1) {
    let matches = true;
    for (let offset = 0; offset < needle.length; offset += 1) {
      if (haystack[start + offset] !== needle[offset]) {
        matches = false;
        break;
      }
    }
    if (matches) return start;
  }
  return -1;
}

/**
 * The content an update leaves behind. When a hunk does not fit the file on disk (the patch will fail
 * anyway, or the file changed), the added lines alone are returned, so content rules still see every
 * line the patch brings in.
 */
export function applyHunks(original: string | undefined, hunks: readonly PatchHunk[]): string {
  const addedOnly = (): string => {
    const added = hunks.flatMap((hunk) => hunk.after);
    return added.length === 0 ? '' : `${added.join('\n')}\n`;
  };
  if (original === undefined) return addedOnly();
  const endsWithNewline = original.endsWith('\n');
  const lines = (endsWithNewline ? original.slice(0, -1) : original).split('\n');
  let cursor = 0;
  for (const hunk of hunks) {
    const at = findBlock(lines, hunk.before, cursor);
    if (at < 0) return addedOnly();
    lines.splice(at, hunk.before.length, ...hunk.after);
    cursor = at + hunk.after.length;
  }
  return lines.join('\n') + (endsWithNewline ? '\n' : '');
}
