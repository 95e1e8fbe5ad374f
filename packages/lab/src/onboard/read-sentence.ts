/**
 * Reads a rule the way its sentence is built: which clause forbids, which requires, and what each one
 * names. A check is drafted from a clause only; a code span in the next clause ("…; use `logger`
 * instead") or in a condition ("unless …") is never taken for the thing forbidden.
 */

/** A code span (`…`) of the rule, with where it starts in the rule's text. */
export interface Span {
  readonly text: string;
  readonly index: number;
}

/** What a code span names, read from its shape. */
export type SpanShape = 'command' | 'flag' | 'path' | 'code' | 'word';

/** Which way a clause points at what it names. */
type ClausePolarity = 'forbid' | 'require' | 'neutral';

export interface Clause {
  readonly text: string;
  readonly lower: string;
  /** Where the clause starts in the rule's text. */
  readonly start: number;
  readonly spans: readonly Span[];
  readonly polarity: ClausePolarity;
  /** For a prohibition: where the negation ends in the rule's text, and its word. */
  readonly negation?: { readonly end: number; readonly word: string };
  /** Why the clause cannot be read with confidence (a condition, a double negation, advice), if so. */
  readonly doubt?: string;
  /** The clause forbids going on without something ("never commit without running `x`"): that thing is required. */
  readonly without?: { readonly index: number };
}

/** Programs whose code spans are commands a person types. */
const PROGRAM =
  /^(npm|pnpm|yarn|bun|bunx|npx|node|deno|make|just|cargo|go|git|gh|pytest|python3?|pip3?|uv|uvx|poetry|pdm|hatch|tox|nox|ruff|mypy|black|flake8|vitest|jest|tsc|eslint|prettier|biome|turbo|nx|rm|docker|kubectl|terraform|helm|sudo|chmod|mvn|gradle|\.\/gradlew|dotnet|swift|bazel|rake|bundle|mix|composer|golangci-lint|gofmt)(\s|$)/;

const NEGATION =
  /\b(never|do not|don'?t|dont|must not|mustn'?t|should not|shouldn'?t|shall not|cannot|can'?t|may not|avoid|no longer|not allowed to|forbidden to|prohibited from|no)\b/i;
/** After a negation these words turn it into a requirement ("never skip `x`", "don't forget to run `x`"). */
const TURNS_TO_REQUIRE = /^\s*(\w+\s+){0,2}?(skip|skipping|forget|forgetting|omit|omitting|neglect|fail to|leave out)\b/i;
/** After a negation these words make it advice, not a prohibition ("don't rely only on `x`", "do not assume `x`"). */
const ADVICE = /^\s*(\w+\s+){0,2}?(rely|relying|depend|assume|assuming|claim|guess|hesitate|worry|need to|have to|just|only|hand-?write|manually)\b/i;
/** A condition narrows a rule to cases a check cannot see. */
const CONDITION =
  /\b(solely|only to|just to|purely to|if|when|whenever|unless|except|until|while|only when|only if|other than|outside of|as long as|in case|depending|where appropriate|for now)\b/i;
/**
 * Escape hatches a team writes for people, not a scope a check must see: at `warn` a check that fires
 * when the exception applies is still the rule ("unless explicitly requested", "where possible").
 */
