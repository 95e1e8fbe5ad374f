import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { commitFiles, git, gitTestEnv } from '@holdfast/gate/test-support';
import { main } from '../main.js';

const RULEBOOK = `version: 1
name: rule-code
rules:
  - id: R7
    name: NO-TODO
    prose: Do not leave TODO comments in the code.
    check:
      kind: custom
      module: checks/no-todo.mjs
  - id: R8
    name: NO-FIXME
    prose: Do not leave FIXME comments in the code.
    check:
      kind: custom
      exec: [node, checks/no-fixme.mjs]
`;

/** A check module: one result per write, a violation where `word` is in the content. */
function checkModule(word: string, helper = false): string {
  const test = helper ? "import { has } from './lib.mjs';\n" : `const has = (text) => /\\b${word}\\b/.test(text);\n`;
  return `${test}export function check(round) {
  return round.actions.filter((action) => action.type === 'write').map((action) => ({
    actionIndex: action.index,
    ok: !has(action.content ?? ''),
    detail: has(action.content ?? '') ? \`write to \${action.path} leaves a ${word}\` : 'clean',
  }));
}
`;
}

/** The same check as a program: the round on stdin, the results on stdout. */
const FIXME_PROGRAM = `let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const round = JSON.parse(input);
  const results = round.actions.filter((a) => a.type === 'write').map((a) => ({ actionIndex: a.index, ok: !/FIXME/.test(a.content ?? ''), detail: 'fixme' }));
  process.stdout.write(JSON.stringify({ results }));
});
`;

/** A module that writes `marker` when it is loaded, and passes every action. */
function hostileModule(marker: string): string {
  return `import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(marker)}, 'loaded');
export function check(round) {
  return round.actions.map((action) => ({ actionIndex: action.index, ok: true, detail: 'fine' }));
}
`;
}

function hostileProgram(marker: string): string {
  return `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => process.stdout.write(JSON.stringify({ results: [] })));
`;
}

/** main with the base's rulebook and checks, a pull request branch from `make`, through a bare remote; the clone is checked out at the head, as CI does. */
function pullRequest(make: (root: string) => void): { clone: string; base: string } {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-rule-code-'));
  git(root, 'init', '-q', '-b', 'main');
  commitFiles(
    root,
    {
      'holdfast/rulebook.yaml': RULEBOOK,
      'checks/no-todo.mjs': checkModule('TODO', true),
      'checks/lib.mjs': 'export const has = (text) => /\\bTODO\\b/.test(text);\n',
      'checks/no-fixme.mjs': FIXME_PROGRAM,
      'src/orders.ts': 'export const orders = 1;\n',
    },
    'base',
  );
  const base = git(root, 'rev-parse', 'HEAD');
  git(root, 'checkout', '-q', '-b', 'feature');
  make(root);
  const remote = mkdtempSync(join(tmpdir(), 'holdfast-rule-code-remote-'));
  git(remote, 'init', '-q', '--bare');
  git(root, 'push', '-q', remote, 'main', 'feature');
  const clone = mkdtempSync(join(tmpdir(), 'holdfast-rule-code-clone-'));
  git(clone, 'clone', '-q', '-b', 'feature', remote, '.');
  return { clone, base };
}

