import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { checkActions, defaultRulebookPath, parseRulebook } from '@holdfast/core/rules';
import { gateMain as main } from '../test-support/gate-main.js';
import { git, projectRepo } from '../test-support/git-repo.js';
import { gitTestEnv } from '../test-support/git-repo.js';
import { verifyRange } from '../verify/verify.js';

// Issue 27, item 5: a file a content rule must read that is not text (neither UTF-8 nor valid in the
// encoding its byte-order mark names) is refused, naming the file; a binary file no content rule's
// globs reach (an image) still passes.

/** Valid TypeScript but for one byte that is not UTF-8: no rule is broken by what decodes. */
const NOT_UTF8_TS = Buffer.concat([Buffer.from('export const x = "'), Buffer.from([0xff]), Buffer.from('";\n')]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xd8]);
/** A UTF-16LE mark with an odd number of bytes after it. */
const BROKEN_UTF16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('export const y = 1;\n', 'utf16le'), Buffer.from([0x41])]);
const REFUSAL = /src\/x\.ts is not valid UTF-8 text: a rule cannot read it; write it as UTF-8/;

function repo(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-undecodable-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['config', 'user.email', 'gate@example.test'], { cwd: root });
  execFileSync('git', ['config', 'user.name', 'gate'], { cwd: root });
  return root;
}

function put(root: string, files: Record<string, Buffer | string>): void {
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
}

async function preCommit(root: string) {
  const io = memoryIo({ cwd: root });
  const code = await main(['hook', 'git', '--rulebook', defaultRulebookPath()], io);
  return { code, out: io.out(), err: io.err() };
}

describe('the pre-commit hook refuses staged files no rule can read', () => {
  it('a src/ module that is not UTF-8 is refused by every content rule that reaches it; an image beside it is not', async () => {
    const root = repo();
    put(root, { 'src/x.ts': NOT_UTF8_TS, 'src/x.test.ts': "import './x';\n", 'src/assets/logo.png': PNG, 'src/logo.png': PNG });
    execFileSync('git', ['add', '-A'], { cwd: root });
    const refused = await preCommit(root);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(new RegExp(`R4 NOLOG: ${REFUSAL.source}`));
    expect(refused.err).not.toMatch(/logo\.png/);

    execFileSync('git', ['rm', '-q', '--cached', 'src/x.ts', 'src/x.test.ts'], { cwd: root });
    const images = await preCommit(root);
    expect(images).toMatchObject({ code: 0 });
    expect(images.out).toMatch(/2 staged changes judged, no rule refused them/);
  });

  it('a UTF-16 file with its mark is read as text; one whose bytes break its mark is refused with why', async () => {
    const root = repo();
    put(root, {
      'src/y.ts': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('export const y = 1;\n', 'utf16le')]),
      'src/y.test.ts': "import './y';\n",
    });
    execFileSync('git', ['add', '-A'], { cwd: root });
    expect((await preCommit(root)).code).toBe(0);
    put(root, { 'src/y.ts': BROKEN_UTF16 });
    execFileSync('git', ['add', '-A'], { cwd: root });
    const refused = await preCommit(root);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/src\/y\.ts is not valid UTF-16LE text, though its byte-order mark names UTF-16LE: a rule cannot read it; write it as UTF-8/);
  });
});

describe('holdfast verify refuses committed files no rule can read', () => {
  it('a commit and the final tree with a src/ module that is not UTF-8 are findings; an image is not', async () => {
    const root = projectRepo('holdfast-undecodable-verify-');
    const base = git(root, 'rev-parse', 'HEAD');
    put(root, { 'src/orders.ts': NOT_UTF8_TS, 'src/docs/diagram.png': PNG });
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--no-verify', '-m', 'binary bytes');
    const report = await verifyRange({ root, env: gitTestEnv(), base, head: 'HEAD', rulebookPath: 'holdfast/rulebook.yaml', parseRulebook, checkActions });
    const findings = [...(report.commits[0]?.findings ?? []), ...report.tree.findings];
    expect(findings.map((finding) => `${finding.rule} ${finding.path ?? ''}`)).toEqual(['R4 src/orders.ts', 'R4 src/orders.ts']);
    expect(findings[0]?.detail).toMatch(/src\/orders\.ts is not valid UTF-8 text: a rule cannot read it; write it as UTF-8/);
    expect(report.violations).toBe(2);
  });

  it('a committed UTF-16 file is judged as the text it holds (a console.log in it is found)', async () => {
    const root = projectRepo('holdfast-undecodable-verify-');
    const base = git(root, 'rev-parse', 'HEAD');
    put(root, { 'src/orders.ts': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('export const orders = () => console.log(1);\n', 'utf16le')]) });
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--no-verify', '-m', 'utf-16');
    const report = await verifyRange({ root, env: gitTestEnv(), base, head: 'HEAD', rulebookPath: 'holdfast/rulebook.yaml', parseRulebook, checkActions });
    expect(report.tree.findings.map((finding) => finding.rule)).toEqual(['R4']);
    expect(report.tree.findings[0]?.detail).toMatch(/console\.log/);
  });
});
