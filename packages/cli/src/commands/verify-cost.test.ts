import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, gitTestEnv, projectRepo } from '@holdfast/gate/test-support';

const MAIN = new URL('../../dist/main.js', import.meta.url).href;

/** `holdfast verify` in a child that says its peak RSS (KiB) on its last line of stderr. */
function verifyWithPeak(root: string, args: readonly string[], node: readonly string[] = []): { status: number | null; report: Report; peakKib: number } {
  const wrapper = join(mkdtempSync(join(tmpdir(), 'holdfast-verify-peak-')), 'peak.mjs');
  writeFileSync(
    wrapper,
    `import { main } from ${JSON.stringify(MAIN)};\nconst code = await main(process.argv.slice(2));\nprocess.stderr.write('peak-kib ' + process.resourceUsage().maxRSS + '\\n');\nprocess.exitCode = code;\n`,
  );
  const result = spawnSync(process.execPath, [...node, wrapper, 'verify', ...args, '--format', 'json'], {
    cwd: root,
    env: gitTestEnv(),
    maxBuffer: 256 * 1024 * 1024,
  });
  const stderr = result.stderr.toString('utf8');
  const peak = /peak-kib (\d+)\s*$/.exec(stderr);
  if (peak === null) throw new Error(`verify said no peak (exit ${String(result.status)}): ${stderr.slice(0, 2000)}`);
  return { status: result.status, report: JSON.parse(result.stdout.toString('utf8')) as Report, peakKib: Number(peak[1]) };
}

interface Report {
  readonly commits: readonly { readonly findings: readonly { rule: string; path?: string; detail: string }[] }[];
  readonly tree: { readonly findings: readonly { rule: string; path?: string; detail: string }[] };
  readonly violations: number;
}

/** A module of about 12 KB with string concatenations and templates, so R1 folds it and R4 reads its tree. */
function moduleText(name: string, version: number): string {
  const lines = [`const prefix = 'v${version}';`, ''];
  for (let line = 0; line < 120; line += 1) {
    lines.push(`export function ${name}_${line}(value: string): string {`, `  return prefix + '-${line}-' + value + \`/\${prefix}/${version}\`;`, '}', '');
  }
  return lines.join('\n');
}

/**
 * `commits` commits on top of the project's first one, each rewriting three of 40 modules (their tests
 * are there from the start), written by one `git fast-import`; returns the base and the head.
 */
function history(root: string, commits: number): { base: string; head: string } {
  const base = git(root, 'rev-parse', 'HEAD');
  const stream: string[] = [];
  const data = (text: string) => stream.push(`data ${Buffer.byteLength(text)}`, text);
  stream.push('commit refs/heads/main', 'mark :1', 'committer t <t@example.test> 1700000000 +0000');
  data('modules');
  stream.push(`from ${base}`);
  for (let module = 0; module < 40; module += 1) {
    stream.push(`M 100644 inline src/mod${module}.ts`);
    data(moduleText(`mod${module}`, 0));
    stream.push(`M 100644 inline src/mod${module}.test.ts`);
    data(`import { mod${module}_0 } from './mod${module}';\nit('works', () => mod${module}_0('a'));\n`);
  }
  for (let index = 1; index <= commits; index += 1) {
    stream.push('', 'commit refs/heads/main', `mark :${index + 1}`, `committer t <t@example.test> ${1700000000 + index * 60} +0000`);
    data(`change ${index}`);
    stream.push(`from :${index}`);
    for (let edit = 0; edit < 3; edit += 1) {
      const module = (index * 7 + edit * 13) % 40;
      stream.push(`M 100644 inline src/mod${module}.ts`);
      data(moduleText(`mod${module}`, index));
    }
  }
  stream.push('', 'done', '');
  execFileSync('git', ['fast-import', '--quiet', '--done', '--force'], { cwd: root, env: gitTestEnv(), input: stream.join('\n') });
  git(root, 'reset', '-q', '--hard', 'main');
  return { base, head: git(root, 'rev-parse', 'HEAD') };
}