const ESCAPE_HATCH =
  /\b(even (if|when|though)|without (first )?(asking|approval|permission|confirming|checking with (the )?(user|team|a maintainer))|unless (you have a (specific|good|strong) reason|(it is |it's )?(absolutely |strictly |truly )?(necessary|needed|required|infeasible|unavoidable)|(explicitly |specifically )?(asked|requested|instructed|approved|told)( to( do so)?)?( by the user)?|the user (explicitly )?(asks|requests|approves)( it| for it)?|the (ticket|task|issue|user) says otherwise)|(when|where|if) (possible|feasible|practical|practicable|applicable))\b/gi;
const REQUIRE = /\b(must|always|should|shall|needs?|required|requires?|make sure|ensure|remember to|be sure to)\b/i;
const IMPERATIVE =
  /^(\*\*[^*]+\*\*:?\s*)?(only|run|use|add|write|execute|invoke|call|keep|include|place|put|commit|test|create|follow|prefer|format|lint|check|verify|update|regenerate|build|import|wrap|install)\b/i;

/** Lower-case words that are code in every language a rule file is about; any other plain word (`types`) is prose. */
const CODE_WORDS = /^(any|unknown|debugger|eval|unsafe|var|goto|panic!?|unwrap|print|exec|todo!?|unimplemented!?|dbg!?)$/;

/** The code spans of a text; a double-backtick span (`` `x` ``) counts once. */
export function codeSpans(text: string): Span[] {
  return [...text.matchAll(/(`+)(?!`)([^`\n]|[^`\n][^\n]*?[^`\n])\1(?!`)/g)].map((match) => ({
    text: (match[2] ?? '').trim(),
    index: match.index,
  }));
}

/** What a code span names: a command a person types, a bare flag, a path, a code literal, or a word. */
export function spanShape(span: string): SpanShape {
  if (/^--?[a-z][a-z0-9-]*$/i.test(span)) return 'flag';
  if (PROGRAM.test(span) && !/^[\w.-]+\.(lock|json|ya?ml|toml|md|txt|cfg|ini|sum|mod)$/i.test(span)) return 'command';
  if (/\s/.test(span.trim())) return /[*(){}[\]=<>;:.$]/.test(span) ? 'code' : 'word';
  if (/^\$[a-z][\w-]*$/i.test(span)) return 'word';
  if (
    /^(\.{0,2}\/)?[\w@.*{}-]+(\/[\w@.*{}-]*)+\/?$/.test(span) ||
    /^[\w*.-]+\.(json|md|mdx|ya?ml|lock|toml|env|ts|tsx|js|jsx|mjs|cjs|css|html|py|rs|go|rb|java|kt|sum|mod|txt|cfg|ini|sh)$/i.test(span) ||
    /^\.[a-z][\w.-]*\/?$/i.test(span)
  )
    return 'path';
  if (CODE_WORDS.test(span) || /[.()[\]$_*=<>{}:]/.test(span) || /[a-z][A-Z]/.test(span) || /^[A-Z][A-Za-z]+$/.test(span)) return 'code';
  return 'word';
}

/** The text with every code span's inside blanked, so punctuation in code never ends a sentence. */
function masked(text: string, spans: readonly Span[]): string {
  let out = text;
  for (const span of spans) {
    const open = text.indexOf(span.text, span.index);
    if (open < 0) continue;
    out = out.slice(0, open) + 'x'.repeat(span.text.length) + out.slice(open + span.text.length);
  }
  return out;
}

/** Where clauses end: a sentence stop, a semicolon, a dash between words, "but", a parenthesis. */
const CLAUSE_END = /(?<!\b(e\.g|i\.e|etc|vs|cf|approx))[.!?](?=\s|$)|;|\s[—–-]{1,2}\s|,\s+(?=but\b|so\b|instead\b|then\b|rather\b|and then\b)|\n\s*\n/g;

/** Splits a rule into clauses, each read for its polarity and what it names. */
export function readClauses(rule: string, negativeHeading = false): Clause[] {
  // Fenced code shows commands; it states no polarity, so it is read as a stop between sentences.
  const text = rule.replace(/^ {0,3}(```|~~~)[^]*?^ {0,3}(```|~~~)/gm, (block) => `${' '.repeat(block.length - 1)}.`);
  const spans = codeSpans(text);
  const plain = masked(text, spans);
  const clauses: Clause[] = [];
  let start = 0;
  const ends = [...plain.matchAll(CLAUSE_END)].map((match) => match.index + match[0].length);
  ends.push(text.length);
  for (const end of ends) {
    if (end <= start) continue;
    const raw = text.slice(start, end);
    if (raw.trim() !== '') clauses.push(readClause(raw, plain.slice(start, end), start, spans, negativeHeading && clauses.length === 0));
    start = end;
  }
  return clauses;
}

function readClause(raw: string, plain: string, start: number, all: readonly Span[], underNegativeHeading: boolean): Clause {
  const spans = all.filter((span) => span.index >= start && span.index < start + raw.length);
  const lower = plain.toLowerCase();
  const hatchless = lower.replace(ESCAPE_HATCH, ' ');
  const base = { text: raw, lower, start, spans };
  const negation = NEGATION.exec(plain);
  // "No `x`" and "no new `x`" forbid; "no" elsewhere ("no runtime dependencies") describes.
  const isNo = negation?.[1]?.toLowerCase() === 'no';
  const noForbids = isNo && /^\s*(\w+\s+){0,3}?(`|statements?\b|calls?\b|new\b|direct\b|hard-?coded\b|inline\b)/i.test(plain.slice(negation.index + 2));
  if (negation !== null && (!isNo || noForbids)) {
    const end = start + negation.index + negation[0].length;
    const after = plain.slice(negation.index + negation[0].length);
    const doubt = doubtAfterNegation(after, hatchless);
    if (/^\s*(\w+\s+){0,4}?without\b/i.test(after.replace(ESCAPE_HATCH, ' '))) {
      const at = /\bwithout\b/i.exec(after);
      return { ...base, polarity: 'forbid', negation: { end, word: negation[0] }, without: { index: end + (at?.index ?? 0) } };
    }
    if (TURNS_TO_REQUIRE.test(after)) return { ...base, polarity: 'require', ...(doubt !== undefined ? { doubt } : {}) };
    return { ...base, polarity: 'forbid', negation: { end, word: negation[0] }, ...(doubt !== undefined ? { doubt } : {}) };
  }
  if (underNegativeHeading) {
    const doubt = CONDITION.test(hatchless) ? `a condition ("${CONDITION.exec(hatchless)?.[0] ?? ''}") narrows it` : undefined;
    if (/\bwithout\b/i.test(plain))
      return { ...base, polarity: 'forbid', negation: { end: start, word: 'do not' }, without: { index: start + plain.search(/\bwithout\b/i) } };
    return { ...base, polarity: 'forbid', negation: { end: start, word: 'do not' }, ...(doubt !== undefined ? { doubt } : {}) };
  }
  if (
    REQUIRE.test(plain) ||
    IMPERATIVE.test(plain.trimStart()) ||
    IMPERATIVE.test(plain.replace(/^[^,]*,\s+/, '')) ||
    /^\s*(every|each|all|any)\s+new\b/i.test(plain)
  ) {
    const doubt = CONDITION.test(hatchless) ? `a condition ("${CONDITION.exec(hatchless)?.[0] ?? ''}") narrows it` : undefined;
    return { ...base, polarity: 'require', ...(doubt !== undefined ? { doubt } : {}) };
  }
  return { ...base, polarity: 'neutral' };
}

function doubtAfterNegation(after: string, hatchless: string): string | undefined {
  if (ADVICE.test(after)) return `"${after.trim().split(/\s+/).slice(0, 3).join(' ')}" gives advice, it forbids nothing a check can see`;
  const condition = CONDITION.exec(hatchless);
  if (condition !== null) return `a condition ("${condition[0]}") narrows the prohibition to cases a check cannot see`;
  return undefined;
}

/** The clause just before `clause` in the same sentence (for "it" and "them"), if any. */
export function previousInSentence(clauses: readonly Clause[], clause: Clause): Clause | undefined {
  const at = clauses.indexOf(clause);
  const before = clauses[at - 1];
  if (before === undefined || /[.!?]\s*$/.test(before.text)) return undefined;
  return before;
}
