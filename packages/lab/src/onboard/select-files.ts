import picomatch from 'picomatch';
import { GLOB_OPTIONS } from '@holdfast/core/rules';
import { isSourcePath, isTestPath } from './file-kinds.js';

/**
 * Why a tracked text file is not what a task is about: the rules a team writes are about its code and tests, not
 * its lock files, the libraries it vendors, what a tool generated or minified, or its documentation site. Lock,
 * vendored, minified and docs files are left out; generated files are kept last (a build or a golden-file test may
 * read them), the first to go past the budget.
 */
export type LeftOutKind = 'lock' | 'vendored' | 'generated' | 'minified' | 'docs';

/** Lock files of the package managers: written by a tool, never by a person, and the heaviest text in many repositories. */
const LOCK_FILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'deno.lock',
  'Cargo.lock',
  'go.sum',
  'go.work.sum',
  'poetry.lock',
  'uv.lock',
  'pdm.lock',
  'Pipfile.lock',
  'composer.lock',
  'Gemfile.lock',
  'mix.lock',
  'pubspec.lock',
  'Podfile.lock',
  'Package.resolved',
  'flake.lock',
  'gradle.lockfile',
  'packages.lock.json',
]);

/** Folders that hold other people's code, copied in. */
const VENDORED_FOLDERS = new Set(['vendor', 'vendored', 'third_party', 'third-party', 'thirdparty', 'node_modules', 'bower_components', 'Pods']);
/** Folders that hold a tool's output. */
const GENERATED_FOLDERS = new Set(['dist', '__generated__', 'generated']);
/** Folders that hold a documentation site (prose for people, with its translations), not the code the rules are about. */
const DOCS_FOLDERS = new Set(['docs', 'doc', 'documentation', 'website']);
/** File names of minified bundles and source maps: no build or test reads them. */
const MINIFIED_NAME = /(?:\.min\.(?:[cm]?js|css)|\.bundle\.[cm]?js|\.map)$/i;
/** File names tools write: protocol-buffer and other generated bindings. */
const GENERATED_NAME = /(?:_pb2(?:_grpc)?\.pyi?|\.pb(?:\.gw)?\.go|\.generated\.\w+|\.g\.dart|\.designer\.cs)$/i;
/** Folders of examples, benchmarks and scripts: code, but not the code the rules are mostly about. */
const SIDE_FOLDERS = new Set(['examples', 'example', 'samples', 'benchmarks', 'benches', 'bench', 'demo', 'demos', 'scripts', 'fixtures', 'testdata']);

