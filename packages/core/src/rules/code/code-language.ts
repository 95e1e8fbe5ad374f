import { createRequire } from 'node:module';
import type { SgRoot } from '@ast-grep/napi';

type AstGrep = typeof import('@ast-grep/napi');
let astGrep: AstGrep | undefined;

/** Thrown when ast-grep itself does not load: no file can be parsed, so no code is judged on its tree. */
class ParserUnavailable extends Error {}

/**
 * The native parser loads on the first parse, not at import: the live hook must not pay for it on calls that parse
 * nothing. Its binary is an optional dependency of `@ast-grep/napi` (one package per platform), so an install made
 * with `--omit=optional` has the module but not the parser: that is said with the command that brings it back.
 */
export function loadAstGrep(): AstGrep {
  if (astGrep !== undefined) return astGrep;
  try {
    astGrep = createRequire(import.meta.url)('@ast-grep/napi') as AstGrep;
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    throw new ParserUnavailable(
      `ast-grep's native parser for ${process.platform}-${process.arch} does not load (${reason.trim()}); it is an optional dependency of @ast-grep/napi, left out by \`--omit=optional\`: install it with \`npm install --include=optional\``,
    );
  }
  return astGrep;
}
import type { CodeLanguage } from '../../contract/index.js';
import { countParsedText } from './parsed-text.js';

/**
 * Which parser reads a file, from its extension. The JavaScript family is built into ast-grep;
 * Python, Go and Rust come from ast-grep's language packages, which ship prebuilt parsers inside
 * the npm package (no download, no compiler), and are registered the first time a file needs them.
 */
const EXTENSIONS: Readonly<Record<string, CodeLanguage>> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
};

/** Files that are prose or data, never code: no code rule is about them (a markdown page that names `fetch(`). */
const NOT_CODE = new Set([
  'md',
  'mdx',
  'markdown',
  'txt',
  'rst',
  'adoc',
  'json',
  'jsonc',
  'json5',
  'yaml',
  'yml',
  'toml',
  'csv',
  'tsv',
  'lock',
  'svg',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'ico',
  'css',
  'scss',
  'sass',
  'less',
]);

export const JAVASCRIPT_FAMILY: ReadonlySet<CodeLanguage> = new Set(['typescript', 'tsx', 'javascript']);

export type FileLanguage = { kind: 'code'; language: CodeLanguage } | { kind: 'not-code' } | { kind: 'unknown'; extension: string };

/** What a path is: code in a language holdfast parses, prose or data, or an extension it does not know. */
export function languageOf(path: string): FileLanguage {
  const file = path.slice(path.lastIndexOf('/') + 1);
  const dot = file.lastIndexOf('.');
  const extension = dot <= 0 ? '' : file.slice(dot + 1).toLowerCase();
  const language = EXTENSIONS[extension];
  if (language !== undefined) return { kind: 'code', language };
  if (NOT_CODE.has(extension)) return { kind: 'not-code' };
  return { kind: 'unknown', extension };
}

/** The language as a person reads it in a detail sentence. */
export function languageName(language: CodeLanguage): string {
  return LANGUAGE_NAMES[language];
}

const LANGUAGE_NAMES: Readonly<Record<CodeLanguage, string>> = {
  typescript: 'TypeScript',
  tsx: 'TSX',
  javascript: 'JavaScript',
  python: 'Python',
  go: 'Go',
  rust: 'Rust',
};

/**
 * ast-grep's language packages, with the version holdfast is tested on. They are optional peers of the core
 * (`@holdfast/core`'s peerDependencies, 21 MB of prebuilt parsers for every platform): the `holdfast` package
 * depends on all three, while a project that installs only the gate adds the ones its rulebook's `code` rules
 * name. A missing one is said, with the command that installs it, when a rulebook that needs it loads.
 */
export const DYNAMIC_PACKAGES: Readonly<Partial<Record<CodeLanguage, { readonly name: string; readonly version: string }>>> = {
  python: { name: '@ast-grep/lang-python', version: '0.0.6' },
  go: { name: '@ast-grep/lang-go', version: '0.0.6' },
  rust: { name: '@ast-grep/lang-rust', version: '0.0.7' },
};

