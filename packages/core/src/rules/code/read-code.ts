import type { NapiConfig } from '@ast-grep/napi';
import type { CodeLanguage } from '../../contract/index.js';
import { lineAt } from '../checks/check-handler.js';
import { firstMatch } from '../regex.js';
import type { Pattern } from '../regex.js';
import { JAVASCRIPT_FAMILY, languageName, languageOf, parseOnce } from './code-language.js';
import { findForbidden } from './forbidden-references.js';
import type { CompiledForbidden } from './forbidden-references.js';

/** What a structural check looks for in one file, compiled once per rule. */
export interface CodeMatcher {
  readonly forbid: CompiledForbidden | undefined;
  /** An ast-grep rule config (rule, constraints, utils); undefined when the check only forbids. */
  readonly rule: NapiConfig | undefined;
  /** Only files of this language (TypeScript covers TSX too). */
  readonly language: CodeLanguage | undefined;
  /** Text patterns for a file that cannot be read as code. */
  readonly fallback: readonly Pattern[];
}

/** How one file was judged. `how` says whether the syntax tree or the text decided, and `note` why, for the detail. */
export type CodeReading =
  | { readonly state: 'skipped' }
  | { readonly state: 'clean'; readonly how: 'tree' | 'text' | 'not-code'; readonly note: string | undefined }
  | {
      readonly state: 'found';
      readonly how: 'tree' | 'text';
      readonly line: number;
      readonly spelling: string;
      readonly excerpt: string;
      readonly note: string | undefined;
    }
  | { readonly state: 'unjudgeable'; readonly reason: string };

/**
 * Judges one written file: on its syntax tree when it is code in a language holdfast reads, else
 * (it does not parse, or holdfast has no parser for it) by the fallback text patterns, and says
 * which. Prose and data files (markdown, JSON) hold no code and are clean. Never throws.
 */
export function readCode(round: object, path: string, content: string, matcher: CodeMatcher): CodeReading {
  const file = languageOf(path);
  if (file.kind === 'not-code') return matcher.language === undefined ? { state: 'clean', how: 'not-code', note: undefined } : { state: 'skipped' };
  if (file.kind === 'unknown') {
    if (matcher.language !== undefined) return { state: 'skipped' };
    return byText(content, matcher, `holdfast reads no code language from ".${file.extension}" files, so the text was checked`);
  }
  const language = file.language;
  if (matcher.language !== undefined && matcher.language !== language && !(matcher.language === 'typescript' && language === 'tsx'))
    return { state: 'skipped' };
  const javascript = JAVASCRIPT_FAMILY.has(language);
  if (matcher.rule === undefined && !javascript) {
    return byText(
      content,
      matcher,
      `the forbidden names are read on JavaScript and TypeScript trees only, so this ${languageName(language)} file's text was checked`,
    );
  }
  // Without a rule of its own, a file that cannot spell a forbidden name need not be parsed at all.
  if (matcher.rule === undefined && matcher.forbid !== undefined && !matcher.forbid.mayMention(content))
    return { state: 'clean', how: 'tree', note: undefined };
  const parsed = parseOnce(round, language, content);
  // No parser at all is not a file that fails to parse: judged by text, a rule without text patterns would pass it.
  if (!parsed.ok && parsed.unavailable === true) return { state: 'unjudgeable', reason: parsed.reason };
  if (!parsed.ok) return byText(content, matcher, `it cannot be parsed as ${languageName(language)} (${parsed.reason}), so the text was checked`);
  let note: string | undefined;
  if (parsed.errorLine !== undefined) {
    const where = `it does not parse as ${languageName(language)} (syntax error at line ${parsed.errorLine})`;
    if (matcher.fallback.length > 0) return byText(content, matcher, `${where}, so the text was checked`);
    note = `${where}; the tree the parser recovered was checked`;
  }
  try {
    const root = parsed.root.root();
    const found: { line: number; column: number; spelling: string }[] = [];
    if (matcher.forbid !== undefined && javascript) {
      const finding = findForbidden(root, matcher.forbid, language !== 'javascript', content);
      if (finding !== undefined) found.push(finding);
    }
    if (matcher.rule !== undefined) {
      const match = root.find(matcher.rule);
      if (match !== null) {
        const start = match.range().start;
        found.push({ line: start.line + 1, column: start.column, spelling: shorten(match.text()) });
      }
    }
    found.sort((left, right) => left.line - right.line || left.column - right.column);
    const first = found[0];
    if (first === undefined) return { state: 'clean', how: 'tree', note };
    return { state: 'found', how: 'tree', line: first.line, spelling: first.spelling, excerpt: excerptOf(content, first.line), note };
  } catch (error) {
    return { state: 'unjudgeable', reason: `the ${languageName(language)} rule cannot run on it (${error instanceof Error ? error.message : String(error)})` };
  }
}

function byText(content: string, matcher: CodeMatcher, note: string): CodeReading {
  if (matcher.fallback.length === 0)
    return { state: 'clean', how: 'text', note: `${note.replace(/, so the text was checked$/, '')}, and the rule has no text patterns to fall back on` };
  let match;
  try {
    match = firstMatch(content, matcher.fallback);
  } catch (error) {
    return { state: 'unjudgeable', reason: error instanceof Error ? error.message : String(error) };
  }
  if (match === undefined) return { state: 'clean', how: 'text', note };
  const { line, excerpt } = lineAt(content, match.index);
  return { state: 'found', how: 'text', line, spelling: excerpt, excerpt, note };
}

/** The trimmed text of a 1-based line, shortened as every detail sentence shortens it. */
function excerptOf(content: string, line: number): string {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    const next = content.indexOf('\n', offset);
    if (next === -1) break;
    offset = next + 1;
  }
  return lineAt(content, offset).excerpt;
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
}