/** The manifests and configs a build reads: kept wherever they are, so a sampled package still names its dependencies. */
const MANIFESTS = new Set([
  'package.json',
  'pnpm-workspace.yaml',
  'Cargo.toml',
  'go.mod',
  'go.work',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'Makefile',
  'AGENTS.md',
  'CLAUDE.md',
]);

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Globs a root `.gitattributes` marks generated, vendored or documentation (GitHub Linguist's attributes). */
export function linguistGlobs(gitattributes: string | undefined): { readonly glob: string; readonly kind: LeftOutKind }[] {
  if (gitattributes === undefined) return [];
  const found: { glob: string; kind: LeftOutKind }[] = [];
  for (const line of gitattributes.split('\n')) {
    const [pattern, ...attributes] = line.trim().split(/\s+/);
    if (pattern === undefined || pattern === '' || pattern.startsWith('#')) continue;
    const glob = pattern.includes('/') ? pattern.replace(/^\//, '').replace(/\/$/, '/**') : `**/${pattern}`;
    for (const attribute of attributes) {
      const [name, value] = attribute.split('=');
      if (value === 'false' || name === undefined) continue;
      if (name === 'linguist-generated') found.push({ glob, kind: 'generated' });
      else if (name === 'linguist-vendored') found.push({ glob, kind: 'vendored' });
      else if (name === 'linguist-documentation') found.push({ glob, kind: 'docs' });
    }
  }
  return found;
}

/** What a path alone says about a file; undefined for code, tests and everything else a task keeps. */
export function kindByPath(
  path: string,
  linguist: readonly { readonly test: (path: string) => boolean; readonly kind: LeftOutKind }[] = [],
): LeftOutKind | undefined {
  const name = basename(path);
  if (LOCK_FILES.has(name)) return 'lock';
  const folders = path.split('/').slice(0, -1);
  if (folders.some((folder) => VENDORED_FOLDERS.has(folder))) return 'vendored';
  if (MINIFIED_NAME.test(name)) return 'minified';
  if (folders.some((folder) => GENERATED_FOLDERS.has(folder)) || GENERATED_NAME.test(name)) return 'generated';
  if (folders.some((folder) => DOCS_FOLDERS.has(folder)) && !MANIFESTS.has(name)) return 'docs';
  return linguist.find((entry) => entry.test(path))?.kind;
}

/** The marker generators write at the top of a file: Go's `Code generated … DO NOT EDIT.`, `@generated` (Meta, Rust, protobuf). */
const GENERATED_HEADER =
  /(?:^|\W)(?:@generated\b|Code generated .* DO NOT EDIT|auto-?generated (?:file|code|by)|this file (?:is|was) (?:automatically )?generated)/i;

/** What a file's text says: a generated header near the top, or minified script or style (lines a person never writes). */
export function kindByText(path: string, text: string): LeftOutKind | undefined {
  if (GENERATED_HEADER.test(text.slice(0, 600))) return 'generated';
  if (/\.(?:[cm]?js|css)$/i.test(path) && text.length > 2000) {
    const lines = text.split('\n');
    const longest = lines.reduce((most, line) => Math.max(most, line.length), 0);
    if (longest > 2000 && text.length / lines.length > 300) return 'minified';
  }
  return undefined;
}

export interface Candidate {
  readonly path: string;
  readonly bytes: number;
  /** Generated: kept only when the budget has room after everything else. */
  readonly generated?: boolean;
}

interface Unit {
  readonly folder: string;
  readonly files: readonly Candidate[];
  readonly bytes: number;
}

function unitOf(folder: string, files: readonly Candidate[]): Unit {
  return { folder, files, bytes: files.reduce((sum, file) => sum + file.bytes, 0) };
}

/** A folder whole, or split into its own files and its subfolders while it weighs more than `limit`. */
function splitFolder(folder: string, files: readonly Candidate[], limit: number): Unit[] {
  const unit = unitOf(folder, files);
  if (unit.bytes <= limit || files.length === 1) return [unit];
  const direct: Candidate[] = [];
  const below = new Map<string, Candidate[]>();
  for (const file of files) {
    const rest = file.path.slice(folder.length);
    const slash = rest.indexOf('/');
    if (slash < 0) direct.push(file);
    else {
      const child = `${folder}${rest.slice(0, slash + 1)}`;
      below.set(child, [...(below.get(child) ?? []), file]);
    }
  }
  // A folder's own files too heavy to take together (a flat tests/ of hundreds of files) are taken one by one.
  const own = unitOf(folder, direct);
  const ownUnits =
    direct.length === 0 ? [] : own.bytes <= limit || (below.size === 0 && direct.length === 1) ? [own] : direct.map((file) => unitOf(folder, [file]));
  return [...ownUnits, ...[...below.entries()].flatMap(([child, inside]) => splitFolder(child, inside, limit))];
}

/** Source folders first, then folders of tests, then the rest (examples, fixtures, assets), generated files last. */
function unitClass(unit: Unit): number {
  if (unit.files.every((file) => file.generated === true)) return 3;
  if (unit.folder.split('/').some((folder) => SIDE_FOLDERS.has(folder))) return 2;
  if (unit.files.some((file) => isSourcePath(file.path) && !isTestPath(file.path))) return 0;
  if (unit.files.some((file) => isTestPath(file.path))) return 1;
  return 2;
}

export interface Sample {
  readonly kept: readonly string[];
  /** Left out to stay within the budget, with the folders they make up (heaviest first). */
  readonly sampled: readonly string[];
}

export interface SampleOptions {
  /** Paths kept whatever they weigh: the root's own files, manifests, rule files, `--include`, a commit's changes. */
  readonly keep: (path: string) => boolean;
  /** How many recent commits touched each path: the code a team works on is what its rules are about. */
  readonly activity: ReadonlyMap<string, number>;
}

/**
 * Chooses what a task holds when its text weighs more than the budget: whole folders, split finer only while one
 * weighs more than an eighth of the budget, source before tests before the rest, the most recently changed first,
 * each taken when it still fits. One pass over the files; the same repository always gives the same choice.
 */
export function sampleToBudget(candidates: readonly Candidate[], budget: number, options: SampleOptions): Sample {
  const kept: string[] = [];
  let left = budget;
  const byTop = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const slash = candidate.path.indexOf('/');
    if (options.keep(candidate.path) || slash < 0) {
      kept.push(candidate.path);
      left -= candidate.bytes;
      continue;
    }
    // Generated files make units of their own, so they never ride in with the source beside them.
    const top = `${candidate.generated === true ? '\0' : ''}${candidate.path.slice(0, slash + 1)}`;
    byTop.set(top, [...(byTop.get(top) ?? []), candidate]);
  }
  const units = [...byTop.entries()].flatMap(([top, files]) => splitFolder(top.replace('\0', ''), files, Math.max(1, Math.floor(budget / 8))));
  const ranked = units
    .map((unit) => ({ unit, rank: unitClass(unit), activity: unit.files.reduce((sum, file) => sum + (options.activity.get(file.path) ?? 0), 0) }))
    .sort(
      (left, right) =>
        left.rank - right.rank ||
        right.activity - left.activity ||
        left.unit.bytes - right.unit.bytes ||
        (left.unit.folder < right.unit.folder ? -1 : left.unit.folder > right.unit.folder ? 1 : 0),
    );
  const sampled: string[] = [];
  for (const { unit } of ranked) {
    if (unit.bytes <= left) {
      kept.push(...unit.files.map((file) => file.path));
      left -= unit.bytes;
    } else sampled.push(...unit.files.map((file) => file.path));
  }
  return { kept, sampled };
}

/** Whether a path is kept whatever the budget: a file at the root, a manifest or rule file anywhere. */
export function alwaysKept(path: string): boolean {
  return !path.includes('/') || MANIFESTS.has(basename(path));
}

export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const matchers = globs.map((glob) => picomatch.makeRe(glob, GLOB_OPTIONS));
  return (path) => matchers.some((matcher) => matcher.test(path));
}