type Registration = { ok: true } | { ok: false; reason: string };
let registrations: Partial<Record<CodeLanguage, Registration>> | undefined;

function isMissingPackage(error: unknown, name: string): boolean {
  return (error as { code?: unknown }).code === 'MODULE_NOT_FOUND' && error instanceof Error && error.message.includes(`'${name}'`);
}

/** Registers the dynamic languages that are installed, once, all together (ast-grep takes them in one call). */
function registerDynamicLanguages(): Partial<Record<CodeLanguage, Registration>> {
  if (registrations !== undefined) return registrations;
  const require = createRequire(import.meta.url);
  const modules: Record<string, Parameters<AstGrep['registerDynamicLanguage']>[0][string]> = {};
  const found: Partial<Record<CodeLanguage, Registration>> = {};
  for (const [language, { name, version }] of Object.entries(DYNAMIC_PACKAGES) as [CodeLanguage, { name: string; version: string }][]) {
    try {
      modules[language] = require(name) as (typeof modules)[string];
    } catch (error) {
      found[language] = {
        ok: false,
        reason: isMissingPackage(error, name)
          ? `its parser package ${name} is not installed; install it beside holdfast: \`npm install --save-dev ${name}@${version}\``
          : `${name} does not load: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  try {
    if (Object.keys(modules).length > 0) loadAstGrep().registerDynamicLanguage(modules);
    for (const language of Object.keys(modules) as CodeLanguage[]) found[language] = { ok: true };
  } catch (error) {
    for (const language of Object.keys(modules) as CodeLanguage[])
      found[language] = { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  registrations = found;
  return registrations;
}

/** The name ast-grep knows a language by. */
function astGrepLanguage(language: CodeLanguage): string {
  switch (language) {
    case 'typescript':
      return 'TypeScript';
    case 'tsx':
      return 'Tsx';
    case 'javascript':
      return 'JavaScript';
    case 'python':
    case 'go':
    case 'rust':
      return language;
  }
}

/** Not parsed: the content does not parse, or (`unavailable`) there is no parser to read it with at all. */
export type Parsed = { ok: true; root: SgRoot; errorLine: number | undefined } | { ok: false; reason: string; unavailable?: true };

/** Parses source text; never throws. `errorLine` is the first line the parser could not read, if any. */
export function parseCode(language: CodeLanguage, content: string): Parsed {
  if (DYNAMIC_PACKAGES[language] !== undefined) {
    const registered = registerDynamicLanguages()[language];
    if (registered?.ok !== true)
      return { ok: false, unavailable: true, reason: `the ${languageName(language)} parser is not available (${registered?.reason ?? 'not registered'})` };
  }
  try {
    const root = loadAstGrep().parse(astGrepLanguage(language), content);
    countParsedText(content.length);
    // Looked for when first read: R1's folding shares the tree and never asks.
    let errorLine: number | undefined | null = null;
    return {
      ok: true,
      root,
      get errorLine() {
        if (errorLine === null) {
          const error = root.root().find({ rule: { kind: 'ERROR' } });
          errorLine = error === null ? undefined : error.range().start.line + 1;
        }
        return errorLine;
      },
    };
  } catch (error) {
    if (error instanceof ParserUnavailable) return { ok: false, unavailable: true, reason: error.message };
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

const parsedByRound = new WeakMap<object, Map<string, Parsed>>();

/**
 * One parse per file content per check call: every rule of a round that reads the same file shares
 * the tree. `round` is the call's action list, which every rule of the call sees as the same object.
 */
export function parseOnce(round: object, language: CodeLanguage, content: string): Parsed {
  let cache = parsedByRound.get(round);
  if (cache === undefined) {
    cache = new Map();
    parsedByRound.set(round, cache);
  }
  const key = `${language}\u0000${content}`;
  let parsed = cache.get(key);
  if (parsed === undefined) {
    parsed = parseCode(language, content);
    cache.set(key, parsed);
  }
  return parsed;
}