describe('holdfast verify: memory flat in the number of commits', () => {
  // No time limit: hundreds of commits are judged, at whatever speed a loaded machine gives.
  it('peaks at about the same RSS over 300 commits as over 60 (within 25 %), judging the same kind of change', { timeout: 0 }, () => {
    const root = projectRepo('holdfast-verify-flat-');
    const { base, head } = history(root, 300);
    const sixty = git(root, 'rev-list', '--reverse', `${base}..${head}`).split('\n')[60] as string;
    const few = verifyWithPeak(root, ['--base', base, '--head', sixty]);
    const many = verifyWithPeak(root, ['--base', base, '--head', head]);
    expect(few.report.commits).toHaveLength(61);
    expect(many.report.commits).toHaveLength(301);
    // Nothing in these modules breaks a rule: the judgement ran and found them clean.
    expect([few.status, many.status, many.report.violations]).toEqual([0, 0, 0]);
    expect(many.peakKib / few.peakKib).toBeLessThan(1.25);
  });
});

describe('holdfast verify: memory bounded whatever the blobs', () => {
  // No time limit: 96 MB of blobs take what they take to write and read on a loaded machine.
  it('judges 16 files of 6 MB in one commit under a 64 MB heap: one text held at a time, a verdict for each', { timeout: 0 }, () => {
    const root = projectRepo('holdfast-verify-many-large-');
    const base = git(root, 'rev-parse', 'HEAD');
    const line = 'export const row = "the same harmless line of text, repeated to make the file large";\n';
    for (let index = 0; index < 16; index += 1) {
      // Each file different, so none is judged from another's verdict.
      const text = `// file ${index}\n${line.repeat(Math.floor((6 * 1024 * 1024) / line.length))}`;
      const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: root, env: gitTestEnv(), input: text }).toString('utf8').trim();
      git(root, 'update-index', '--add', '--cacheinfo', `100644,${blob},data/large-${index}.txt`);
    }
    git(root, 'commit', '-q', '--no-verify', '-m', 'large files');
    const result = verifyWithPeak(root, ['--base', base], ['--max-old-space-size=64']);
    // Outside src/, each file breaks R2 and nothing else: each was read and judged whole.
    expect(result.status).toBe(1);
    const findings = result.report.commits[0]?.findings ?? [];
    expect(findings.map((finding) => `${finding.rule} ${finding.path ?? ''}`).sort()).toEqual(
      Array.from({ length: 16 }, (_, index) => `R2 data/large-${index}.txt`).sort(),
    );
  });

  // No time limit: a gigabyte passes through git on a loaded machine.
  it('names a 1 GB blob too large to judge without holding it, under a 64 MB heap', { timeout: 0 }, () => {
    const root = projectRepo('holdfast-verify-gigabyte-');
    const base = git(root, 'rev-parse', 'HEAD');
    const folder = mkdtempSync(join(tmpdir(), 'holdfast-verify-gigabyte-file-'));
    const file = join(folder, 'big.ts');
    try {
      // A sparse file of 1 GiB: a line of text, then zeros that take no room on disk.
      const handle = openSync(file, 'w');
      writeSync(handle, 'export const big = "a large generated module";\n');
      writeSync(handle, '\n', 1024 * 1024 * 1024 - 1);
      closeSync(handle);
      // Above core.bigFileThreshold git streams the file into a pack as it reads it; stored, not compressed.
      const blob = git(root, '-c', 'core.compression=0', 'hash-object', '-w', file);
      git(root, 'update-index', '--add', '--cacheinfo', `100644,${blob},src/big.ts`);
      git(root, 'commit', '-q', '--no-verify', '-m', 'gigabyte');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const result = verifyWithPeak(root, ['--base', base], ['--max-old-space-size=64']);
    expect(result.status).toBe(1);
    const findings = result.report.commits[0]?.findings ?? [];
    expect(findings.some((finding) => finding.path === 'src/big.ts' && /too large to judge \(1024\.0 MiB/.test(finding.detail))).toBe(true);
    // R4 reads src/**/*.ts, so it refuses the file it could not read.
    expect(findings.some((finding) => finding.rule === 'R4' && finding.path === 'src/big.ts')).toBe(true);
    // Never held: the process stayed far below the blob's size.
    expect(result.peakKib).toBeLessThan(512 * 1024);
  });
});
