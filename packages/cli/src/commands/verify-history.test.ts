import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { defaultRulebookPath } from '@holdfast/core/rules';
import { git, gitTestEnv } from '@holdfast/gate/test-support';
import { main } from '../main.js';

const FIXTURE = new URL('../../../../fixtures/verify-history/', import.meta.url);

interface Finding {
  readonly rule: string;
  readonly path?: string;
  readonly line?: number;
  readonly level: string;
  readonly detail: string;
}

interface Report {
  readonly commits: readonly { readonly commit: string; readonly subject: string; readonly findings: readonly Finding[]; readonly unlisted: number }[];
  readonly tree: { readonly changes: number; readonly findings: readonly Finding[]; readonly unlisted: number };
  readonly violations: number;
  readonly warnings: number;
}

/** What a report says, without the rulebook it echoes: each commit's findings, the final tree's, the counts. */
function findingsOf(report: Report) {
  const finding = ({ rule, path, line, level, detail }: Finding) => ({ rule, path, line, level, detail });
  return {
    commits: report.commits.map(({ commit, subject, findings, unlisted }) => ({ commit, subject, findings: findings.map(finding), unlisted })),
    tree: { changes: report.tree.changes, findings: report.tree.findings.map(finding), unlisted: report.tree.unlisted },
    violations: report.violations,
    warnings: report.warnings,
  };
}

/**
 * hono's history replayed (fixtures/verify-history/README.md), with a commit on its first that adds the
 * default rulebook at a fixed date, so every commit id is the same on every machine.
 */
function honoHistory(): { root: string; base: string; head: string } {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-verify-history-'));
  const env = gitTestEnv({ GIT_AUTHOR_DATE: '1700000000 +0000', GIT_COMMITTER_DATE: '1700000000 +0000' });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env });
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: root, env, input: gunzipSync(readFileSync(new URL('hono.fast-import.gz', FIXTURE))) });
  const first = git(root, 'rev-list', '--max-parents=0', 'main');
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: root, env, input: readFileSync(defaultRulebookPath()) })
    .toString('utf8')
    .trim();
  const index = { ...env, GIT_INDEX_FILE: join(root, '.git', 'rulebook-index') };
  execFileSync('git', ['read-tree', first], { cwd: root, env: index });
  execFileSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},holdfast/rulebook.yaml`], { cwd: root, env: index });
  const tree = execFileSync('git', ['write-tree'], { cwd: root, env: index }).toString('utf8').trim();
  const base = execFileSync('git', ['commit-tree', tree, '-p', first, '-m', 'rulebook'], { cwd: root, env }).toString('utf8').trim();
  return { root, base, head: git(root, 'rev-parse', 'main') };
}

describe('holdfast verify on a real history', () => {
  // No time limit: 60-odd real commits are judged, at whatever speed a loaded machine gives.
  it("finds in hono's replayed commits exactly what verify found before its judging was made cheaper", { timeout: 0 }, async () => {
    const { root, base, head } = honoHistory();
    try {
      expect(base).toBe('aeb8546f143367c918acb7d7434d73fcd7200f20');
      const io = memoryIo({ cwd: root, env: gitTestEnv() });
      const code = await main(['verify', '--base', base, '--head', head, '--format', 'json'], io);
      expect(io.err()).toBe('');
      expect(code).toBe(1);
      const expected: unknown = JSON.parse(readFileSync(new URL('expected-findings.json', FIXTURE), 'utf8'));
      expect(findingsOf(JSON.parse(io.out()) as Report)).toEqual(expected);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
