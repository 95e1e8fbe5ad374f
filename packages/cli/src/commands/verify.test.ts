import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { commitFiles, git, gitTestEnv, projectRepo } from '@holdfast/gate/test-support';
import { findBubblewrap } from '@holdfast/gate';
import { main } from '../main.js';

async function verify(root: string, ...args: string[]) {
  const io = memoryIo({ cwd: root, env: gitTestEnv() });
  const code = await main(['verify', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('holdfast verify', () => {
  it('passes a clean range and says R6 was not judged', async () => {
    const root = projectRepo();
    const base = git(root, 'rev-parse', 'HEAD');
    git(root, 'checkout', '-q', '-b', 'feature');
    commitFiles(root, { 'src/billing.ts': 'export const billing = 2;\n', 'src/billing.test.ts': "import './billing';\n" }, 'billing');
    const result = await verify(root, '--base', base);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/ok {4}[0-9a-f]{12} billing \(2 file change/);
    expect(result.out).toMatch(/R6 ORDER: which commands passed before each commit is not in the history.*add --run-required/);
    expect(result.out).toMatch(/no judged rule broken; 1 rule\(s\) not judged \(notes above\), so this is not a pass for them\./);
    expect(result.out).not.toMatch(/clean/);
  });

  it('never says clean for a rulebook whose only rule a history cannot judge', async () => {
    const root = projectRepo();
    writeFileSync(
      join(root, 'holdfast', 'rulebook.yaml'),
      "version: 1\nrules:\n  - { id: R6, name: ORDER, prose: Tests before commit., check: { kind: order, command: '^npm test$', example: npm test } }\n",
    );
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--no-verify', '-m', 'only an order rule');
    const base = git(root, 'rev-parse', 'HEAD');
    commitFiles(root, { 'src/billing.ts': 'export const billing = 2;\n' }, 'billing');
    const result = await verify(root, '--base', base);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/R6 ORDER: which commands passed before each commit is not in the history/);
    expect(result.out).toMatch(/holdfast verify: nothing judged: every rule \(1\) needs what a history cannot show/);
    expect(result.out).not.toMatch(/clean/);
  });

  it('reports a warn rule as a warning (SARIF level warning, "warn" in text, JUnit and Markdown) and exits 0 on it alone; a block rule still fails', async () => {
    const root = projectRepo();
    const book = readFileSync(join(root, 'holdfast', 'rulebook.yaml'), 'utf8').replace(/(\n {2}- id: R4\n)/, '$1    enforcement: warn\n');
    expect(book).toMatch(/- id: R4\n {4}enforcement: warn\n/);
    const forcePush = '  - { id: R9, name: NOFORCE, prose: Never force-push., check: { kind: command, forbid: [{ command: git push, flags: [--force] }] } }\n';
    writeFileSync(join(root, 'holdfast', 'rulebook.yaml'), book.replace('\nagents:', `${forcePush}\nagents:`));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--no-verify', '-m', 'R4 warns');
    const base = git(root, 'rev-parse', 'HEAD');
    commitFiles(root, { 'src/orders.ts': 'export const orders = 1;\nconsole.log(orders);\n' }, 'debug');
    const text = await verify(root, '--base', base);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/ warn {2}[0-9a-f]{12} debug/);
    expect(text.out).toMatch(/warn: R4 NOLOG: .*src\/orders\.ts/);
    expect(text.out).toMatch(/R9 NOFORCE: a commit holds files, not the commands that were run/);
    expect(text.out).toMatch(/2 warning\(s\) from rules at warn level \(reported, not failing/);
    expect(text.out).not.toMatch(/clean/);
    const sarif = JSON.parse((await verify(root, '--base', base, '--format', 'sarif')).out);
    const run = sarif.runs[0];
    expect(run.results.map((result: { ruleId: string; level: string }) => [result.ruleId, result.level])).toEqual([
      ['R4', 'warning'],
      ['R4', 'warning'],
    ]);
    expect(run.tool.driver.rules.find((rule: { id: string }) => rule.id === 'R4').defaultConfiguration.level).toBe('warning');
    expect(run.tool.driver.rules.find((rule: { id: string }) => rule.id === 'R1').defaultConfiguration.level).toBe('error');
    const junit = await verify(root, '--base', base, '--format', 'junit');
    expect(junit.code).toBe(0);
    expect(junit.out).toMatch(/<testsuites name="holdfast verify" tests="\d+" failures="0">/);
    expect(junit.out).toMatch(/<system-out>warn: R4 NOLOG/);
    expect((await verify(root, '--base', base, '--format', 'md')).out).toMatch(/- warn: \*\*R4 NOLOG\*\*/);
    commitFiles(root, { 'lib/outside.ts': 'export const outside = 1;\n' }, 'out of scope');
    const blocked = await verify(root, '--base', base, '--format', 'sarif');
    expect(blocked.code).toBe(1);
    expect(
      JSON.parse(blocked.out)
        .runs[0].results.filter((result: { level: string }) => result.level === 'error')
        .map((result: { ruleId: string }) => result.ruleId),
    ).toContain('R2');
  });

  it('judges each commit on its own: a violation fixed later still fails the range, the final tree is clean', async () => {
    const root = projectRepo();
    const base = git(root, 'rev-parse', 'HEAD');
    const bad = commitFiles(root, { 'src/orders.ts': 'export const orders = 1;\nconsole.log(orders);\n' }, 'debug');
    commitFiles(root, { 'src/orders.ts': 'export const orders = 1;\n' }, 'undebug');
    const result = await verify(root, '--base', base, '--format', 'json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out);
    expect(report.commits.map((commit: { commit: string; findings: unknown[] }) => [commit.commit, commit.findings.length])).toEqual([
      [bad, 1],
      [expect.any(String), 0],
    ]);
    expect(report.commits[0].findings[0]).toMatchObject({ rule: 'R4', name: 'NOLOG', path: 'src/orders.ts', line: 2 });
    expect(report.tree.findings).toEqual([]);
  });

  it('compares file names as bytes: src/mod\\xff.ts does not take src/mod\\xfe.test.ts as its test (issue 46)', async () => {
    const root = projectRepo();
    const base = git(root, 'rev-parse', 'HEAD');
    const named = (name: string) => Buffer.concat([Buffer.from(join(root, 'src/'), 'utf8'), Buffer.from(name, 'latin1')]);
    writeFileSync(named('mod\xff.ts'), 'export const mod = 1;\n');
    writeFileSync(named('mod\xfe.test.ts'), "import './mod';\n");
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'two names that are not UTF-8');
    const result = await verify(root, '--base', base, '--format', 'json');
    expect(result.code).toBe(1);
    const findings = JSON.parse(result.out).commits[0].findings as { rule: string; path: string }[];
    expect(findings.map((finding) => finding.rule)).toEqual(['R3']);
    // The same bytes pair as they should: the module's own test is found.
    writeFileSync(named('mod\xff.test.ts'), "import './mod';\n");
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'its own test');
    const paired = await verify(root, '--base', `${base}`, '--format', 'json');
    expect(JSON.parse(paired.out).tree.findings).toEqual([]);
  });

  it('uses the rulebook as of the base: a branch that deletes a rule from it is judged by the rule', async () => {
    const root = projectRepo();
    const base = git(root, 'rev-parse', 'HEAD');
    const weakened = readFileSync(join(root, 'holdfast', 'rulebook.yaml'), 'utf8').replace(/\n {2}- id: R4[\s\S]*?(?=\n {2}- id: R5)/, '');
    expect(weakened).not.toMatch(/id: R4/);
    commitFiles(root, { 'holdfast/rulebook.yaml': weakened, 'src/orders.ts': 'console.log(1);\n' }, 'drop R4 and log');
    const result = await verify(root, '--base', base, '--format', 'md');
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/\*\*R4 NOLOG\*\* `src\/orders\.ts:1`/);
    // the rulebook edit is itself outside src/ (R2), as of the base's rules
    expect(result.out).toMatch(/\*\*R2 SCOPE\*\* `holdfast\/rulebook\.yaml`/);
  });

  it('refuses a base without the rulebook, and a ref that is not there, with what to do (exit 2)', async () => {
    const root = projectRepo();
    const base = git(root, 'rev-parse', 'HEAD');
    const missing = await verify(root, '--base', base, '--rulebook', 'rules/none.yaml');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/has no rulebook at rules\/none\.yaml.*commit the rulebook to the base branch first/);
    const unknown = await verify(root, '--base', 'no-such-ref');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/--base no-such-ref is not a commit.*fetch-depth: 0/);
    expect((await verify(root)).code).toBe(2);
    expect((await verify(root, '--base', base, '--format', 'xml')).code).toBe(2);
  });

  it('judges a merge on what it wrote itself, not on the other side it brought in', async () => {
    const root = projectRepo();
    const base = git(root, 'rev-parse', 'HEAD');
    git(root, 'checkout', '-q', '-b', 'feature');
    commitFiles(root, { 'src/billing.ts': 'export const billing = 2;\n', 'src/billing.test.ts': "import './billing';\n" }, 'billing');
    git(root, 'checkout', '-q', 'main');
    commitFiles(root, { 'README.md': 'main moved on\n' }, 'readme on main');
    const main = git(root, 'rev-parse', 'HEAD');
    git(root, 'checkout', '-q', 'feature');
    git(root, 'merge', '-q', '--no-edit', 'main');
    const result = await verify(root, '--base', main, '--format', 'json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.out);
    expect(report.commits).toHaveLength(2);
    expect(report.commits[1].parents).toHaveLength(2);
    expect(report.commits[1].changes).toBe(0);
    expect(report.mergeBase).toBe(main);
    // against the older base the merge brought in main's README: the final tree, not the merge, is charged with it
    const older = JSON.parse((await verify(root, '--base', base, '--format', 'json')).out);
    expect(older.commits.map((commit: { findings: unknown[] }) => commit.findings.length)).toEqual([0, 1, 0]);
  });

  it('writes SARIF, JUnit and Markdown to --out and prints the verdict', async () => {
    const root = projectRepo();
    const base = git(root, 'rev-parse', 'HEAD');
    commitFiles(root, { 'src/features/pay.ts': "export const pay = () => fetch('/pay');\n", 'src/features/pay.test.ts': "import './pay';\n" }, 'pay');
    const folder = mkdtempSync(join(tmpdir(), 'holdfast-verify-out-'));
    try {
      const sarif = await verify(root, '--base', base, '--format', 'sarif', '--out', join(folder, 'out.sarif'));
      expect(sarif.code).toBe(1);
      expect(sarif.out).toMatch(/2 violation\(s\)/);
      const log = JSON.parse(readFileSync(join(folder, 'out.sarif'), 'utf8'));
      expect(log.version).toBe('2.1.0');
      expect(log.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual(['R1', 'R2', 'R3', 'R4', 'R5', 'R6']);
      expect(log.runs[0].results[0]).toMatchObject({
        ruleId: 'R5',
        ruleIndex: 4,
        level: 'error',
        locations: [{ physicalLocation: { artifactLocation: { uri: 'src/features/pay.ts' }, region: { startLine: 1 } } }],
      });
      expect((await verify(root, '--base', base, '--format', 'junit', '--out', join(folder, 'out.xml'))).code).toBe(1);
      const junit = readFileSync(join(folder, 'out.xml'), 'utf8');
      expect(junit).toMatch(/<testsuites name="holdfast verify" tests="12" failures="2">/);
      expect(junit).toMatch(/<testcase classname="commit [0-9a-f]{12} pay" name="R5 HTTP">\n {6}<failure message="[^"]*fetch/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** A project whose `npm test` passes only while src/verdict.txt starts with "pass", and whose base rulebook also requires `node lint.cjs`. */
function testedProject(): { root: string; base: string } {
  const root = projectRepo('holdfast-verify-run-');
  const rulebook = readFileSync(join(root, 'holdfast', 'rulebook.yaml'), 'utf8');
  const lint = `
  - id: L1
    name: LINT
    prose: Run the linter before every commit.
    check:
      kind: requires
      commands:
        - run: ['node lint.cjs']
`;
  commitFiles(
    root,
    {
      'package.json': `${JSON.stringify({ name: 'tested', private: true, scripts: { test: 'node check.cjs' } })}\n`,
      'check.cjs': "process.exit(require('node:fs').readFileSync('src/verdict.txt', 'utf8').startsWith('pass') ? 0 : 1);\n",
      'lint.cjs':
        "if (require('node:fs').readFileSync('src/verdict.txt', 'utf8').includes('lint')) { console.error('lint: src/verdict.txt says lint'); process.exit(3); }\n",
      'src/verdict.txt': 'pass\n',
      'holdfast/rulebook.yaml': rulebook.replace(/\n\nagents:/, `\n${lint}\nagents:`),
    },
    'tests',
  );
  return { root, base: git(root, 'rev-parse', 'HEAD') };
}

describe.runIf(findBubblewrap(process.env) !== undefined)('holdfast verify --run-required (real git, real bubblewrap)', () => {
  it('runs each required command on the head tree: all pass, the range is clean', async () => {
    const { root, base } = testedProject();
    commitFiles(root, { 'src/verdict.txt': 'pass, and changed\n' }, 'change');
    const result = await verify(root, '--base', base, '--run-required');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/ok {4}R6 `npm test` on the head tree/);
    expect(result.out).toMatch(/ok {4}L1 `node lint.cjs` on the head tree/);
  });

  it('a required command that fails on the head tree is a violation in every format, even when the work tree would pass', async () => {
    const { root, base } = testedProject();
    commitFiles(root, { 'src/verdict.txt': 'fail, and lint\n' }, 'break');
    // What is checked out does not matter: the head's tree is what runs.
    git(root, 'checkout', '-q', base, '--', 'src/verdict.txt');
    const text = await verify(root, '--base', base, '--run-required');
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/FAIL {2}R6 `npm test` on the head tree/);
    expect(text.out).toMatch(/R6 ORDER: `npm test` does not pass on the head tree [0-9a-f]{12}: it ended with exit code 1/);
    expect(text.out).toMatch(/L1 LINT: `node lint.cjs` does not pass .*exit code 3; its output ended with: lint: src\/verdict.txt says lint/);
    const sarif = JSON.parse((await verify(root, '--base', base, '--run-required', '--format', 'sarif')).out);
    expect(sarif.runs[0].results.map((each: { ruleId: string }) => each.ruleId)).toEqual(['R6', 'L1']);
    const junit = (await verify(root, '--base', base, '--run-required', '--format', 'junit')).out;
    expect(junit).toMatch(/<testcase classname="final tree" name="R6 ORDER">\n {6}<failure /);
    const markdown = (await verify(root, '--base', base, '--run-required', '--format', 'md')).out;
    expect(markdown).toMatch(/R6 ORDER/);
    // Without the flag the same range passes, and says what it did not judge.
    const unrun = await verify(root, '--base', base);
    expect(unrun.code).toBe(0);
    expect(unrun.out).toMatch(/L1 LINT: which commands passed before each commit is not in the history/);
  });
});

describe('holdfast verify --run-required without bubblewrap', () => {
  it('refuses (exit 2) and names what to install', async () => {
    const { root, base } = testedProject();
    const io = memoryIo({ cwd: root, env: { ...gitTestEnv(), PATH: mkdtempSync(join(tmpdir(), 'holdfast-no-bwrap-')) } });
    const code = await main(['verify', '--base', base, '--run-required'], io);
    expect(code).toBe(2);
    expect(io.err()).toMatch(/bubblewrap \(bwrap\) is not installed: install bubblewrap/);
  });
});
