import type { ForbiddenCommand, RequiredCommand, RuleCheck } from '@holdfast/core/contract';
import type { RepoFacts } from './repo-facts.js';

/** A proposal of one of the issue #28 kinds, in the shape propose-check returns. */
export interface KindProposal {
  readonly kind: 'check';
  readonly name: string;
  readonly check: RuleCheck;
  readonly why: string;
}

const NEGATION = /\b(never|don'?t|do not|must not|mustn'?t|should not|shouldn'?t|no|avoid|not allowed|forbidden|prohibited|without)\b/;
const PROGRAMS = /^(git|npm|pnpm|yarn|bun|npx|rm|docker|kubectl|terraform|cargo|go|pip|pip3|poetry|uv|make|helm|gh|sudo|chmod)(\s|$)/;
const RUNNERS =
  /^(npm|pnpm|yarn|bun|npx|node|make|cargo|go|pytest|python3?|vitest|jest|deno|turbo|nx|ruff|mypy|tox|nox|poetry|uv|tsc|eslint|prettier|black|flake8|golangci-lint|gofmt)\b/;
const COMMIT_WORDS = /\b(commit\w*|push\w*|prs?|pull requests?|merg\w*)\b/;
const BEFORE_WORDS = /\b(before|prior to|first|until|then)\b/;
const EDIT_WORDS = /\b(edit|modif|chang|touch|writ|creat|delet|remov|regenerat)\w*/;
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
/** npm-style managers whose scripts run as `X run script` as well as `X script`. */
const MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const MANAGER_BUILTINS = new Set(['test', 'install', 'ci', 'publish', 'add', 'exec', 'run', 'audit']);

function codeSpans(text: string): { text: string; index: number }[] {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => ({ text: (match[1] ?? '').trim(), index: match.index }));
}

/** "Never run `git reset --hard`, `--no-verify` or `npm publish`": the parsed-command kind. */
export function proposeCommand(text: string, lower: string): KindProposal | undefined {
  const negation = NEGATION.exec(lower);
  if (negation === null) return undefined;
  const forbid: ForbiddenCommand[] = [];
  for (const span of codeSpans(text).filter((candidate) => candidate.index > negation.index)) {
    // "Don't rely on `git push -u` alone" advises how, it forbids nothing.
    if (/\b(rely|relying|depend|alone|only)\b/.test(lower.slice(negation.index, span.index))) continue;
    const entry = forbiddenCommand(span.text, lower);
    if (entry !== undefined && !forbid.some((known) => known.command === entry.command && String(known.flags) === String(entry.flags))) forbid.push(entry);
  }
  if (forbid.length === 0) return undefined;
  const shown = forbid.map((entry) => `\`${entry.command}${entry.flags === undefined ? '' : ` ${entry.flags[0] ?? ''}`}\``).join(', ');
  return { kind: 'check', name: 'COMMANDS', check: { kind: 'command', forbid }, why: `forbids running ${shown}, judged on the parsed command (not the text)` };
}

function forbiddenCommand(span: string, lower: string): ForbiddenCommand | undefined {
  const words = span.split(/\s+/).filter((word) => word !== '');
  if (words.length === 1 && /^--[a-z][a-z-]+$/.test(words[0] ?? '')) {
    return { command: 'git', flags: [words[0] as string], outside: false };
  }
  if (!PROGRAMS.test(span)) return undefined;
  const command: string[] = [];
  const flags: string[] = [];
  for (const word of words) {
    if (word.startsWith('-')) flags.push(...(FLAG_ALIASES[word] ?? [word]));
    else if (flags.length === 0 && command.length < 2 && /^[A-Za-z0-9_.:+-]+$/.test(word)) command.push(word);
  }
  if (command.length === 0) return undefined;
  const unique = [...new Set(flags)].filter((flag) => /^-{1,2}[A-Za-z0-9][A-Za-z0-9-]*$/.test(flag));
  const outside = command[0] === 'rm' && /\boutside\b/.test(lower);
  return { command: command.join(' '), ...(unique.length > 0 ? { flags: unique } : {}), outside };
}

