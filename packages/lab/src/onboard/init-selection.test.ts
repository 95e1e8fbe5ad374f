import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRulebook } from '@holdfast/core/rules';
import { git, makeGitRepo } from '../harness/test-support/git-repo.js';
import { initRepo } from './init-repo.js';
import type { CheckProposal } from './propose-check.js';
import { describeSelection, snapshotRepo } from './repo-snapshot.js';
import { discoverRuleFiles, ruleFileImports } from './rule-files.js';
import { scopeProposal } from './scope-check.js';

const FIXTURE = fileURLToPath(new URL('../../../../fixtures/init-selection/repo', import.meta.url));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The fixture as a git repository, with CLAUDE.md a link to AGENTS.md and a nested CLAUDE.md linking outside it. */
function fixtureRepo(): { root: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'holdfast-init-selection-'));
  dirs.push(base);
  const root = join(base, 'repo');
  cpSync(FIXTURE, root, { recursive: true });
  const outside = join(base, 'outside-rules.md');
  writeFileSync(outside, '# Rules from elsewhere\n\n- never run `rm -rf /`\n');
  symlinkSync('AGENTS.md', join(root, 'CLAUDE.md'));
  mkdirSync(join(root, 'internal/oauth'), { recursive: true });
  symlinkSync(outside, join(root, 'internal/oauth/CLAUDE.md'));
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'start');
  return { root, outside };
}

