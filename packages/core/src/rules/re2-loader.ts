import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Script } from 'node:vm';
import { linearEngineAvailable } from './linear-engine.js';

/** A node of re2js's parsed form (its `Regexp` class): what RE2 understood a pattern to mean. */
export interface ParsedRegexp {
  readonly op: number;
  readonly flags: number;
  readonly subs: readonly ParsedRegexp[];
  /** LITERAL: the code points; CHAR_CLASS: pairs of inclusive ranges, the class already negated and case-folded. */
  readonly runes: ArrayLike<number>;
  readonly min: number;
  readonly max: number;
}

/**
 * re2js's parser, which the package does not export: the linear-engine translation (linear-source.ts)
 * walks what it parsed, so a pattern means there exactly what it means to RE2. Absent when a re2js
 * release renames these; patterns then stay on re2js.
 */
export interface Re2Syntax {
  readonly Parser: { parse(pattern: string, flags: number): ParsedRegexp };
  readonly Regexp: { readonly Op: Readonly<Record<string, number>> };
  readonly RE2Flags: { readonly PERL: number; readonly FOLD_CASE: number; readonly NON_GREEDY: number };
  readonly Unicode: { simpleFold(rune: number): number };
}

type Re2Module = typeof import('re2js') & { readonly holdfastSyntax?: Partial<Re2Syntax> };

// Appended inside the module's wrapper, where the bundle's classes are in scope.
const SYNTAX_EXPORT = ['Parser', 'Regexp', 'RE2Flags', 'Unicode'].map((name) => `${name}: typeof ${name} === 'undefined' ? undefined : ${name}`).join(', ');

/**
 * V8's compiled code for re2js, written by `npm run build` next to the hook entry: compiling re2js's
 * 260 KB is most of what loading it costs, and a hook pays it on every process. The cache sits in
 * holdfast's own dist/ (never a shared temporary folder: code is loaded from it); V8 refuses a cache
 * made by another node version or for other source, and re2js is then compiled as usual.
 */
export function re2CachePath(): string {
  return fileURLToPath(new URL('../../../gate/dist/hook/re2js.v8cache', import.meta.url));
}

function compiledScript(cache: Buffer | undefined): { script: Script; file: string } {
  // V8 refuses a code cache made under other V8 options, and the linear engine's option is switched
  // on when a translated pattern first runs, which may come before or after re2js is needed: re2js is
  // compiled (and its cache made) with the option always on.
  linearEngineAvailable();
  const require = createRequire(import.meta.url);
  // node:vm is required here, not imported: a hook that never needs RE2 never loads it.
  const { Script: VmScript } = require('node:vm') as typeof import('node:vm');
  const file = require.resolve('re2js');
  const source = readFileSync(file, 'utf8');
  const script = new VmScript(`(function (exports, require, module, __filename, __dirname) {${source}\n;exports.holdfastSyntax = { ${SYNTAX_EXPORT} };\n})`, {
    filename: file,
    ...(cache === undefined ? {} : { cachedData: cache }),
  });
  return { script, file };
}

function evaluate(script: Script, file: string): Re2Module {
  const module = { exports: {} as Re2Module };
  const factory = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  factory.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

let cacheRejected: boolean | undefined;

/** Whether V8 refused the code cache the last loadRe2 offered it (undefined: none was offered). */
export function re2CacheRejected(): boolean | undefined {
  return cacheRejected;
}

/** re2js's CommonJS build, compiled with the cached code when V8 accepts it. */
export function loadRe2(cachePath = re2CachePath()): Re2Module {
  let cache: Buffer | undefined;
  try {
    cache = readFileSync(cachePath);
  } catch {
    cache = undefined;
  }
  const { script, file } = compiledScript(cache);
  cacheRejected = cache === undefined ? undefined : script.cachedDataRejected;
  return evaluate(script, file);
}

/** For the build: compiles and exercises re2js, then writes V8's code for it (the functions used included). */
export function writeRe2Cache(cachePath = re2CachePath()): void {
  const { script, file } = compiledScript(undefined);
  const { RE2JS } = evaluate(script, file);
  RE2JS.compile('^\\s*(?:npm\\s+(?:run\\s+)?test|npx\\s+vitest)(?:[ \\t][^|;&]*)?$', RE2JS.CASE_INSENSITIVE).matcher('npm test -- --run').find();
  writeFileSync(cachePath, script.createCachedData());
}