/** "Run `pnpm type-check` and `pnpm lint` before committing": every named command must have passed. */
export function proposeRequires(text: string, lower: string, facts: RepoFacts): KindProposal | undefined {
  if (!COMMIT_WORDS.test(lower) || !BEFORE_WORDS.test(lower)) return undefined;
  const named = codeSpans(text).filter((span) => RUNNERS.test(span.text) && !/^git\b/.test(span.text));
  const testOnly = named.length === 1 && /\btest\b/.test(named[0]?.text ?? '') && facts.ecosystem === undefined;
  if (named.length === 0 || testOnly) return undefined;
  const commands: RequiredCommand[] = named.map((span) => ({ run: spellings(span.text) }));
  return {
    kind: 'check',
    name: 'CHECKED',
    check: { kind: 'requires', commands },
    why: `asks for ${named.map((span) => `\`${span.text}\``).join(', ')} to pass before a commit, in the project root, after the last change`,
  };
}

/** A script of an npm-style manager has two spellings: `pnpm lint` and `pnpm run lint`. */
function spellings(command: string): string[] {
  const [manager, script, ...rest] = command.split(/\s+/);
  if (manager === undefined || script === undefined || !MANAGERS.has(manager)) return [command];
  if (script === 'run' && rest[0] !== undefined) return [command, [manager, ...rest].join(' ')];
  if (MANAGER_BUILTINS.has(script) && script !== 'test') return [command];
  return [command, [manager, 'run', script, ...rest].join(' ')];
}

/** "No new dependencies" or "new dependencies need an ADR": the dependency kind, with the record's folder when named. */
export function proposeDependency(text: string, lower: string): KindProposal | undefined {
  // A new dependency in the manifest's sense: "add a new dependency", "installing packages" — not a
  // circular import ("circular dependencies"), nor a description of packages the repository ships.
  if (/\bcircular\b/.test(lower)) return undefined;
  if (!/\b(new|add\w*|introduc\w*|install\w*|extra)\s+(\S+\s+){0,2}(dependenc(y|ies)|deps|packages?|librar(y|ies)|modules? from (npm|pypi))\b/.test(lower))
    return undefined;
  const record = /\b(adrs?|decision records?|rfcs?)\b/.test(lower);
  if (!NEGATION.test(lower) && !record && !/\b(need|require|approv)\w*/.test(lower)) return undefined;
  const folder = codeSpans(text).find((span) => span.text.includes('/') && !span.text.includes(' '));
  const needs = record ? [folder === undefined ? 'docs/adr/**' : `${folder.text.replace(/^\.\//, '').replace(/\/+(\*\*)?$/, '')}/**`] : undefined;
  return {
    kind: 'check',
    name: 'DEPENDENCIES',
    check: {
      kind: 'dependency',
      manifests: ['package.json', 'pyproject.toml', 'requirements', 'go.mod', 'Cargo.toml'],
      changed: true,
      ...(needs === undefined ? {} : { needs }),
    },
    why:
      needs === undefined
        ? 'refuses a new or changed dependency in any manifest (package.json, pyproject.toml, requirements*.txt, go.mod, Cargo.toml)'
        : `lets a new dependency through only with a decision record (${needs.join(', ')}) in the same change`,
  };
}

/** "Never edit `migrations/`", "don't touch lockfiles": the paths kind's deny list. */
export function proposeDeny(text: string, lower: string, folders: readonly string[]): KindProposal | undefined {
  const negation = NEGATION.exec(lower);
  if (negation === null || !EDIT_WORDS.test(lower.slice(negation.index))) return undefined;
  const deny = folders.map((folder) => (folder.endsWith('/**') ? folder : `${folder.replace(/\/$/, '')}/**`));
  for (const span of codeSpans(text)) {
    if (span.index < negation.index || span.text.includes(' ') || span.text.endsWith('/')) continue;
    if (/\.(lock|ya?ml|json|sum|toml)$|^\.github\//.test(span.text)) deny.push(span.text.includes('/') ? span.text : `**/${span.text}`);
  }
  if (/\block ?files?\b/.test(lower)) deny.push(...LOCKFILES);
  const unique = [...new Set(deny)];
  if (unique.length === 0) return undefined;
  return {
    kind: 'check',
    name: 'PROTECTED',
    check: { kind: 'paths', deny: unique, what: 'a protected path' },
    why: `protects ${unique.join(', ')} from writes and deletes (matched ignoring case)`,
  };
}