describe('what a task reads is chosen', () => {
  it('leaves out the lock file, the vendored tree, minified files and the docs tree, keeps code, tests and generated files, and says so', async () => {
    const { root } = fixtureRepo();
    const snapshot = await snapshotRepo(root);
    const reasons = Object.fromEntries(snapshot.skipped.map((file) => [file.path, file.reason]));
    expect(reasons).toMatchObject({
      'go.sum': 'lock',
      'vendor/github.com/acme/left/pad.go': 'vendored',
      'vendor/modules.txt': 'vendored',
      'web/app.min.js': 'minified',
      'web/theme.css': 'minified',
      'docs/config/README.md': 'docs',
      'AGENTS.md': 'rulebook',
      'CLAUDE.md': 'symlink',
      'internal/oauth/CLAUDE.md': 'symlink',
    });
    expect(Object.keys(snapshot.files)).toEqual(
      expect.arrayContaining([
        'go.mod',
        'main.go',
        'internal/ui/model.go',
        'internal/ui/model_test.go',
        'internal/ui/AGENTS.md',
        'internal/agent/hyper/provider.json',
      ]),
    );
    const line = describeSelection(snapshot);
    expect(line).toMatch(/Left out: 1 lock files \(\d+ kB: go\.sum\); 2 vendored \(\d+ kB: vendor\/github\.com\/, vendor\/\); 2 minified/);
    expect(line).toContain("Bring a part back with --include 'docs/**'");
    const included = await snapshotRepo(root, { include: ['docs/**', 'go.sum'] });
    expect(included.files['docs/config/README.md']).toContain('# Configuration');
    expect(included.files['go.sum']).toBeDefined();
  });

  it('past the budget keeps the root, manifests and rule files, source before tests, and drops generated files first', async () => {
    const { root } = fixtureRepo();
    const full = await snapshotRepo(root);
    const provider = Buffer.byteLength(full.files['internal/agent/hyper/provider.json'] ?? '');
    const test = Buffer.byteLength(full.files['internal/ui/model_test.go'] ?? '');
    const oneShort = await snapshotRepo(root, { maxBytes: full.bytes - 1 });
    expect(Object.keys(oneShort.files)).toEqual(Object.keys(full.files).filter((path) => path !== 'internal/agent/hyper/provider.json'));
    expect(oneShort.skipped).toEqual(expect.arrayContaining([{ path: 'internal/agent/hyper/provider.json', reason: 'generated', bytes: provider }]));
    // One byte short of the test too: a folder heavier than an eighth of the budget is taken file by file, source before tests.
    const budget = full.bytes - provider - 1;
    const sampled = await snapshotRepo(root, { maxBytes: budget });
    expect(sampled.bytes).toBeLessThanOrEqual(budget);
    expect(Object.keys(sampled.files)).toEqual(
      expect.arrayContaining(['go.mod', 'main.go', 'internal/ui/AGENTS.md', 'internal/cmd/stats/AGENTS.md', 'internal/ui/model.go']),
    );
    expect(sampled.skipped).toEqual(expect.arrayContaining([{ path: 'internal/ui/model_test.go', reason: 'sampled', bytes: test }]));
    expect(describeSelection(sampled)).toMatch(/sampled out \(.*to stay within .*: internal\/ui\//);
    // A path the caller must have (a commit's change) is kept whatever the budget.
    const kept = await snapshotRepo(root, { maxBytes: budget, keep: ['internal/ui/model_test.go'] });
    expect(kept.files['internal/ui/model_test.go']).toContain('TestWidth');
  });
});

describe('rule files are found where agents read them', () => {
  it('reads the root file once through the CLAUDE.md link, a nested CLAUDE.md’s @AGENTS.md import, nested AGENTS.md files, and nothing outside', async () => {
    const { root, outside } = fixtureRepo();
    const found = await discoverRuleFiles(root);
    expect(found.files.map((file) => [file.path.slice(root.length + 1), file.scope])).toEqual([
      ['AGENTS.md', undefined],
      ['internal/cmd/stats/AGENTS.md', 'internal/cmd/stats'],
      ['internal/cmd/stats/CLAUDE.md', 'internal/cmd/stats'],
      ['internal/ui/AGENTS.md', 'internal/ui'],
    ]);
    expect(found.notes).toEqual([
      `internal/oauth/CLAUDE.md is a link to ${outside}, outside the repository: not read (holdfast drafts only rule files inside it).`,
    ]);
  });

  it('init drafts the nested files, their checks scoped to their folders, and never reads the file outside', async () => {
    const { root, outside } = fixtureRepo();
    const result = await initRepo({ repoDir: root, env: {}, ollamaUrl: 'http://127.0.0.1:9' });
    expect(result.ruleFiles.read).toEqual(['AGENTS.md', 'internal/cmd/stats/AGENTS.md', 'internal/cmd/stats/CLAUDE.md', 'internal/ui/AGENTS.md']);
    expect(result.ruleFiles.notes).toHaveLength(1);
    const text = readFileSync(result.rulebookFile, 'utf8');
    expect(text).not.toContain(readFileSync(outside, 'utf8').trim().split('\n')[2]);
    const rulebook = parseRulebook(text, 'rulebook.yaml');
    const fromUi = [...rulebook.rules, ...(rulebook.proseRules ?? [])].filter((rule) => rule.source?.file === 'internal/ui/AGENTS.md');
    expect(fromUi.length).toBeGreaterThan(0);
    const checked = rulebook.rules.filter((rule) => rule.source?.file === 'internal/ui/AGENTS.md');
    expect(checked.length).toBeGreaterThan(0);
    for (const rule of checked) {
      const globs = 'files' in rule.check ? rule.check.files : undefined;
      expect(globs?.every((glob) => glob.startsWith('internal/ui/'))).toBe(true);
    }
  });

  it('follows a CLAUDE.md import to a file no other rule names, inside the repository only', async () => {
    const root = makeGitRepo(
      { 'CLAUDE.md': '# Claude\n\n@.claude/rules.md\n@../elsewhere.md\n', '.claude/rules.md': '- never use `console.log`\n' },
      'holdfast-imports-',
    );
    dirs.push(root);
    const found = await discoverRuleFiles(root);
    expect(found.files.map((file) => file.path.slice(root.length + 1))).toEqual(['CLAUDE.md', '.claude/rules.md']);
    expect(found.notes).toEqual(['CLAUDE.md imports ../elsewhere.md, which does not exist: not read.']);
  });

  it('reads @imports outside code, Markdown only, as Claude Code does', () => {
    expect(ruleFileImports('# x\n\n@AGENTS.md\nSee @docs/rules.md, and @octocat.\n`@ignored.md`\n```\n@also-ignored.md\n```\n@~/.claude/mine.md\n')).toEqual([
      'AGENTS.md',
      'docs/rules.md',
      '~/.claude/mine.md',
    ]);
  });
});

describe('a nested rule file’s checks judge its folder only', () => {
  const pattern: CheckProposal = {
    kind: 'check',
    name: 'NO-LOG',
    why: 'forbids `console.log`',
    check: { kind: 'forbidden-pattern', patterns: ['console\\.log'], flags: '', what: 'console.log', files: ['**/*.ts'], exclude: ['**/*.test.ts'] },
  };

  it('narrows file globs to the folder, and keeps a session-wide check as prose with the reason', () => {
    expect(scopeProposal(pattern, undefined)).toBe(pattern);
    const scoped = scopeProposal(pattern, 'packages/x');
    expect(scoped.kind === 'check' && scoped.check).toMatchObject({ files: ['packages/x/**/*.ts'], exclude: ['packages/x/**/*.test.ts'] });
    const order = scopeProposal(
      { kind: 'check', name: 'TESTS', why: 'tests first', check: { kind: 'order', command: 'pnpm test', example: 'pnpm test' } },
      'packages/x',
    );
    expect(order).toEqual({
      kind: 'prose',
      why: "drafted from packages/x/'s own rule file: a order check judges the whole session, not the files of one folder (tests first)",
    });
    const scope = scopeProposal({ kind: 'check', name: 'SRC', why: 'only src', check: { kind: 'scope', allow: ['src/**'] } }, 'packages/x');
    expect(scope.kind).toBe('prose');
  });
});
