import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTasks } from '../experiment/tasks.js';
import { parseRulebook } from '@holdfast/core/rules';
import { initRepo } from './init-repo.js';
import { snapshotRepo } from './repo-snapshot.js';

const CORPUS = fileURLToPath(new URL('../../../../fixtures/rule-files/', import.meta.url));
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function commit(root: string, files: Record<string, string>, message: string): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  execFileSync('git', ['add', '--all'], { cwd: root });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--no-verify', '-m', message], { cwd: root });
}

/** A small TypeScript repository with four commits: one logs, one adds a module without a test and with `require()`. */
function repository(ruleDir: string, ruleFile: string): string {
  const root = mkdtempSync(join(tmpdir(), `holdfast-init-${ruleDir}-`));
  roots.push(root);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  copyFileSync(join(CORPUS, ruleDir, ruleFile), join(root, ruleFile));
  commit(
    root,
    {
      'package.json': '{"name":"demo","scripts":{"test":"vitest run"}}\n',
      '.npmrc': 'engine-strict=true\n',
      'src/index.ts': 'export const one = 1;\n',
      'src/index.test.ts': "import { one } from './index.js';\n",
    },
    'start',
  );
  commit(root, { 'src/index.ts': 'export const one = 1;\nconsole.log(one);\n' }, 'log it');
  commit(root, { 'src/load.ts': "const fs = require('node:fs');\nexport const read = fs.readFileSync;\n" }, 'load with require');
  commit(root, { 'README.md': '# demo\n' }, 'readme');
  return root;
}

