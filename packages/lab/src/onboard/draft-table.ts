/** The parts of a drafted rule the table shows. */
export interface TableRule {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly why: string;
  readonly span: { readonly file: string; readonly lines: readonly [number, number] };
}

function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}

/**
 * The table every draft ends with: per rule, where it was written, what enforces it (a check kind,
 * or prose-only) and why. A team reads it to see at once what the gate will hold and what it will not.
 */
export function draftTable(rules: readonly TableRule[]): string {
  const enforced = rules.filter((rule) => rule.kind !== 'prose').length;
  const rows = rules.map((rule) => {
    const [first, last] = rule.span.lines;
    const where = `${rule.span.file}:${first === last ? first : `${first}-${last}`}`;
    const by = rule.kind === 'prose' ? 'prose-only' : `${rule.kind} check`;
    return `| ${rule.id} ${rule.name} | ${where} | ${by} | ${cell(rule.why)} |`;
  });
  return [
    `${rules.length} rules: 0 block, ${enforced} warn (a drafted check warns until promoted: holdfast rulebook try, then holdfast rulebook promote ID), ${rules.length - enforced} prose only (shown to the agent, never checked).`,
    '',
    '| rule | written at | enforced by | why |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
