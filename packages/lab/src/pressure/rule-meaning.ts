import type { RuleCheck } from '@holdfast/core/contract';

/**
 * Kinds that mean one thing whatever their parameters: every `secret` check is "no credentials in
 * what you write", every `order` check "tests before the commit". Two rules of one of these kinds
 * are the same rule for a pressure fixture, though their globs or commands differ.
 */
const SINGLE_MEANING = new Set<RuleCheck['kind']>(['secret', 'scope', 'sibling-test', 'http-helper', 'order']);

/** Kinds that forbid some code in written files; two are the same rule when they forbid the same thing. */
const FORBIDS_CODE = new Set<RuleCheck['kind']>(['code', 'forbidden-pattern']);

const CODE_TOKEN = /`([^`]+)`|([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)/g;

/** A regular expression that only spells a literal (`\bconsole\s*\.\s*log\b`) as that literal; else undefined. */
function literalOf(source: string): string | undefined {
  const text = source
    .replace(/\\b/g, '')
    .replace(/\\s[*+?]/g, '')
    .replace(/\\([.()[\]{}$^*+?|\\/])/g, '$1');
  return /^[\w$.]+(?:\(\)?)?$/.test(text) ? text.replace(/\(\)?$/, '') : undefined;
}

/** What a code-forbidding check forbids, as lower-case literals: names, modules, and what its words and patterns spell. */
export function forbiddenLiterals(check: RuleCheck): Set<string> {
  const found = new Set<string>();
  const add = (text: string | undefined): void => {
    if (text !== undefined && text.trim() !== '') found.add(text.trim().toLowerCase());
  };
  if (check.kind === 'code') {
    for (const name of [...(check.forbid?.names ?? []), ...(check.forbid?.modules ?? [])]) add(name);
    for (const source of check.fallback) add(literalOf(source));
  }
  if (check.kind === 'forbidden-pattern') for (const source of check.patterns) add(literalOf(source));
  if (check.kind === 'code' || check.kind === 'forbidden-pattern') {
    for (const match of check.what.matchAll(CODE_TOKEN)) add(literalOf(match[1] ?? match[2] ?? ''));
  }
  return found;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Whether two checks enforce the same rule, so a pressure fixture written for one applies to the
 * other. Never decided by id or name: a team's "R4" may be anything. Single-meaning kinds match
 * by kind; code-forbidding checks when they forbid a literal in common (`console.log`); the other
 * kinds (paths, command, requires, dependency, custom) only when their parameters are equal, and
 * otherwise need an explicit mapping.
 */
export function sameRuleMeaning(a: RuleCheck, b: RuleCheck): boolean {
  if (FORBIDS_CODE.has(a.kind) && FORBIDS_CODE.has(b.kind)) {
    const left = forbiddenLiterals(a);
    return [...forbiddenLiterals(b)].some((literal) => left.has(literal));
  }
  if (a.kind !== b.kind) return false;
  if (SINGLE_MEANING.has(a.kind)) return true;
  return canonical(a) === canonical(b);
}

/** The meaning in words, for messages: "a secret check", "a code check forbidding console.log". */
export function describeMeaning(check: RuleCheck): string {
  if (FORBIDS_CODE.has(check.kind)) {
    const literals = [...forbiddenLiterals(check)];
    return `a ${check.kind} check forbidding ${literals.length === 0 ? 'code' : literals.join(', ')}`;
  }
  return `a ${check.kind} check`;
}
