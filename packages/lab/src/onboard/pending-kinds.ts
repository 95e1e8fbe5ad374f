/**
 * Check kinds a rule can need that drafting does not propose yet. Each has its own drafting work
 * (issue #28 items 3-4): until it lands, a rule that needs one stays prose and says which kind.
 */
export type PendingKind = 'paths-deny' | 'command' | 'requires' | 'dependency' | 'custom';

/** A rule that needs a kind drafting cannot propose yet: prose only, naming the kind and why. */
export interface PendingProposal {
  readonly kind: 'prose';
  readonly needs: PendingKind;
  readonly why: string;
}

const PROHIBITION = /\b(never|don'?t|do not|must not|mustn'?t|should not|shouldn'?t|avoid)\b/;
const EDIT = /\b(edit|modif\w*|chang\w*|touch\w*|writ\w*|delet\w*|bump\w*|creat\w*)\b/;
const RUN = /\b(run|use|pass|call|bypass|invoke|execute)\b/;
const COMMAND_SPAN = /^(npm|pnpm|yarn|bun|npx|node|make|cargo|go|git|gh|pytest|vitest|jest|deno|uv|uvx|just|tsc)\b|^--?[a-z]/;
const DEPENDENCY = /\b(new|add\w*|install\w*)\s+(\w+\s+){0,2}dependenc(y|ies)\b/;
const REQUIRES = /\b(every|each|all)\b[^.]*\b(must|needs?|should)\b[^.]*\b(include|have|carry|a changeset|header)\b|\binclude that \w+ in the same change\b/;

function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => (match[1] ?? '').trim());
}

function looksLikePath(span: string): boolean {
  return /\//.test(span) || /\.(json|md|ya?ml|lock|toml|ts|tsx|js|jsx|rs|py)$/.test(span);
}

/**
 * The hook where drafting of the pending kinds plugs in: given a rule's prose (a negative heading
 * already folded in as "Never …"), the kind it needs, or undefined when it needs none of them.
 * Today every answer is "prose-only: needs kind X"; the drafting of each kind replaces its branch
 * with a proposal of the real check (taking the repository's facts, as `proposeCheck` does).
 */
export function proposePendingKind(text: string, lower: string): PendingProposal | undefined {
  const spans = codeSpans(text);
  const prohibits = PROHIBITION.exec(lower);
  if (prohibits !== null && EDIT.test(lower.slice(prohibits.index)) && spans.some(looksLikePath)) {
    return {
      kind: 'prose',
      needs: 'paths-deny',
      why: `prose-only: needs kind paths-deny (it forbids changing ${spans
        .filter(looksLikePath)
        .map((span) => `\`${span}\``)
        .join(', ')})`,
    };
  }
  if (DEPENDENCY.test(lower)) {
    return { kind: 'prose', needs: 'dependency', why: 'prose-only: needs kind dependency (it governs adding dependencies)' };
  }
  const closeCommand = prohibits !== null && /^[^.;`]{0,40}`/.test(lower.slice(prohibits.index + prohibits[0].length));
  if (prohibits !== null && (RUN.test(lower.slice(prohibits.index)) || closeCommand) && spans.some((span) => COMMAND_SPAN.test(span))) {
    return {
      kind: 'prose',
      needs: 'command',
      why: `prose-only: needs kind command (it forbids running ${spans
        .filter((span) => COMMAND_SPAN.test(span))
        .map((span) => `\`${span}\``)
        .join(', ')})`,
    };
  }
  if (REQUIRES.test(lower)) {
    return { kind: 'prose', needs: 'requires', why: 'prose-only: needs kind requires (it asks that a change carry something with it)' };
  }
  return undefined;
}
