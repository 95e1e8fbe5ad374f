/**
 * A rule file (AGENTS.md, CLAUDE.md, a Cursor rule, Copilot instructions) cut into the blocks a
 * person wrote: list items (each one rule, nested items and code included) and paragraphs, each
 * with the heading it sits under. Text is kept verbatim, only the list marker is taken off.
 */

export interface RuleBlock {
  readonly kind: 'item' | 'paragraph';
  readonly text: string;
  /** The nearest heading above the block, if any. */
  readonly heading: string | undefined;
  /** 1-based line of the block's first line in the file. */
  readonly line: number;
  /** 1-based line of the block's last line (its code blocks included). */
  readonly endLine: number;
}

export interface RuleFileBlocks {
  /** The first level-one heading, if the file has one. */
  readonly title: string | undefined;
  readonly blocks: readonly RuleBlock[];
  /** The Cursor rule's `globs:` from its front matter, if any. */
  readonly globs: string | undefined;
}

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])( +|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const RULE_LINE = /^ {0,3}([-*_])( *\1){2,}\s*$/;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Front matter (`---` … `---` at the top, as Cursor's .mdc files have) is not prose. */
function stripFrontMatter(lines: string[]): { body: string[]; offset: number; globs: string | undefined } {
  if (lines[0]?.trim() !== '---') return { body: lines, offset: 0, globs: undefined };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end === -1) return { body: lines, offset: 0, globs: undefined };
  const globsLine = lines.slice(1, end).find((line) => /^globs\s*:/.test(line));
  const globs = globsLine?.replace(/^globs\s*:\s*/, '').trim();
  return { body: lines.slice(end + 1), offset: end + 1, globs: globs === '' ? undefined : globs };
}

/** The lines of a fenced code block starting at `start`, up to and including its closing fence. */
function fenceEnd(lines: readonly string[], start: number): number {
  const open = FENCE.exec(lines[start] ?? '')?.[1] ?? '```';
  for (let index = start + 1; index < lines.length; index++) {
    const close = FENCE.exec(lines[index] ?? '')?.[1];
    if (close !== undefined && close[0] === open[0] && close.length >= open.length && (lines[index] ?? '').trim() === close) return index;
  }
  return lines.length - 1;
}

function dedent(line: string, width: number): string {
  const spaces = /^ */.exec(line)?.[0].length ?? 0;
  return line.slice(Math.min(spaces, width));
}

export function splitRuleFile(text: string): RuleFileBlocks {
  const { body: lines, offset, globs } = stripFrontMatter(text.replace(/\r\n?/g, '\n').split('\n'));
  const blocks: { kind: RuleBlock['kind']; lines: string[]; heading: string | undefined; line: number; endLine: number }[] = [];
  let title: string | undefined;
  let heading: string | undefined;
  let index = 0;
  const startsBlock = (line: string) => HEADING.test(line) || ITEM.test(line) || FENCE.test(line) || RULE_LINE.test(line);

  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (isBlank(line) || RULE_LINE.test(line)) {
      index++;
      continue;
    }
    const headingMatch = HEADING.exec(line);
    if (headingMatch !== null) {
      heading = headingMatch[2] ?? '';
      if (headingMatch[1] === '#' && title === undefined) title = heading;
      index++;
      continue;
    }
    if (FENCE.test(line)) {
      // A code block belongs to the block before it ("Run the tests with:" and the command).
      const end = fenceEnd(lines, index);
      const previous = blocks[blocks.length - 1];
      const code = lines.slice(index, end + 1);
      if (previous !== undefined) {
        previous.lines.push('', ...code);
        previous.endLine = end + 1 + offset;
      } else blocks.push({ kind: 'paragraph', lines: code, heading, line: index + 1 + offset, endLine: end + 1 + offset });
      index = end + 1;
      continue;
    }
    const item = ITEM.exec(line);
    if (item !== null) {
      const width = (item[1] ?? '').length + (item[2] ?? '').length + Math.max(1, (item[3] ?? ' ').length);
      const itemLines = [line.slice(width)];
      const start = index;
      index++;
      while (index < lines.length) {
        const next = lines[index] ?? '';
        if (isBlank(next)) {
          // A blank line ends the item unless what follows is indented into it.
          let ahead = index;
          while (ahead < lines.length && isBlank(lines[ahead] ?? '')) ahead++;
          const following = lines[ahead] ?? '';
          if (ahead < lines.length && /^ {2,}\S/.test(following) && !HEADING.test(following)) {
            itemLines.push(...lines.slice(index, ahead).map(() => ''));
            index = ahead;
            continue;
          }
          break;
        }
        const top = ITEM.exec(next);
        if (top !== null && (top[1] ?? '').length < width && (top[1] ?? '').length <= (item[1] ?? '').length) break;
        if (HEADING.test(next) || RULE_LINE.test(next)) break;
        if (FENCE.test(next) && !/^ {2,}/.test(next)) break;
        if (FENCE.test(next)) {
          const end = fenceEnd(lines, index);
          itemLines.push(...lines.slice(index, end + 1).map((code) => dedent(code, width)));
          index = end + 1;
          continue;
        }
        itemLines.push(dedent(next, width));
        index++;
      }
      let last = index - 1;
      while (last > start && isBlank(lines[last] ?? '')) last--;
      blocks.push({ kind: 'item', lines: itemLines, heading, line: start + 1 + offset, endLine: last + 1 + offset });
      continue;
    }
    const start = index;
    const paragraph: string[] = [];
    while (index < lines.length && !isBlank(lines[index] ?? '') && (index === start || !startsBlock(lines[index] ?? ''))) {
      paragraph.push(lines[index] ?? '');
      index++;
    }
    blocks.push({ kind: 'paragraph', lines: paragraph, heading, line: start + 1 + offset, endLine: index + offset });
  }
  return {
    title,
    globs,
    blocks: blocks
      .map((block) => ({
        kind: block.kind,
        text: block.lines.join('\n').replace(/\s+$/, ''),
        heading: block.heading,
        line: block.line,
        endLine: block.endLine,
      }))
      .filter((block) => block.text.trim() !== ''),
  };
}