async function verify(root: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  const io = memoryIo({ cwd: root, env });
  const code = await main(['verify', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

interface Report {
  readonly ruleCode: readonly string[];
  readonly commits: readonly { readonly findings: readonly { readonly rule: string; readonly detail: string }[] }[];
}

describe('holdfast verify: the rule code is the base’s, run confined', { timeout: 300_000 }, () => {
  it('a head that rewrites the custom checks to pass its own violation still fails (exit 1), and the head’s code never runs', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'holdfast-rule-code-marker-')), 'loaded');
    const { clone, base } = pullRequest((root) => {
      commitFiles(
        root,
        {
          'checks/no-todo.mjs': hostileModule(`${marker}-module`),
          'checks/lib.mjs': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(`${marker}-helper`)}, 'x');\nexport const has = () => false;\n`,
          'checks/no-fixme.mjs': hostileProgram(`${marker}-program`),
          'holdfast/rulebook.yaml': 'version: 1\nname: weakened\nrules: []\n',
        },
        'make the checks pass',
      );
      commitFiles(root, { 'src/orders.ts': 'export const orders = 1; // TODO later\n// FIXME too\n' }, 'leave a todo');
    });
    // The work tree holds the head's checks: a verify that loaded them from there would pass and write the markers.
    const result = await verify(clone, gitTestEnv(), '--base', base, '--format', 'json');
    expect(result.err).toBe('');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out) as Report;
    expect(report.ruleCode).toEqual(['checks/lib.mjs', 'checks/no-fixme.mjs', 'checks/no-todo.mjs']);
    const findings = report.commits.flatMap((commit) => commit.findings);
    expect(findings).toContainEqual(expect.objectContaining({ rule: 'R7', detail: 'R7 NO-TODO: write to src/orders.ts leaves a TODO' }));
    expect(findings).toContainEqual(expect.objectContaining({ rule: 'R8' }));
    for (const suffix of ['-module', '-helper', '-program']) expect(existsSync(`${marker}${suffix}`)).toBe(false);
  });

  it('a clean head passes with the base’s checks (exit 0)', async () => {
    const { clone, base } = pullRequest((root) => commitFiles(root, { 'src/orders.ts': 'export const orders = 2;\n' }, 'change'));
    const result = await verify(clone, gitTestEnv(), '--base', base);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
  });

  it('runs the base’s rule code confined: its writes to the project, the clone and /tmp all fail', async () => {
    const { clone, base } = pullRequest((root) => commitFiles(root, { 'src/orders.ts': 'export const orders = 3;\n' }, 'change'));
    const outside = join(mkdtempSync(join(tmpdir(), 'holdfast-rule-code-outside-')), 'written');
    // A base whose own check tries to write and says how each write ended.
    git(clone, 'checkout', '-q', base);
    const targets = [outside, 'checks/here', join(clone, 'src', 'planted.ts')];
    commitFiles(
      clone,
      {
        'checks/no-todo.mjs': `import { writeFileSync } from 'node:fs';
const ends = ${JSON.stringify(targets)}.map((path) => { try { writeFileSync(path, 'x'); return 'written'; } catch (error) { return error.code; } });
export function check(round) {
  return round.actions.map((action) => ({ actionIndex: action.index, ok: false, detail: ends.join(',') }));
}
`,
      },
      'a writing check',
    );
    const writingBase = git(clone, 'rev-parse', 'HEAD');
    git(clone, 'checkout', '-q', 'feature');
    const result = await verify(clone, gitTestEnv(), '--base', writingBase, '--head', 'feature', '--format', 'json');
    expect(result.code).toBe(1);
    const findings = (JSON.parse(result.out) as Report).commits.flatMap((commit) => commit.findings);
    const ends = findings
      .find((finding) => finding.rule === 'R7')
      ?.detail.replace('R7 NO-TODO: ', '')
      .split(',');
    expect(ends).toHaveLength(3);
    expect(ends).not.toContain('written');
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(clone, 'checks', 'here'))).toBe(false);
    expect(existsSync(join(clone, 'src', 'planted.ts'))).toBe(false);
  });

  it('refuses a base rulebook whose module lies outside the project (exit 2): only the base commit’s own code runs', async () => {
    const { clone } = pullRequest((root) => commitFiles(root, { 'src/orders.ts': 'export const orders = 2;\n' }, 'change'));
    git(clone, 'checkout', '-q', 'origin/main');
    commitFiles(
      clone,
      { 'holdfast/rulebook.yaml': RULEBOOK.replace('module: checks/no-todo.mjs', `module: ${join(clone, 'checks', 'no-todo.mjs')}`) },
      'absolute',
    );
    const absoluteBase = git(clone, 'rev-parse', 'HEAD');
    git(clone, 'checkout', '-q', 'feature');
    const result = await verify(clone, gitTestEnv(), '--base', absoluteBase, '--head', 'feature');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/rule R7, field check\.module \(line 9\): ".*" is not a plain relative path/);
  });

  it('refuses to run custom checks without bubblewrap (exit 2), naming how to install it', async () => {
    const { clone, base } = pullRequest((root) => commitFiles(root, { 'src/orders.ts': 'export const orders = 2;\n' }, 'change'));
    // git on PATH, bubblewrap not
    const bin = mkdtempSync(join(tmpdir(), 'holdfast-rule-code-bin-'));
    symlinkSync(execFileSync('sh', ['-c', 'command -v git']).toString('utf8').trim(), join(bin, 'git'));
    const result = await verify(clone, gitTestEnv({ PATH: bin }), '--base', base);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/custom checks \(R7, R8\), which verify runs only confined, and bubblewrap \(bwrap\) is not installed: install bubblewrap/);
  });
});
