import type { RuleCheck } from '@holdfast/core/contract';
import { proposePendingKind } from './pending-kinds.js';
import type { PendingKind } from './pending-kinds.js';
import type { RepoFacts } from './repo-facts.js';
import { proposeCommand, proposeDependency, proposeDeny, proposeRequires } from './propose-new-kinds.js';

/**
 * A guess at the deterministic check a rule written in prose maps onto, with the reason in words.
 * Wrong guesses are cheap (the person reads the draft); a missed guess only leaves a rule unenforced.
 */
export type CheckProposal =
  | { readonly kind: 'check'; readonly name: string; readonly check: RuleCheck; readonly why: string }
  | { readonly kind: 'prose'; readonly why: string; readonly needs?: PendingKind };

const NEGATION = /\b(never|don'?t|do not|must not|mustn'?t|should not|shouldn'?t|no|avoid|not allowed|forbidden|prohibited|without)\b/;
const NEGATIVE_HEADING = /^(do not|don'?t|never|avoid|forbidden|prohibited|not allowed|anti-?patterns?)\b/i;
const SECRET_WORDS = /\b(secrets?|credentials?|api[ _-]?keys?|access[ _-]?tokens?|tokens?|passwords?|private[ _-]?keys?|\.env)\b/;
const ENVIRONMENT = /\b(environment|env var\w*|process\.env|secret manager|vault)\b/;
const TEST_WORDS = /\b(tests?|test suite|specs?)\b/;
const COMMIT_WORDS = /\b(commit\w*|push\w*|prs?|pull requests?|merg\w*)\b/;
const BEFORE_WORDS = /\b(before|prior to|first|until|then)\b/;
const NEW_CODE = /\b(new|every|each|all|add\w*|writ\w*|ship\w*|includ\w*|accompan\w*|alongside|next to|colocat\w*|sibling|cover\w*)\b/;
/** A test is asked for new code itself ("every new module", "new features"), not for a change or a fix. */
const NEW_UNIT = /\bnew\s+(\w+\s+){0,3}(modules?|files?|functions?|features?|components?|code|class\w*|endpoints?|hooks?|utilit\w*)\b/;
const REQUIRE_WORDS = /\b(must|needs?|requires?|should|every|always|ships?|without tests|incomplete)\b/;
const HTTP_WORDS = /\b(http|fetch|axios|api calls?|network calls?|requests?|api client)\b/;
const THROUGH = /\b(through|via|go through|only|must use|wrapper|helper|client)\b/;
const COMMAND_START = /^(npm|pnpm|yarn|bun|npx|node|make|cargo|go|git|gh|pytest|vitest|jest|deno|turbo|nx|uv|uvx|just)\b/;
/** A rule that says what to do: a modal, a prohibition, or an imperative opening. A description of the project says none. */
const DIRECTIVE = /\b(must|never|always|do not|don'?t|should|shall|avoid|only|required?|ensure|make sure|forbidden|prohibited|needs?)\b|(^|[.;:!]\s+)no\b/;
const IMPERATIVE = /^(\*\*[^*]+\*\*:?\s*)?(use|write|add|put|keep|run|ship|include|place|call|import|wrap|commit|test|create|route|send|every|each|no)\b/;
/** Words that make a prohibition conditional: a pattern cannot see "unless absolutely necessary". */
const QUALIFIED = /\b(unless|solely|except|only when|only if|where possible|when possible|if possible|any other|other than|outside of)\b/;
/** Where an alternative begins after a prohibition ("…; use `logger` instead"). */
const ALTERNATIVE = /;|\.\s|\binstead\b|\bprefer\b|\brather\b|,\s*use\b|\s[-—]\s|\buse\s+`/g;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function codeSpans(text: string): { text: string; index: number }[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => ({ text: (match[1] ?? '').trim(), index: match.index }));
}

/** A literal a pattern can find in code: `console.log`, `require()`, `JSON.parse`; not a plain word such as `types`. */
function looksLikeCode(span: string): boolean {
  return span === 'any' || /[.()[\]$_*=<>{}:]/.test(span) || /[a-z][A-Z]/.test(span) || /^[A-Z][A-Za-z]+$/.test(span);
}

function looksLikePath(span: string): boolean {
  return span.includes('/') || /\.(json|md|ya?ml|lock|toml|env|ts|tsx|js|jsx|mjs|cjs|css|html)$/.test(span) || span.startsWith('.');
}

function sourceGlobs(facts: RepoFacts): string[] {
  if (facts.ecosystem !== undefined) return [...facts.ecosystem.modules];
  const extensions = facts.extensions.length === 1 ? facts.extensions[0] : `{${facts.extensions.join(',')}}`;
  const folders = facts.sourceFolders.length > 0 ? facts.sourceFolders : ['**'];
  return folders.map((folder) => (folder === '**' ? `**/*.${extensions}` : `${folder}/**/*.${extensions}`));
}

function sourceWhere(facts: RepoFacts): string {
  return facts.sourceFolders.length > 0 ? `the source folders that exist (${facts.sourceFolders.join(', ')})` : 'every folder (no src/, lib/ or similar found)';
}

/** The test command: one the rule names in backticks, else the repository's own. */
function orderCheck(text: string, facts: RepoFacts): CheckProposal {
  const named = codeSpans(text).find((span) => COMMAND_START.test(span.text) && /\b(test|check|verify|ci)\b/.test(span.text));
  const command = named?.text ?? facts.testCommand ?? 'npm test';
  const source =
    named !== undefined ? 'the command the rule names' : (facts.testCommandSource ?? 'a guess: package.json has no test script, so correct `command` by hand');
  const manager = /^(npm|pnpm|yarn|bun) test$/.exec(command);
  const pattern = manager !== null ? `^${manager[1]} (run )?test\\b` : `^${escapeRegex(command)}\\b`;
  return {
    kind: 'check',
    name: 'ORDER',
    check: { kind: 'order', command: pattern, example: command },
    why: `asks for tests before a commit; test command "${command}" from ${source}`,
  };
}

function siblingTestCheck(facts: RepoFacts): CheckProposal {
  const ecosystem = facts.ecosystem;
  if (ecosystem !== undefined) {
    return {
      kind: 'check',
      name: 'TESTS',
      check: { kind: 'sibling-test', modules: [...ecosystem.modules], exempt: [...ecosystem.exempt], tests: [...ecosystem.tests] },
      why: `asks for tests with new code; ${ecosystem.name} modules (${ecosystem.modules.join(', ')}), tests as ${ecosystem.tests.join(' or ')}`,
    };
  }
  return {
    kind: 'check',
    name: 'TESTS',
    check: {
      kind: 'sibling-test',
      modules: sourceGlobs(facts),
      exempt: ['**/*.d.ts', '**/*.test.*', '**/*.spec.*', '**/__tests__/**'],
      tests: [facts.testTemplate],
    },
    why: `asks for tests with new code; modules in ${sourceWhere(facts)}, test next to it as ${facts.testTemplate} (${facts.testTemplateSource})`,
  };
}

function httpHelperCheck(text: string, facts: RepoFacts): CheckProposal {
  const helper = codeSpans(text).find((span) => looksLikePath(span.text) && /\.[a-z]+$/.test(span.text) && !span.text.startsWith('.'));
  if (helper === undefined)
    return { kind: 'prose', why: 'names an HTTP helper but no file path in backticks; an http-helper check needs its path (`helper: src/lib/http.ts`)' };
  const folders = facts.sourceFolders.length > 0 ? facts.sourceFolders.map((folder) => `${folder}/**`) : ['**'];
  return {
    kind: 'check',
    name: 'HTTP',
    check: { kind: 'http-helper', helper: helper.text, folders, patterns: ['\\bfetch\\s*\\(', '\\baxios\\b', '\\bXMLHttpRequest\\b'] },
    why: `asks for HTTP through one helper; helper "${helper.text}" named in the rule, guarded folders ${folders.join(', ')}`,
  };
}

const ONLY_EDIT = /\bonly\s+(edit|modif|chang|touch|writ|creat)\w*|\b(edit|modif|chang|touch|writ|creat)\w*\s+(\w+\s+){0,3}only\b/;
const NEVER_EDIT = /\b(never|don'?t|do not|must not)\s+(edit|modif|chang|touch|writ|creat)\w*/;

/** Folders a sentence names in backticks (`src/`, `packages/**`), from `start` to the end of that sentence. */
function foldersIn(text: string, start: number, facts: RepoFacts): string[] {
  const end = /[.;](\s|$)/g;
  end.lastIndex = start;
  const stop = end.exec(text)?.index ?? text.length;
  return codeSpans(text)
    .filter((span) => span.index >= start && span.index < stop)
    .map((span) => span.text.replace(/^\.\//, ''))
    .filter((span) => span.endsWith('/') || span.endsWith('/**') || facts.sourceFolders.includes(span));
}

/** The start of the sentence that holds `index`, up to it ("e.g. in" does not end a sentence). */
function sentenceBefore(text: string, index: number): string {
  const before = text.slice(0, index);
  const ends = [...before.matchAll(/[.;!?]\s+(?=[A-Z])/g)];
  const last = ends[ends.length - 1];
  return last === undefined ? before : before.slice(last.index + last[0].length);
}

function scopeCheck(text: string, lower: string, facts: RepoFacts): CheckProposal | undefined {
  const only = ONLY_EDIT.exec(lower);
  // "If … you only changed code under `src/`, run …" is a condition, not a limit.
  if (only !== null && /\b(if|when|whenever|unless)\b/i.test(sentenceBefore(text, only.index))) return undefined;
  if (only !== null) {
    const folders = foldersIn(text, only.index, facts);
    if (folders.length === 0) return undefined;
    const allow = folders.map((folder) => (folder.endsWith('/**') ? folder : `${folder.replace(/\/$/, '')}/**`));
    return {
      kind: 'check',
      name: 'SCOPE',
      check: { kind: 'scope', allow },
      why: `limits changes to ${allow.join(', ')} (the folders the rule names after "${only[0]}")`,
    };
  }
  const never = NEVER_EDIT.exec(lower);
  if (never === null) return undefined;
  const folders = foldersIn(text, never.index, facts);
  const deny = proposeDeny(text, lower, folders);
  if (deny !== undefined) return deny;
  if (folders.length === 0) return undefined;
  return {
    kind: 'prose',
    why: `forbids paths (${folders.join(', ')}); the scope check takes an allowlist, so write \`kind: scope, allow: [...]\` by hand if you want it enforced`,
  };
}

/** A literal the rule forbids as a pattern; TypeScript's `any` would match every "any" in prose, so it gets its own. */
function literalPattern(span: string): string {
  if (span === 'any') return '(:\\s*any\\b|\\bas\\s+any\\b|<any>)';
  // `require()`, `fetch()`: the call, whatever its arguments.
  if (/^[\w.$]+\(\)$/.test(span)) return `\\b${escapeRegex(span.slice(0, -2)).replace(/\\\./g, '\\s*\\.\\s*')}\\s*\\(`;
  const escaped = escapeRegex(span).replace(/\\\./g, '\\s*\\.\\s*');
  return `${/^\w/.test(span) ? '\\b' : ''}${escaped}${/\w$/.test(span) ? '\\b' : ''}`;
}

function forbiddenPatternCheck(text: string, lower: string, facts: RepoFacts): CheckProposal | undefined {
  const negation = NEGATION.exec(lower);
  if (negation === null) return undefined;
  const after = codeSpans(text).filter((span) => span.index > negation.index);
  const first = after[0];
  // The forbidden code follows the prohibition closely ("never use `x`"), in the same sentence.
  const gap = first === undefined ? '' : lower.slice(negation.index + negation[0].length, first.index);
  if (first === undefined || gap.length > 30 || /[.;:\n]/.test(gap)) return undefined;
  // The alternative ("…; use `logger` instead") starts after the first forbidden thing, never before it.
  ALTERNATIVE.lastIndex = first.index + first.text.length + 2;
  const cut = ALTERNATIVE.exec(lower)?.index ?? text.length;
  if (QUALIFIED.test(lower)) return undefined;
  const forbidden = after.filter(
    (span) => span.index < cut && !looksLikePath(span.text) && !COMMAND_START.test(span.text) && !/\s{2,}/.test(span.text) && looksLikeCode(span.text),
  );
  if (forbidden.length === 0) return undefined;
  const names = forbidden.map((span) => span.text);
  const slug = (names[0] ?? 'PATTERN')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24);
  return {
    kind: 'check',
    name: `NO-${slug === '' ? 'PATTERN' : slug}`,
    check: {
      kind: 'forbidden-pattern',
      patterns: names.map(literalPattern),
      flags: '',
      what: names.map((name) => `\`${name}\``).join(' or '),
      files: sourceGlobs(facts),
      exclude: [],
    },
    why: `forbids ${names.map((name) => `\`${name}\``).join(', ')} (the code the rule names after "${negation[0]}"); searched in ${sourceWhere(facts)}`,
  };
}

/** The check a rule's prose maps onto, or why none does. `heading` is the section it sits in, read as context. */
export function proposeCheck(prose: string, heading: string | undefined, facts: RepoFacts): CheckProposal {
  // Under a "Do not" heading every item is a prohibition, though it reads "Use `require()` for imports".
  const text = heading !== undefined && NEGATIVE_HEADING.test(heading.trim()) ? `Never ${prose}` : prose;
  const lower = text.toLowerCase();
  const context = `${(heading ?? '').toLowerCase()} ${lower}`;
  if (!DIRECTIVE.test(lower) && !IMPERATIVE.test(lower.trimStart()))
    return { kind: 'prose', why: 'says what the project is, not what to do: no check is drafted from a description' };
  if (SECRET_WORDS.test(lower) && (NEGATION.test(lower) || ENVIRONMENT.test(lower))) {
    return {
      kind: 'check',
      name: 'SECRET',
      check: { kind: 'secret', detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] },
      why: `keeps credentials out of the code ("${SECRET_WORDS.exec(lower)?.[0] ?? ''}"); secretlint's detectors and the generic key = value detector`,
    };
  }
  // issue #28 kinds: named commands before a commit, dependencies, forbidden commands
  const requires = proposeRequires(text, lower, facts);
  if (requires !== undefined) return requires;
  if (TEST_WORDS.test(context) && COMMIT_WORDS.test(lower) && BEFORE_WORDS.test(lower)) return orderCheck(text, facts);
  const dependency = proposeDependency(text, lower);
  if (dependency !== undefined) return dependency;
  const command = proposeCommand(text, lower);
  if (command !== undefined) return command;
  if (TEST_WORDS.test(lower) && NEW_CODE.test(lower) && NEW_UNIT.test(lower) && REQUIRE_WORDS.test(lower) && !/\b(run|running|before)\b/.test(lower))
    return siblingTestCheck(facts);
  if (HTTP_WORDS.test(lower) && THROUGH.test(lower) && /\b(helper|wrapper|client|through|via)\b/.test(lower)) return httpHelperCheck(text, facts);
  const scope = scopeCheck(text, lower, facts);
  if (scope !== undefined) return scope;
  const pending = proposePendingKind(text, lower);
  if (pending !== undefined) return pending;
  const pattern = forbiddenPatternCheck(text, lower, facts);
  if (pattern !== undefined) return pattern;
  return {
    kind: 'prose',
    why: 'no check kind fits (secret, scope, sibling-test, forbidden-pattern, http-helper, order, paths, command, requires, dependency): shown to the agent, never checked',
  };
}
