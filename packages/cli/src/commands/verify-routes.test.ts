import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { commitFiles, git, gitTestEnv, projectRepo } from '@holdfast/gate/test-support';
import { main } from '../main.js';

const HOLDFAST = fileURLToPath(new URL('../../bin/holdfast.js', import.meta.url));

async function verify(root: string, ...args: string[]) {
  const io = memoryIo({ cwd: root, env: gitTestEnv() });
  const code = await main(['verify', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

/** A key of GitHub's shape that no detector's allowlist knows (not the documented placeholder). */
const KEY = `gh${'p_'}R8fK2mQ9xL4vT7nW1pZ6cB3hJ5dY0gS8aE2u`;

function hashObject(root: string, content: string): string {
  return execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: root, env: gitTestEnv(), input: content }).toString('utf8').trim();
}

/**
 * base on main (`before` applied to it first), a feature branch with `make` applied, both pushed to a bare remote, and a
 * fresh clone of it: what CI checks out.
 */
function throughRemote(make: (root: string) => void, before?: (root: string) => void): { clone: string; base: string } {
  const root = projectRepo('holdfast-verify-routes-');
  before?.(root);
  const base = git(root, 'rev-parse', 'HEAD');
  git(root, 'checkout', '-q', '-b', 'feature');
  make(root);
  const remote = mkdtempSync(join(tmpdir(), 'holdfast-verify-remote-'));
  git(remote, 'init', '-q', '--bare');
  git(root, 'push', '-q', remote, 'main', 'feature');
  const clone = mkdtempSync(join(tmpdir(), 'holdfast-verify-clone-'));
  git(clone, 'clone', '-q', '-b', 'feature', remote, '.');
  return { clone, base };
}

describe('holdfast verify: content as a checkout gives it back', () => {
  it('judges a file stored re-encoded by working-tree-encoding as the plain text a checkout writes (exit 1)', async () => {
    const { clone, base } = throughRemote((root) => {
      commitFiles(root, { '.gitattributes': 'src/quiet.ts working-tree-encoding=UTF-16LE\n' }, 'attributes');
      // plain UTF-8 in the work tree: git add reads it as UTF-16LE and stores noise, a checkout writes the plain text back
      commitFiles(root, { 'src/quiet.ts': 'console.log(1);\n' }, 'quiet');
    });
    expect(execFileSync('git', ['cat-file', 'blob', 'HEAD:src/quiet.ts'], { cwd: clone }).toString('utf8')).not.toContain('console.log');
    const result = await verify(clone, '--base', base, '--format', 'json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out) as { commits: { subject: string; findings: { rule: string; path: string }[] }[] };
    expect(report.commits.find((commit) => commit.subject === 'quiet')?.findings).toContainEqual(expect.objectContaining({ rule: 'R4', path: 'src/quiet.ts' }));
  });

  it('judges the files a .gitattributes in the range re-encodes, stored as noise before the base (exit 1)', async () => {
    // An even number of bytes, so git can read each file as UTF-16.
    const plain = `export const token = '${KEY}';\nconsole.log(token);\n `;
    const { clone, base } = throughRemote(
      (root) =>
        commitFiles(root, { 'src/.gitattributes': 'quiet.ts working-tree-encoding=UTF-16LE\nmarked.ts working-tree-encoding=UTF-16BE\n' }, 'attributes'),
      (root) => {
        // The attributes only in .git/info/attributes while git adds the files: git stores them as noise, and the base holds no attribute that says so.
        writeFileSync(join(root, '.git', 'info', 'attributes'), 'src/quiet.ts working-tree-encoding=UTF-16LE\nsrc/marked.ts working-tree-encoding=UTF-16BE\n');
        commitFiles(
          root,
          { 'src/quiet.ts': plain, 'src/quiet.test.ts': "import './quiet';\n", 'src/marked.ts': plain, 'src/marked.test.ts': "import './marked';\n" },
          'noise',
        );
        writeFileSync(join(root, '.git', 'info', 'attributes'), '');
      },
    );
    for (const path of ['src/quiet.ts', 'src/marked.ts']) {
      expect(git(clone, 'cat-file', 'blob', `${base}:${path}`)).not.toContain('console.log');
      // the clone's checkout, with the branch's .gitattributes, writes the plain text back
      expect(readFileSync(join(clone, path), 'utf8')).toBe(plain);
    }
    const result = await verify(clone, '--base', base, '--format', 'json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out) as {
      commits: { findings: { rule: string; path: string }[] }[];
      tree: { findings: { rule: string; path: string }[] };
    };
    for (const findings of [report.commits[0]?.findings ?? [], report.tree.findings]) {
      for (const path of ['src/quiet.ts', 'src/marked.ts']) {
        expect(findings.filter((finding) => finding.path === path).map((finding) => finding.rule)).toEqual(['R1', 'R4']);
      }
    }
  });

  it('reads UTF-16 without a byte-order mark by its content (exit 1)', async () => {
    const { clone, base } = throughRemote((root) => {
      writeFileSync(join(root, 'src', 'wide.ts'), Buffer.from('export const wide = 1;\nconsole.log(wide);\n', 'utf16le'));
      writeFileSync(join(root, 'src', 'wide.test.ts'), "import './wide';\n");
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '--no-verify', '-m', 'wide');
    });
    const result = await verify(clone, '--base', base, '--format', 'md');
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/\*\*R4 NOLOG\*\* `src\/wide\.ts:2`/);
  });

  it('refuses committed links that leave the repository or point into .git/, alone or chained (exit 1), and passes ones inside it', async () => {
    const { clone, base } = throughRemote((root) => {
      for (const [path, target] of [
        ['src/hook', '../.git/hooks/pre-commit'],
        ['src/passwd', '/etc/passwd'],
        // chained: each text alone stays inside src/, together they lead into .git/
        ['src/up', '..'],
        ['src/chained', 'up/.git/hooks/pre-commit'],
        ['src/deep/a', '..'],
        ['src/deep/b', 'a/../.git/hooks/pre-commit'],
        ['src/sibling', 'orders.ts'],
        ['src/deep/cousin', '../orders.ts'],
      ] as const) {
        git(root, 'update-index', '--add', '--cacheinfo', `120000,${hashObject(root, target)},${path}`);
      }
      git(root, 'commit', '-q', '--no-verify', '-m', 'links');
    });
    const result = await verify(clone, '--base', base, '--format', 'json');
    expect(result.code).toBe(1);
    type Findings = { rule: string; path: string; detail: string }[];
    const report = JSON.parse(result.out) as { commits: { findings: Findings }[]; tree: { findings: Findings } };
    for (const findings of [report.commits[0]?.findings ?? [], report.tree.findings]) {
      const links = findings.filter((finding) => finding.rule === 'GATE');
      // src/chained is refused through src/up, a link to the top folder, which is what makes its text lead into .git/
      expect(links.map((finding) => finding.path).sort()).toEqual(['src/chained', 'src/deep/b', 'src/hook', 'src/passwd', 'src/up']);
      expect(links.find((finding) => finding.path === 'src/chained')?.detail).toMatch(/through src\/up, itself a link/);
      expect(links.find((finding) => finding.path === 'src/hook')?.detail).toMatch(/points into \.git\//);
      expect(links.find((finding) => finding.path === 'src/up')?.detail).toMatch(/the repository's top folder/);
      expect(links.find((finding) => finding.path === 'src/deep/b')?.detail).toMatch(/climbs out of a folder it named/);
    }
  });
});

describe('holdfast verify: a link through a link already on the base', () => {
  it('refuses a link whose way passes through a link the base holds (exit 1): its text alone stays inside src/', async () => {
    const { clone, base } = throughRemote(
      (root) => {
        git(root, 'update-index', '--add', '--cacheinfo', `120000,${hashObject(root, 'up/.git/hooks/pre-commit')},src/x`);
        git(root, 'commit', '-q', '--no-verify', '-m', 'a link inside src/');
      },
      (root) => {
        git(root, 'update-index', '--add', '--cacheinfo', `120000,${hashObject(root, '..')},src/up`);
        git(root, 'commit', '-q', '--no-verify', '-m', 'up');
      },
    );
    const result = await verify(clone, '--base', base, '--format', 'json');
    expect(result.code).toBe(1);
    type Findings = { rule: string; path: string; detail: string }[];
    const report = JSON.parse(result.out) as { commits: { findings: Findings }[]; tree: { findings: Findings } };
    for (const findings of [report.commits[0]?.findings ?? [], report.tree.findings]) {
      expect(findings.filter((finding) => finding.rule === 'GATE')).toEqual([
        expect.objectContaining({ path: 'src/x', detail: expect.stringMatching(/through src\/up, itself a link/) }),
      ]);
    }
  });
});

describe('holdfast verify: keys in commit messages', () => {
  it('judges a commit message by R1 and prints the key in no format', async () => {
    const { clone, base } = throughRemote((root) => {
      commitFiles(root, { 'src/billing.ts': 'export const billing = 2;\n', 'src/billing.test.ts': "import './billing';\n" }, `deploy with ${KEY}`);
      // the documented placeholder is no key
      commitFiles(root, { 'src/billing.ts': 'export const billing = 3;\n' }, 'use a token like ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX');
    });
    const text = await verify(clone, '--base', base);
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/R1 SECRET: the message of commit [0-9a-f]{12} hardcodes a credential/);
    const json = JSON.parse((await verify(clone, '--base', base, '--format', 'json')).out) as { commits: { findings: unknown[] }[]; violations: number };
    expect(json.commits.map((commit) => commit.findings.length)).toEqual([1, 0]);
    for (const format of ['text', 'json', 'sarif', 'junit', 'md']) {
      const result = await verify(clone, '--base', base, '--format', format);
      expect(result.code).toBe(1);
      expect(result.out).not.toContain(KEY.slice(4));
    }
  });
});

describe('holdfast verify: bounded for any file', () => {
  // No time limit: the 200 MB blob takes what it takes to make on a loaded machine.
  it('names a 200 MB file too large to judge (exit 1) under a 128 MB heap, and reads the rest', { timeout: 0 }, () => {
    const root = projectRepo('holdfast-verify-large-');
    const base = git(root, 'rev-parse', 'HEAD');
    const clone = root;
    {
      const blob = execFileSync('sh', ['-c', "head -c 209715200 /dev/zero | tr '\\000' a | git hash-object -w --stdin"], { cwd: root, env: gitTestEnv() })
        .toString('utf8')
        .trim();
      git(root, 'update-index', '--add', '--cacheinfo', `100644,${blob},src/huge.ts`);
      git(root, 'update-index', '--add', '--cacheinfo', `100644,${blob},src/huge.test.ts`);
      git(root, 'commit', '-q', '--no-verify', '-m', 'huge');
    }
    const result = spawnSync(process.execPath, ['--max-old-space-size=128', HOLDFAST, 'verify', '--base', base, '--format', 'json'], {
      cwd: clone,
      env: gitTestEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(result.stderr.toString('utf8')).toBe('');
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout.toString('utf8')) as { commits: { findings: { rule: string; path: string; detail: string }[] }[] };
    const findings = report.commits[0]?.findings ?? [];
    expect(findings.some((finding) => finding.path === 'src/huge.ts' && /too large to judge \(200\.0 MiB/.test(finding.detail))).toBe(true);
    expect(findings.some((finding) => finding.rule === 'R1' && finding.path === 'src/huge.ts')).toBe(true);
  });
});
