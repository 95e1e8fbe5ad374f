/**
 * The language most of a repository's source is written in, and what its modules, tests and test
 * command look like there: a drafted check globbed to `*.ts` never fires in a Python or Go repository.
 */
export interface Ecosystem {
  readonly name: 'javascript' | 'python' | 'go' | 'rust';
  /** Globs of modules that need a test when new. */
  readonly modules: readonly string[];
  /** Globs of files that never need one (the tests themselves, package markers). */
  readonly exempt: readonly string[];
  /** Where a module's test may live (sibling-test templates). */
  readonly tests: readonly string[];
  /** The test command as a person types it, when the ecosystem has a standard one. */
  readonly testCommand: string | undefined;
  readonly testCommandSource: string | undefined;
}

const JAVASCRIPT_EXTENSIONS = ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'] as const;
const SKIPPED = /(^|\/)(node_modules|dist|build|vendor|\.venv|venv|__pycache__|target)\//;

const RUST: Omit<Ecosystem, 'modules'> = {
  name: 'rust',
  exempt: ['tests/**', 'benches/**', 'examples/**', '**/build.rs'],
  // Rust keeps unit tests in the module itself (#[cfg(test)]) and integration tests in tests/.
  tests: ['{dir}/{stem}.rs', 'tests/{stem}.rs'],
  testCommand: 'cargo test',
  testCommandSource: "the repository's Cargo.toml: Cargo's own test runner",
};

/**
 * The ecosystem of a repository: its build manifest at the root when it has one (Cargo.toml, go.mod:
 * a Rust crate with a few Python scripts is a Rust repository), otherwise the one with the most
 * source files among `paths` (JavaScript and TypeScript counted together).
 */
export function detectEcosystem(paths: readonly string[], sourceFolders: readonly string[]): Ecosystem {
  const source = paths.filter((path) => !SKIPPED.test(path));
  const count = (pattern: RegExp) => source.filter((path) => pattern.test(path)).length;
  const python = count(/\.py$/);
  const go = count(/\.go$/);
  const rust = count(/\.rs$/);
  const javascript = count(new RegExp(`\\.(${JAVASCRIPT_EXTENSIONS.join('|')})$`));
  const under = (extension: string) => (sourceFolders.length > 0 ? sourceFolders.map((folder) => `${folder}/**/*.${extension}`) : [`**/*.${extension}`]);
  const manifest = paths.includes('Cargo.toml') ? 'rust' : paths.includes('go.mod') ? 'go' : undefined;
  if (manifest === 'rust' || (manifest === undefined && rust > javascript && rust > python && rust > go)) return { ...RUST, modules: ['src/**/*.rs'] };
  if (manifest === undefined && python > javascript && python >= go) {
    const pytest = source.some((path) => /(^|\/)(test_[^/]+|[^/]+_test)\.py$/.test(path) || /(^|\/)(pytest\.ini|conftest\.py)$/.test(path));
    return {
      name: 'python',
      modules: under('py'),
      exempt: ['**/test_*.py', '**/*_test.py', '**/conftest.py', '**/__init__.py', '**/tests/**', '**/migrations/**'],
      tests: ['{dir}/test_{stem}.py', '{dir}/{stem}_test.py', 'tests/test_{stem}.py', 'tests/**/test_{stem}.py', '{dir}/tests/test_{stem}.py'],
      testCommand: 'pytest',
      testCommandSource: pytest ? 'the repository has pytest tests (test_*.py, *_test.py or conftest.py)' : "Python's usual runner (no tests found yet)",
    };
  }
  if (manifest === 'go' || (manifest === undefined && go > javascript && go > python)) {
    return {
      name: 'go',
      modules: under('go'),
      exempt: ['**/*_test.go', '**/testdata/**'],
      tests: ['{dir}/{stem}_test.go'],
      testCommand: 'go test ./...',
      testCommandSource: "Go's own test runner over every package",
    };
  }
  return { name: 'javascript', modules: [], exempt: [], tests: [], testCommand: undefined, testCommandSource: undefined };
}
