import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Action, Rulebook } from '@holdfast/core/contract';
import { checkActions, parseRulebook } from '@holdfast/core/rules';
import { draftRulebook } from './draft-rulebook.js';
import { readRepoFacts } from './repo-facts.js';
import { findRuleFiles, readRuleFiles } from './rule-files.js';

const made: string[] = [];
afterAll(() => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

/** A small repository on disk, drafted the way `holdfast rulebook init` drafts it. */
async function draftRepository(files: Record<string, string>): Promise<Rulebook> {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-draft-'));
  made.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const drafted = draftRulebook(await readRuleFiles(findRuleFiles(root), root), readRepoFacts(root));
  return parseRulebook(drafted.yaml, 'holdfast/rulebook.yaml');
}

async function failures(rulebook: Rulebook, actions: readonly Action[], existing: Record<string, string>): Promise<string[]> {
  const results = await checkActions(actions, Object.keys(existing), rulebook, undefined, (path) => existing[path]);
  const kinds = new Map(rulebook.rules.map((rule) => [rule.id, rule.check.kind]));
  return [...new Set(results.filter((result) => !result.ok).map((result) => kinds.get(result.rule) ?? result.rule))].sort();
}

const PYPROJECT = '[project]\nname = "shop"\ndependencies = ["attrs>=23"]\n';
const PYTHON: Record<string, string> = {
  'AGENTS.md': [
    '# Working on shop',
    '',
    '- Never use `print()` in library code; use `logging`.',
    '- Every new module ships with a test.',
    '- Run `pytest` and `ruff check .` before committing.',
    '- Never edit `migrations/`.',
    '- Never run `git push --force` or `git reset --hard`.',
    '- New dependencies need an ADR in `docs/adr/`.',
    '',
  ].join('\n'),
  'pyproject.toml': PYPROJECT,
  'app/__init__.py': '',
  'app/orders.py': 'def total(items):\n    return sum(items)\n',
  'tests/test_orders.py': 'from app.orders import total\n\ndef test_total():\n    assert total([1, 2]) == 3\n',
  'migrations/0001_init.py': 'steps = []\n',
};

const GO_MOD = 'module example.com/shop\n\ngo 1.22\n\nrequire github.com/google/uuid v1.6.0\n';
const GO: Record<string, string> = {
  'AGENTS.md': [
    '# Rules',
    '',
    '- Never use `fmt.Println` in library code.',
    '- New code must ship with tests.',
    '- Run `go test ./...` and `go vet ./...` before you commit.',
    "- Don't touch generated files in `internal/gen/`.",
    '- No new dependencies.',
    '- Never use `--no-verify`.',
    '',
  ].join('\n'),
  'go.mod': GO_MOD,
  'cmd/shop/main.go': 'package main\n\nfunc main() {}\n',
  'internal/store/store.go': 'package store\n\nfunc Open() {}\n',
  'internal/store/store_test.go': 'package store\n\nimport "testing"\n\nfunc TestOpen(t *testing.T) { Open() }\n',
  'internal/gen/api.go': 'package gen\n',
};

describe('drafting a Python repository', () => {
  it('proposes checks globbed to Python that fire on a violating round and pass a clean one', async () => {
    const rulebook = await draftRepository(PYTHON);
    expect(rulebook.rules.map((rule) => rule.check.kind)).toEqual(['forbidden-pattern', 'sibling-test', 'requires', 'paths', 'command', 'dependency']);
    const tests = rulebook.rules.find((rule) => rule.check.kind === 'sibling-test')?.check;
    expect(tests).toMatchObject({ modules: ['app/**/*.py'], exempt: expect.arrayContaining(['**/test_*.py', '**/*_test.py']) });
    const existing = { 'pyproject.toml': PYPROJECT, 'app/orders.py': PYTHON['app/orders.py'] as string };
    const violating: Action[] = [
      { type: 'write', path: 'app/report.py', content: 'def report():\n    print("done")\n' },
      { type: 'write', path: 'migrations/0002_more.py', content: 'steps = [1]\n' },
      { type: 'write', path: 'pyproject.toml', content: '[project]\nname = "shop"\ndependencies = ["attrs>=23", "requests>=2.31"]\n' },
      { type: 'run', cmd: 'pytest' },
      { type: 'run', cmd: 'git push --force' },
      { type: 'commit', message: 'report' },
    ];
    expect(await failures(rulebook, violating, existing)).toEqual(['command', 'dependency', 'forbidden-pattern', 'paths', 'requires', 'sibling-test']);
    const clean: Action[] = [
      { type: 'write', path: 'app/report.py', content: 'import logging\n\ndef report():\n    logging.info("done")\n' },
      { type: 'write', path: 'tests/test_report.py', content: 'from app.report import report\n\ndef test_report():\n    report()\n' },
      { type: 'run', cmd: 'pytest' },
      { type: 'run', cmd: 'ruff check .' },
      { type: 'run', cmd: 'git push' },
      { type: 'commit', message: 'report' },
    ];
    expect(await failures(rulebook, clean, existing)).toEqual([]);
  });
});

describe('drafting a Go repository', () => {
  it('proposes checks globbed to Go that fire on a violating round and pass a clean one', async () => {
    const rulebook = await draftRepository(GO);
    expect(rulebook.rules.map((rule) => rule.check.kind)).toEqual(['forbidden-pattern', 'sibling-test', 'requires', 'paths', 'dependency', 'command']);
    expect(rulebook.rules.find((rule) => rule.check.kind === 'sibling-test')?.check).toMatchObject({ modules: ['**/*.go'], tests: ['{dir}/{stem}_test.go'] });
    const existing = { 'go.mod': GO_MOD, 'internal/gen/api.go': 'package gen\n' };
    const violating: Action[] = [
      { type: 'write', path: 'internal/cache/cache.go', content: 'package cache\n\nimport "fmt"\n\nfunc Get() { fmt.Println("miss") }\n' },
      { type: 'write', path: 'internal/gen/api.go', content: 'package gen\n\nconst Version = 2\n' },
      { type: 'write', path: 'go.mod', content: `${GO_MOD}require github.com/pkg/errors v0.9.1\n` },
      { type: 'run', cmd: 'go test ./...' },
      { type: 'run', cmd: 'git commit --no-verify -m cache' },
      { type: 'commit', message: 'cache' },
    ];
    expect(await failures(rulebook, violating, existing)).toEqual(['command', 'dependency', 'forbidden-pattern', 'paths', 'requires', 'sibling-test']);
    const clean: Action[] = [
      { type: 'write', path: 'internal/cache/cache.go', content: 'package cache\n\nfunc Get() string { return "" }\n' },
      { type: 'write', path: 'internal/cache/cache_test.go', content: 'package cache\n\nimport "testing"\n\nfunc TestGet(t *testing.T) { Get() }\n' },
      { type: 'run', cmd: 'go test ./...' },
      { type: 'run', cmd: 'go vet ./...' },
      { type: 'commit', message: 'cache' },
    ];
    expect(await failures(rulebook, clean, existing)).toEqual([]);
  });
});
