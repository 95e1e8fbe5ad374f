import type { ForbiddenCommand, RuleCheck } from '@holdfast/core/contract';
import { codeSpans, previousInSentence, readClauses, spanShape } from './read-sentence.js';
import type { Clause, Span } from './read-sentence.js';
import type { RepoFacts } from './repo-facts.js';

/**
 * The deterministic check a rule written in prose maps onto, with the reason in words, or why none
 * does. A check is proposed only where the sentence can be read with confidence: which clause
 * forbids or requires, and the command, path or code it names in that clause. Anything less stays
 * prose (the told arm shows it) with the reason listed: a missed check leaves a rule unenforced,
 * a wrong one blocks the team's own work on day one.
 */
export type CheckProposal =
  { readonly kind: 'check'; readonly name: string; readonly check: RuleCheck; readonly why: string } | { readonly kind: 'prose'; readonly why: string };

type Found = { readonly kind: 'check'; readonly name: string; readonly check: RuleCheck; readonly why: string };

const PROHIBITING_LEAD_IN = /^[^`]*\b(never|do not|don'?t|must not)\b[^`]*:\s*$/i;
const NEGATIVE_HEADING = /^(do not|don'?t|never|avoid|forbidden|prohibited|not allowed|anti-?patterns?)\b/i;
/** "design tokens", "token count": only a credential-like token is a secret. */
const SECRET_WORDS =
  /\b(secrets?|credentials?|api[ _-]?keys?|(access|auth|api|bearer|secret|github|npm|oauth|private)[ _-]?tokens?|passwords?|private[ _-]?keys?|\.env files?)\b/i;
/** What a prohibition of secrets says is done with them. */
const SECRET_VERBS =
  /\b(commit\w*|includ\w*|hard-?cod\w*|log\w*|print\w*|expos\w*|stor\w*|put\w*|writ\w*|add\w*|check\w* in|push\w*|leak\w*|embed\w*|past\w*|shar\w*|echo\w*|output\w*|in (the )?(code|source|repo\w*|docs|examples|tests))\b/i;
const EDIT_VERBS =
  /\b(commit\w*|check\w* in|edit\w*|modif\w*|chang\w*|touch\w*|writ\w*|creat\w*|delet\w*|remov\w*|replac\w*|renam\w*|overwrit\w*|regenerat\w*|updat\w*|mov\w*|add\w* files?)\b/i;
const USE_VERBS = /\b(use|using|add|adding|write|writing|leave|leaving|introduce|call|calling|import|importing|ship|commit|put|rely on|emit)\b/i;
const RUN_VERBS = /\b(run|running|use|using|call|invoke|execute|pass|passing|type|bypass\w*|with)\b/i;
/** A requirement tied to a commit or a hand-off: what a `requires` check judges. */
const BEFORE_COMMIT =
  /\b(before|prior to)\s+(\w+\s+){0,3}?(commit\w*|push\w*|pr|prs|pull requests?|merg\w*|hand-?off|handing off|submitt\w*|finaliz\w*|marking (\w+\s+){0,2}(ready|complete|done)|declaring (\w+\s+){0,2}(ready|complete|done)|opening (a |the )?(pr|pull request))\b/i;
/** The test command the order kind watches for: "run the tests" named in the same clause. */
const RUN_TESTS = /\b(run|running|execute|pass|passing)\b[^.;]{0,30}\btests?\b|\btests?\b[^.;]{0,20}\b(pass|passing|green)\b/i;
const NEW_UNIT =
  /\bnew\s+(\w+\s+){0,3}(modules?|files?|functions?|features?|components?|code|class\w*|endpoints?|hooks?|utilit\w*|behaviou?rs?|functionality)\b|\b(code changes?|any code change|every change|bug fix\w*)\b/i;
const TESTS_FOR =
  /\b(add|write|include|ships?|shipped|need|needs|must have|requires?|with|accompan\w*|cover\w*)\b[^.;]{0,30}\b(unit |regression )?tests?\b|\btests? (coverage|with)\b|\bwithout tests\b/i;
const HTTP_WORDS = /\b(http|fetch|axios|api calls?|network calls?|requests?|api client)\b/i;
const LOCKFILES = [
  '**/package-lock.json',
  '**/pnpm-lock.yaml',
  '**/yarn.lock',
  '**/bun.lock',
  '**/bun.lockb',
  '**/poetry.lock',
  '**/uv.lock',
  '**/Cargo.lock',
  '**/go.sum',
];
/** What a flag that forces is also spelled as. */
const FLAG_ALIASES: Record<string, readonly string[]> = {
  '--force': ['--force', '-f', '--force-with-lease'],
  '-f': ['-f', '--force'],
  '-rf': ['-r', '-R', '--recursive'],
  '-fr': ['-r', '-R', '--recursive'],
};
/** Flags that name their program wherever they are written. */
const FLAG_PROGRAM: Record<string, string> = { '--no-verify': 'git', '--no-gpg-sign': 'git', '--amend': 'git' };
const MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const MANAGER_BUILTINS = new Set(['test', 'install', 'ci', 'publish', 'add', 'exec', 'run', 'audit', 'i']);

function sourceGlobs(facts: RepoFacts): string[] {
  if (facts.ecosystem !== undefined) return [...facts.ecosystem.modules];
  const extensions = facts.extensions.length === 1 ? facts.extensions[0] : `{${facts.extensions.join(',')}}`;
  const folders = facts.sourceFolders.length > 0 ? facts.sourceFolders : ['**'];
  return folders.map((folder) => (folder === '**' ? `**/*.${extensions}` : `${folder}/**/*.${extensions}`));
}

function sourceWhere(facts: RepoFacts): string {
  return facts.sourceFolders.length > 0 ? `the source folders that exist (${facts.sourceFolders.join(', ')})` : 'every folder (no src/, lib/ or similar found)';
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A literal a pattern can find in code; TypeScript's `any` would match every "any" in prose, so it gets its own. */
function literalPattern(span: string): string {
  if (span === 'any') return '(:\\s*any\\b|\\bas\\s+any\\b|<any>)';
  if (/^[\w.$]+\(\)$/.test(span)) return `\\b${escapeRegex(span.slice(0, -2)).replace(/\\\./g, '\\s*\\.\\s*')}\\s*\\(`;
  const escaped = escapeRegex(span).replace(/\\\./g, '\\s*\\.\\s*');
  return `${/^\w/.test(span) ? '\\b' : ''}${escaped}${/\w$/.test(span) ? '\\b' : ''}`;
}

/** The command words and flags of a span ("npm run compile", "git push --force"), or undefined for a placeholder. */
function commandOf(span: string, program?: string): ForbiddenCommand | undefined {
  const words = span.split(/\s+/).filter((word) => word !== '');
  if (words.length === 1 && /^--?[a-z][a-z0-9-]*$/i.test(words[0] ?? '')) {
    const owner = FLAG_PROGRAM[words[0] ?? ''] ?? program;
    if (owner === undefined) return undefined;
    return { command: owner, flags: [...(FLAG_ALIASES[words[0] ?? ''] ?? [words[0] as string])], outside: false };
  }
  const command: string[] = [];
  const flags: string[] = [];
  for (const word of words) {
    if (word.startsWith('-')) flags.push(...(FLAG_ALIASES[word] ?? [word]));
    else if (flags.length === 0 && /^[A-Za-z0-9_.:+-]+$/.test(word) && command.length < 4) command.push(word);
    else if (flags.length === 0 && /[<>{}$*]/.test(word)) return undefined;
    else break;
  }
  if (command.length === 0) return undefined;
  const unique = [...new Set(flags)].filter((flag) => /^-{1,2}[A-Za-z0-9][A-Za-z0-9-]*$/.test(flag));
  return { command: command.join(' '), ...(unique.length > 0 ? { flags: unique } : {}), outside: false };
}

/** A script of an npm-style manager has two spellings: `pnpm lint` and `pnpm run lint`. */
function spellings(command: string): string[] {
  const [manager, script, ...rest] = command.split(/\s+/);
  if (manager === undefined || script === undefined || !MANAGERS.has(manager)) return [command];
  if (script === 'run' && rest[0] !== undefined) return [command, [manager, ...rest].join(' ')];
  if (MANAGER_BUILTINS.has(script) && script !== 'test') return [command];
  return [command, [manager, 'run', script, ...rest].join(' ')];
}

function quoted(items: readonly string[]): string {
  return items.map((item) => `\`${item}\``).join(', ');
}

/** Words that introduce an example, never the thing itself: "files like `src/x.ts`", "such as `y`". */
const EXAMPLE = /\b(like|such as|e\.g\.?|for example|for instance|i\.e\.?)\s*[:(]?\s*$/i;

/**
 * The spans a prohibition governs: the list that follows its negation ("never use `a`, `b` or `c`"),
 * ending at the first word that is not part of the list ("`bind()` solely to control `this`" names
 * `bind()` only). A span introduced as an example ("like `x`") is not what the rule forbids.
 */
function governed(clause: Clause): Span[] {
  const after = clause.negation?.end ?? clause.start;
  const spans = clause.spans.filter((span) => span.index >= after);
  const list: Span[] = [];
  let previousEnd = after;
  for (const span of spans) {
    const gap = clause.text.slice(previousEnd - clause.start, span.index - clause.start);
    if (EXAMPLE.test(gap)) return [];
    if (list.length > 0 && !/^[\s,/()]*((or|and|nor|and\/or)\b)?[\s,/()]*$/i.test(gap)) break;
    list.push(span);
    previousEnd = span.index + span.text.length + 2;
  }
  return list;
}

function secretCheck(clause: Clause): Found | undefined {
  const word = SECRET_WORDS.exec(clause.lower);
  if (word === null || clause.negation === undefined) return undefined;
  const governedText = clause.lower.slice(clause.negation.end - clause.start);
  if (!SECRET_WORDS.test(governedText) || !SECRET_VERBS.test(governedText)) return undefined;
  return {
    kind: 'check',
    name: 'SECRET',
    check: { kind: 'secret', detectors: ['secretlint-recommend', 'generic-assignment'], minEntropy: 3, allowlist: [] },
    why: `keeps credentials out of what is written ("${word[0]}"); secretlint's detectors and the generic key = value detector`,
  };
}

function commandCheck(clause: Clause, sentence: string): Found | undefined {
  if (clause.negation === undefined) return undefined;
  const between = (span: Span): string => clause.text.slice((clause.negation?.end ?? clause.start) - clause.start, span.index - clause.start);
  const program = /\b(pnpm|npm|yarn|bun|git|cargo|uv|pip|poetry|docker|kubectl)\b/.exec(sentence)?.[1];
  const forbid: ForbiddenCommand[] = [];
  for (const span of governed(clause)) {
    const shape = spanShape(span.text);
    if (shape !== 'command' && shape !== 'flag') continue;
    // The verb that governs the command: "never run `x`", "do not use `x`", "don't bypass with `--no-verify`", or none ("NEVER `git reset --hard`").
    const gap = between(span);
    if (gap.trim() !== '' && !RUN_VERBS.test(gap) && !/^[\s,]*(or|and|nor)?[\s,]*$/.test(gap.replace(/`[^`]*`/g, ''))) continue;
    const entry = commandOf(span.text, shape === 'flag' ? program : undefined);
    if (entry !== undefined && !forbid.some((known) => known.command === entry.command && String(known.flags) === String(entry.flags))) forbid.push(entry);
  }
  if (forbid.length === 0) return undefined;
  const shown = forbid.map((entry) => `${entry.command}${entry.flags === undefined ? '' : ` ${entry.flags[0] ?? ''}`}`);
  return {
    kind: 'check',
    name: 'COMMANDS',
    check: { kind: 'command', forbid },
    why: `forbids running ${quoted(shown)}, judged on the parsed command (not the text)`,
  };
}

function pathsCheck(clause: Clause, clauses: readonly Clause[], leadIn?: string): Found | undefined {
  if (clause.negation === undefined) return undefined;
  const governedText = `${leadIn ?? ''} ${clause.lower.slice(clause.negation.end - clause.start)}`.toLowerCase();
  if (!EDIT_VERBS.test(governedText)) return undefined;
  let spans = governed(clause).filter((span) => spanShape(span.text) === 'path');
  // "Preserve `x`; never replace it": the pronoun names the path of the clause before.
  if (spans.length === 0 && /\b(it|them|these|those)\b/.test(governedText))
    spans = (previousInSentence(clauses, clause)?.spans ?? []).filter((span) => spanShape(span.text) === 'path');
  const deny = spans.map((span) => {
    const path = span.text.replace(/^\.\//, '');
    if (/[*]/.test(path)) return path;
    if (/\.[a-z0-9]+$/i.test(path.split('/').pop() ?? '')) return path.includes('/') ? path : `**/${path}`;
    return `${path.replace(/\/+$/, '')}/**`;
  });
  if (/\block ?files?\b/.test(governedText)) deny.push(...LOCKFILES);
  const unique = [...new Set(deny)];
  if (unique.length === 0) return undefined;
  return {
    kind: 'check',
    name: 'PROTECTED',
    check: { kind: 'paths', deny: unique, what: 'a protected path' },
    why: `protects ${unique.join(', ')} from writes and deletes (matched ignoring case)`,
  };
}

function patternCheck(clause: Clause, facts: RepoFacts): Found | undefined {
  if (clause.negation === undefined) return undefined;
  const spans = governed(clause);
  const first = spans[0];
  if (first === undefined) return undefined;
  const gap = clause.text.slice(clause.negation.end - clause.start, first.index - clause.start);
  // The forbidden code follows its prohibition closely: "never use `x`", "no `x`", "no log statements (`x`, `y`)".
  if (gap.length > 40 || (gap.trim() !== '' && !USE_VERBS.test(gap) && !/^\s*(\w+\s+){0,3}?(statements?|calls?|new|direct|inline)?\s*\(?\s*$/i.test(gap)))
    return undefined;
  const names = spans.map((span) => span.text).filter((text) => spanShape(text) === 'code');
  if (names.length === 0 || names.length !== spans.filter((span) => spanShape(span.text) !== 'word').length) return undefined;
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
      what: quoted(names).replace(/, /g, ' or '),
      files: sourceGlobs(facts),
      exclude: [],
    },
    why: `forbids ${quoted(names)} (the code the rule names after "${clause.negation.word}"); searched in ${sourceWhere(facts)}`,
  };
}

/** Commands a rule requires before a commit or a hand-off: "Run `just f` and `just l` before committing". */
function requiresCheck(clauses: readonly Clause[], text: string, leadIn: string | undefined): Found | undefined {
  const named: string[] = [];
  for (const clause of clauses) {
    // "Never commit without running `x`": the negated verb is the commit, so `x` is required before it.
    const withoutCommit =
      clause.without !== undefined &&
      clause.negation !== undefined &&
      /\b(commit\w*|push\w*|merg\w*|open\w* (a |the )?(pr|pull request))\b/.test(
        clause.text.slice(clause.negation.end - clause.start, clause.without.index - clause.start).toLowerCase(),
      );
    const sentenceTrigger =
      withoutCommit || BEFORE_COMMIT.test(clause.lower) || (clause.polarity !== 'forbid' && leadIn !== undefined && BEFORE_COMMIT.test(leadIn.toLowerCase()));
    if (!sentenceTrigger) continue;
    if (clause.polarity === 'forbid' && clause.without === undefined) continue;
    const spans = clause.without !== undefined ? clause.spans.filter((span) => span.index >= (clause.without?.index ?? 0)) : clause.spans;
    for (const span of spans) if (spanShape(span.text) === 'command' && !/^git\b/.test(span.text) && commandOf(span.text) !== undefined) named.push(span.text);
  }
  // An item under "run these before you open a PR:" names its command first: "`make lint` – run the linter".
  if (named.length === 0 && leadIn !== undefined && BEFORE_COMMIT.test(leadIn.toLowerCase()) && !/\b(never|do not|don'?t)\b/i.test(leadIn)) {
    const first = codeSpans(text)[0];
    if (first !== undefined && first.index <= 2 && spanShape(first.text) === 'command') named.push(first.text);
  }
  const unique = [...new Set(named)];
  if (unique.length === 0) return undefined;
  // One named test command is the order kind's: the tests run before every commit.
  const test = unique[0];
  if (
    unique.length === 1 &&
    test !== undefined &&
    /^(npm|pnpm|yarn|bun) (run )?test$|^(pytest|vitest|jest|cargo test|go test|make test|just test)\b/.test(test)
  ) {
    const pattern = /^(npm|pnpm|yarn|bun) (run )?test$/.test(test) ? `^${test.split(' ')[0] ?? 'npm'} (run )?test\\b` : `^${escapeRegex(test)}`;
    return {
      kind: 'check',
      name: 'ORDER',
      check: { kind: 'order', command: pattern, example: test },
      why: `asks for tests before a commit; test command "${test}" from the command the rule names`,
    };
  }
  return {
    kind: 'check',
    name: 'CHECKED',
    check: { kind: 'requires', commands: unique.map((command) => ({ run: spellings(command) })) },
    why: `asks for ${quoted(unique)} to pass before a commit, in the project root, after the last change`,
  };
}

function orderCheck(clauses: readonly Clause[], facts: RepoFacts): Found | undefined {
  const clause = clauses.find(
    (candidate) => candidate.polarity !== 'forbid' && BEFORE_COMMIT.test(candidate.lower) && RUN_TESTS.test(candidate.lower) && candidate.doubt === undefined,
  );
  if (clause === undefined) return undefined;
  const command = facts.testCommand ?? 'npm test';
  const source = facts.testCommandSource ?? 'a guess: package.json has no test script, so correct `command` by hand';
  const manager = /^(npm|pnpm|yarn|bun) test$/.exec(command);
  const pattern = manager !== null ? `^${manager[1]} (run )?test\\b` : `^${escapeRegex(command)}\\b`;
  return {
    kind: 'check',
    name: 'ORDER',
    check: { kind: 'order', command: pattern, example: command },
    why: `asks for tests before a commit; test command "${command}" from ${source}`,
  };
}

/** A clause in lower case with its code spans spelled out but their punctuation blanked (`*.test.ts` reads "* test ts"). */
function spelledOut(clause: Clause): string {
  return clause.text.toLowerCase().replace(/`[^`]*`/g, (span) => span.replace(/[.;:!?]/g, ' '));
}

function siblingTestCheck(clauses: readonly Clause[], facts: RepoFacts): Found | undefined {
  const clause = clauses.find(
    (candidate) =>
      candidate.polarity === 'require' &&
      candidate.doubt === undefined &&
      TESTS_FOR.test(spelledOut(candidate)) &&
      NEW_UNIT.test(spelledOut(candidate)) &&
      !/\b(run|running|before|after|mirror\w*)\b|\btests?\b[^.;]{0,20}\b(in|under|into) `/.test(spelledOut(candidate)),
  );
  if (clause === undefined) return undefined;
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

function dependencyCheck(clauses: readonly Clause[], text: string): Found | undefined {
  const lower = text.toLowerCase();
  if (/\bcircular\b/.test(lower)) return undefined;
  const clause = clauses.find(
    (candidate) =>
      candidate.polarity === 'forbid' &&
      candidate.doubt === undefined &&
      candidate.without === undefined &&
      /\b(new|add\w*|introduc\w*|install\w*|extra)\s+(\S+\s+){0,3}(dependenc(y|ies)|deps|packages?|librar(y|ies)|crates?|modules? from (npm|pypi))\b/.test(
        candidate.lower,
      ),
  );
  const record = clauses.find(
    (candidate) =>
      candidate.polarity === 'require' &&
      candidate.doubt === undefined &&
      /\bnew\s+(\S+\s+){0,2}(dependenc(y|ies)|deps|packages?|librar(y|ies))\b[^.;]*\b(need|require|must have)\w*\b[^.;]*\b(adrs?|decision records?|rfcs?)\b/.test(
        candidate.lower,
      ),
  );
  const folder = record?.spans.find((span) => spanShape(span.text) === 'path' && !/\.[a-z]+$/i.test(span.text));
  if (record !== undefined) {
    const needs = [folder === undefined ? 'docs/adr/**' : `${folder.text.replace(/^\.\//, '').replace(/\/+(\*\*)?$/, '')}/**`];
    return {
      kind: 'check',
      name: 'DEPENDENCIES',
      check: { kind: 'dependency', manifests: ['package.json', 'pyproject.toml', 'requirements', 'go.mod', 'Cargo.toml'], changed: true, needs },
      why: `lets a new dependency through only with a decision record (${needs.join(', ')}) in the same change`,
    };
  }
  if (clause === undefined) return undefined;
  return {
    kind: 'check',
    name: 'DEPENDENCIES',
    check: { kind: 'dependency', manifests: ['package.json', 'pyproject.toml', 'requirements', 'go.mod', 'Cargo.toml'], changed: true },
    why: 'refuses a new or changed dependency in any manifest (package.json, pyproject.toml, requirements*.txt, go.mod, Cargo.toml)',
  };
}

function httpHelperCheck(clauses: readonly Clause[], facts: RepoFacts): Found | undefined {
  const clause = clauses.find(
    (candidate) =>
      candidate.doubt === undefined &&
      HTTP_WORDS.test(candidate.lower) &&
      /\b(through|via|go through|must be used|wrapper|wraps|helper|client)\b/.test(candidate.lower) &&
      candidate.spans.some((span) => spanShape(span.text) === 'path'),
  );
  const helper = clause?.spans.find((span) => spanShape(span.text) === 'path' && /\.[a-z]+$/.test(span.text) && !span.text.startsWith('.'));
  if (clause === undefined || helper === undefined) return undefined;
  const folders = facts.sourceFolders.length > 0 ? facts.sourceFolders.map((folder) => `${folder}/**`) : ['**'];
  return {
    kind: 'check',
    name: 'HTTP',
    check: { kind: 'http-helper', helper: helper.text, folders, patterns: ['\\bfetch\\s*\\(', '\\baxios\\b', '\\bXMLHttpRequest\\b'] },
    why: `asks for HTTP through one helper; helper "${helper.text}" named in the rule, guarded folders ${folders.join(', ')}`,
  };
}

const ONLY_EDIT = /\bonly\s+(edit|modif|chang|touch|writ|creat)\w*|\b(edit|modif|chang|touch|writ|creat)\w*\s+(\w+\s+){0,3}only\b/i;

function scopeCheck(clauses: readonly Clause[], facts: RepoFacts): Found | undefined {
  const clause = clauses.find((candidate) => candidate.polarity !== 'forbid' && candidate.doubt === undefined && ONLY_EDIT.test(candidate.lower));
  if (clause === undefined) return undefined;
  const folders = clause.spans
    .map((span) => span.text.replace(/^\.\//, ''))
    .filter((span) => span.endsWith('/') || span.endsWith('/**') || facts.sourceFolders.includes(span));
  if (folders.length === 0) return undefined;
  const allow = folders.map((folder) => (folder.endsWith('/**') ? folder : `${folder.replace(/\/$/, '')}/**`));
  return { kind: 'check', name: 'SCOPE', check: { kind: 'scope', allow }, why: `limits changes to ${allow.join(', ')} (the folders the rule names)` };
}

/** Clauses grouped into the sentences they make up. */
function sentencesOf(clauses: readonly Clause[]): Clause[][] {
  const sentences: Clause[][] = [[]];
  for (const clause of clauses) {
    sentences[sentences.length - 1]?.push(clause);
    if (/[.!?]\s*$|\n\s*\n\s*$/.test(clause.text)) sentences.push([]);
  }
  return sentences.filter((sentence) => sentence.length > 0);
}

/**
 * The check a rule's prose maps onto, or why none does. `heading` is the section it sits in (an item
 * under "Do not" is a prohibition); `leadIn` the line that introduces a list ("Run these before you
 * open a PR:"), read as the item's context.
 */
export function proposeCheck(prose: string, heading: string | undefined, facts: RepoFacts, leadIn?: string): CheckProposal {
  // An item that is only a name (`tox.ini` — generated by …) under a prohibiting lead-in ("Do NOT edit these
  // directly:") is what the lead-in forbids; an item with its own verb ("Regenerate all: …") speaks for itself.
  const forbiddenByLeadIn = leadIn !== undefined && PROHIBITING_LEAD_IN.test(leadIn) && /^\s*`/.test(prose);
  const clauses = readClauses(prose, forbiddenByLeadIn || (heading !== undefined && NEGATIVE_HEADING.test(heading.trim())));
  if (clauses.every((clause) => clause.polarity === 'neutral'))
    return { kind: 'prose', why: 'says what the project is, not what to do: no check is drafted from a description' };
  const doubts: string[] = [];
  // Sentence by sentence, in the order the team wrote them: the first sentence that maps onto a check gives it.
  for (const sentence of sentencesOf(clauses)) {
    const text = sentence.map((clause) => clause.text).join('');
    for (const clause of sentence) {
      if (clause.polarity !== 'forbid') continue;
      if (clause.doubt !== undefined || clause.without !== undefined) {
        doubts.push(clause.doubt ?? 'a prohibition with "without" asks for something, it does not forbid what it names');
        continue;
      }
      const found =
        secretCheck(clause) ??
        commandCheck(clause, clause.text) ??
        pathsCheck(clause, clauses, forbiddenByLeadIn ? leadIn : undefined) ??
        patternCheck(clause, facts);
      if (found !== undefined) return found;
    }
    const found =
      scopeCheck(sentence, facts) ??
      requiresCheck(sentence, prose, leadIn) ??
      orderCheck(sentence, facts) ??
      dependencyCheck(sentence, text) ??
      siblingTestCheck(sentence, facts) ??
      httpHelperCheck(sentence, facts);
    if (found !== undefined) return found;
  }
  if (doubts.length > 0) return { kind: 'prose', why: `not read with confidence: ${doubts[0] ?? ''}` };
  return {
    kind: 'prose',
    why: 'no check kind fits what the sentence names (secret, paths, command, requires, order, forbidden-pattern, sibling-test, dependency, http-helper, scope): shown to the agent, never checked',
  };
}