/** A loopback port with nothing behind it, so the Ollama probe fails at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('holdfast init on real rule files, no key', () => {
  it.each([
    ['zod', 'AGENTS.md', ['R4 NO-CONSOLE-LOG'], ['log it']],
    ['vercel-ai', 'AGENTS.md', ['R4 NO-REQUIRE'], ['load with require']],
    ['claude-code-action', 'CLAUDE.md', [], []],
  ] as const)('%s: one run drafts, writes a task that validates, and checks the last commits', async (dir, file, _rules, refusedCommits) => {
    const root = repository(dir, file);
    const result = await initRepo({ repoDir: root, env: {}, ollamaUrl: `http://127.0.0.1:${await closedPort()}` });
    expect(result.targets).toEqual([]);
    const rulebook = parseRulebook(readFileSync(result.rulebookFile, 'utf8'), 'rulebook.yaml');
    // The task init wrote validates with the rulebook it drafted, .npmrc and all.
    const tasks = await loadTasks(join(result.dir, 'tasks'), { rulebook });
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.files['.npmrc']).toBe('engine-strict=true\n');
    expect(existsSync(join(result.task.dir, 'repo', '_npmrc'))).toBe(true);
    // The first result: the history check, commit by commit.
    expect(result.history.commits.map((verdict) => verdict.subject)).toEqual(['readme', 'load with require', 'log it', 'start']);
    const refused = result.history.commits.filter((verdict) => verdict.refusals.length > 0).map((verdict) => verdict.subject);
    for (const subject of refusedCommits) expect(refused).toContain(subject);
    if (dir === 'claude-code-action') expect(refused).toEqual([]);
    expect(result.table).toMatch(/^\d+ rules: 0 block, \d+ warn \(a drafted check warns until promoted/);
    // init's history check is the drafted checks' first trial, kept beside the rulebook.
    expect(existsSync(join(result.dir, 'rulebook.trials.json'))).toBe(true);
    expect(rulebook.rules.every((rule) => rule.enforcement === 'warn')).toBe(true);
  });

  it('a check that refuses most commits is flagged probably wrong', async () => {
    const root = repository('zod', 'AGENTS.md');
    const { checkHistory } = await import('./history-check.js');
    const rulebook = parseRulebook(
      "version: 1\nrules:\n  - id: R1\n    name: NO-CONST\n    prose: Never write const.\n    check: { kind: forbidden-pattern, patterns: ['\\bconst\\b', '#'], what: a const, files: ['**'] }\n",
      'r.yaml',
    );
    const check = await checkHistory(root, rulebook, 10);
    expect(check.rules).toEqual([{ id: 'R1', name: 'NO-CONST', commits: 4, probablyWrong: true }]);
    expect(check.commits[2]?.refusals[0]?.detail).toMatch(/R1 NO-CONST: write to "src\/index\.ts" adds a const at line \d+/);
  });

  it('prints no key of a commit message in full: subjects and details are redacted as verify redacts them (issue 46)', async () => {
    const root = repository('zod', 'AGENTS.md');
    const key = `gh${'p_'}R8fK2mQ9xL4vT7nW1pZ6cB3hJ5dY0gS8aE2u`;
    commit(root, { 'src/late.ts': `export const late = '${key}';\n` }, `deploy with ${key}`);
    const { checkHistory, formatHistoryCheck } = await import('./history-check.js');
    const rulebook = parseRulebook(
      "version: 1\nrules:\n  - { id: R1, name: SECRET, prose: No keys., check: { kind: forbidden-pattern, patterns: ['ghp_'], what: a key, files: ['**'] } }\n",
      'r.yaml',
    );
    const check = await checkHistory(root, rulebook, 10);
    expect(check.commits[0]?.subject).toMatch(/^deploy with ghp_/);
    expect(check.commits[0]?.refusals).toHaveLength(1);
    const printed = [JSON.stringify(check), ...formatHistoryCheck(check)].join('\n');
    expect(printed).not.toContain(key.slice(4));
  });

  it('a check refusing more than 5 % of the commits is probably wrong; rules decided at a commit are not judged, and no commit passes', async () => {
    const root = repository('zod', 'AGENTS.md');
    const { checkHistory, formatHistoryCheck, PROBABLY_WRONG_SHARE } = await import('./history-check.js');
    expect(PROBABLY_WRONG_SHARE).toBe(0.05);
    for (let index = 0; index < 20; index += 1) commit(root, { [`notes/n${index}.txt`]: `note ${index}\n` }, `note ${index}`);
    commit(root, { 'notes/late.txt': 'LATER\n' }, 'one flagged commit');
    const rulebook = parseRulebook(
      [
        'version: 1',
        'rules:',
        "  - { id: F1, name: NOLATER, prose: Never write LATER., check: { kind: forbidden-pattern, patterns: ['LATER'], what: a LATER, files: ['**'] } }",
        "  - { id: R6, name: ORDER, prose: Tests before a commit., check: { kind: order, command: '^npm test$', example: npm test } }",
        '',
      ].join('\n'),
      'r.yaml',
    );
    // One flag in 21 commits is under 5 %; a second one is over it.
    const once = await checkHistory(root, rulebook, 21);
    expect(once.rules).toEqual([{ id: 'F1', name: 'NOLATER', commits: 1, probablyWrong: false }]);
    expect(once.unjudged).toEqual([expect.stringMatching(/^R6 ORDER: a commit does not show which commands ran and passed before it/)]);
    const lines = formatHistoryCheck(once);
    expect(lines.some((line) => line.endsWith(': passes'))).toBe(false);
    expect(lines.filter((line) => line.endsWith(': no judged rule refuses it'))).toHaveLength(20);
    expect(lines).toContain(`  not judged: ${once.unjudged[0]}`);
    commit(root, { 'notes/later.txt': 'LATER again\n' }, 'a second flagged commit');
    const twice = await checkHistory(root, rulebook, 22);
    expect(twice.rules).toEqual([{ id: 'F1', name: 'NOLATER', commits: 2, probablyWrong: true }]);
    expect(formatHistoryCheck(twice).join('\n')).toMatch(/F1 NOLATER refuses 2 of 22 commits: probably wrong \(more than 5 % of the team's own history/);
  });

  it('past the budget, whole folders are sampled (the rest named), and the budget counts only text it would copy', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-cap-'));
    roots.push(root);
    execFileSync('git', ['init', '-q'], { cwd: root });
    commit(
      root,
      { 'a/big.txt': 'a'.repeat(4000), 'b/big.txt': 'b'.repeat(3000), 'c/big.txt': 'c'.repeat(2000), 'src/x.ts': 'x', 'bin/blob.bin': `\0${'z'.repeat(9000)}` },
      'start',
    );
    const sampled = await snapshotRepo(root, { maxBytes: 2500 });
    expect(Object.keys(sampled.files)).toEqual(['c/big.txt', 'src/x.ts']);
    expect(sampled.skipped.filter((file) => file.reason === 'sampled').map((file) => file.path)).toEqual(['a/big.txt', 'b/big.txt']);
    // The 9 kB binary is not copied, so it does not count.
    expect((await snapshotRepo(root, { maxBytes: 9500 })).bytes).toBe(9001);
  });
});
