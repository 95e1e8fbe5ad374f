import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { detectEcosystem } from './ecosystem.js';
import type { Ecosystem } from './ecosystem.js';

/** What a drafted rulebook fills its checks' parameters from. */
export interface RepoFacts {
  /** The test command as a person types it (`npm test`, `pnpm test`), if package.json has a test script. */
  readonly testCommand: string | undefined;
  /** Where the test command came from, for the draft's notes. */
  readonly testCommandSource: string | undefined;
  /** Top-level source folders that exist (`src`, `lib`, `packages`…), in that order. */
  readonly sourceFolders: readonly string[];
  /** Source file extensions found under them (`ts`, `tsx`, `js`…). */
  readonly extensions: readonly string[];
  /** How the repository names its tests: `{dir}/{stem}.test.{ext}`, a `.spec` sibling, or `__tests__/`. */
  readonly testTemplate: string;
  readonly testTemplateSource: string;
  /** The language most source files are in, with its module and test globs (JavaScript keeps the fields above). */
  readonly ecosystem?: Ecosystem;
}

const SOURCE_FOLDERS = ['src', 'lib', 'app', 'packages', 'apps', 'server', 'client', 'components', 'pages', 'source'];
const SOURCE_EXTENSIONS = ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'build', 'coverage', 'out', 'vendor']);
const MAX_WALK = 20_000;

/** Every file path under `root`, relative with forward slashes, skipping dot folders, node_modules and build output. */
export function listRepoPaths(root: string): string[] {
  const paths: string[] = [];
  const walk = (dir: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (paths.length >= MAX_WALK) return;
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name)) walk(join(dir, entry.name), relative);
      } else if (entry.isFile()) paths.push(relative);
    }
  };
  walk(root, '');
  return paths.sort();
}

function packageManager(paths: ReadonlySet<string>): string {
  if (paths.has('pnpm-lock.yaml')) return 'pnpm';
  if (paths.has('yarn.lock')) return 'yarn';
  if (paths.has('bun.lockb') || paths.has('bun.lock')) return 'bun';
  return 'npm';
}

function testScript(packageJson: string | undefined): string | undefined {
  if (packageJson === undefined) return undefined;
  const parsed = jsonOrUndefined(packageJson) as { scripts?: Record<string, unknown> } | null | undefined;
  const script = typeof parsed === 'object' && parsed !== null ? parsed.scripts?.test : undefined;
  return typeof script === 'string' && !/no test specified/.test(script) ? script : undefined;
}

/** Facts from the repository's paths and its package.json text (undefined when it has none). */
export function repoFacts(paths: readonly string[], packageJson: string | undefined): RepoFacts {
  const set = new Set(paths);
  const script = testScript(packageJson);
  const manager = packageManager(set);
  const sourceFolders = SOURCE_FOLDERS.filter((folder) => paths.some((path) => path.startsWith(`${folder}/`)));
  const inSource = paths.filter((path) => sourceFolders.some((folder) => path.startsWith(`${folder}/`)));
  const extensions = SOURCE_EXTENSIONS.filter((extension) => inSource.some((path) => path.endsWith(`.${extension}`)));
  const count = (pattern: RegExp) => inSource.filter((path) => pattern.test(path)).length;
  // Test files in a tests/ (or test/, __tests__/) folder are not siblings: the check must look there.
  const inFolder = (name: string) => new RegExp(`/${name}/[^/]+\\.(test|spec)\\.[a-z]+$`);
  const testFolder = /\/(tests?|__tests__)\/[^/]+$/;
  const conventions: [number, string, string][] = [
    [inSource.filter((path) => /\.test\.[a-z]+$/.test(path) && !testFolder.test(path)).length, '{dir}/{stem}.test.{ext}', 'sibling *.test.* files'],
    [inSource.filter((path) => /\.spec\.[a-z]+$/.test(path) && !testFolder.test(path)).length, '{dir}/{stem}.spec.{ext}', 'sibling *.spec.* files'],
    [count(inFolder('__tests__')), '{dir}/__tests__/{stem}.test.{ext}', 'tests in __tests__/ folders'],
    [count(inFolder('tests')), '{dir}/tests/{stem}.test.{ext}', 'tests in tests/ folders beside the modules'],
  ];
  const [found, template, why] = conventions.reduce((best, next) => (next[0] > best[0] ? next : best));
  const ecosystem = detectEcosystem(paths, sourceFolders);
  return {
    testCommand: script === undefined ? ecosystem.testCommand : `${manager} test`,
    testCommandSource: script === undefined ? ecosystem.testCommandSource : `package.json scripts.test ("${script}"), run with ${manager}`,
    sourceFolders,
    extensions: extensions.length > 0 ? extensions : ['ts', 'tsx'],
    testTemplate: template,
    testTemplateSource: found > 0 ? `the repository has ${found} ${why}` : 'no tests found; the usual sibling *.test.* file',
    ...(ecosystem.name === 'javascript' ? {} : { ecosystem }),
  };
}

/** The facts of the repository at `root`, read from its files. */
export function readRepoFacts(root: string): RepoFacts {
  const packageFile = join(root, 'package.json');
  return repoFacts(listRepoPaths(root), existsSync(packageFile) ? readFileSync(packageFile, 'utf8') : undefined);
}
