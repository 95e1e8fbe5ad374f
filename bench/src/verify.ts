import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { defaultRulebookPath } from '@holdfast/core/rules';
import type { BenchContext } from './index.js';

/** Commits of the range the figures are taken over, and the smaller range the memory growth is compared with. */
const COMMITS = 500;
const FEW = 60;
/** verify's CPU may be this many times `git log -p`'s over the same range (issue 47). */
const CPU_TARGET = 10;
/** Peak RSS at 500 commits over 100's: flat memory. */
const MEMORY_TARGET = 1.2;

const GIT_ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_'))),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

function git(cwd: string, args: readonly string[], input?: string): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, input, maxBuffer: 1 << 30 })
    .toString('utf8')
    .trim();
}

/** A pseudo-random generator with a seed, so every run makes the same history. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function moduleText(name: string, version: number, next: () => number): string {
  const lines = [`import { helper } from '../lib/helper';`, ''];
  const count = 40 + Math.floor(next() * 120);
  for (let line = 0; line < count; line += 1) {
    lines.push(`export function ${name}_${line}(value: number): number {`, `  return helper(value * ${version + line});`, '}', '');
  }
  return lines.join('\n');
}

/**
 * A history of hono's shape (a TypeScript library of about 500 files; 500 commits that each change a
 * few modules, add one with its test now and then, and merge a short branch about one commit in 80),
 * written by one `git fast-import`. Made at bench time, so the bench needs nothing from the network
 * when no real history is given (see runBench).
 */
export function generatedHistory(folder: string, commits: number): { base: string; head: string } {
  git(folder, ['init', '-q', '-b', 'main']);
  const next = random(47);
  const files = new Map<string, string>();
  for (let index = 0; index < 480; index += 1) files.set(`src/features/mod${index}.ts`, moduleText(`mod${index}`, 0, next));
  files.set('src/lib/helper.ts', 'export function helper(value: number): number {\n  return value;\n}\n');
  const stream: string[] = [];
  let mark = 0;
  let time = 1_700_000_000;
  const commit = (message: string, changes: Map<string, string | undefined>, from: string | undefined, merge?: string): number => {
    mark += 1;
    time += 60;
    stream.push('commit refs/heads/main', `mark :${mark}`, `committer bench <bench@example.test> ${time} +0000`, `data ${Buffer.byteLength(message)}`, message);
    if (from !== undefined) stream.push(`from ${from}`);
    if (merge !== undefined) stream.push(`merge ${merge}`);
    for (const [path, content] of changes) {
      if (content === undefined) stream.push(`D ${path}`);
      else stream.push(`M 100644 inline ${path}`, `data ${Buffer.byteLength(content)}`, content);
    }
    stream.push('');
    return mark;
  };
  const base = commit('base', new Map(files), undefined);
  let tip = base;
  let added = 480;
  for (let index = 1; index < commits; index += 1) {
    const changes = new Map<string, string | undefined>();
    const edits = 1 + Math.floor(next() * 4);
    for (let edit = 0; edit < edits; edit += 1) {
      const name = `mod${Math.floor(next() * added)}`;
      const path = `src/features/${name}.ts`;
      if (files.has(path)) changes.set(path, moduleText(name, index, next));
    }
    if (index % 9 === 0) {
      const name = `mod${added}`;
      added += 1;
      changes.set(`src/features/${name}.ts`, moduleText(name, index, next));
      changes.set(`src/features/${name}.test.ts`, `import { ${name}_0 } from './${name}';\n\nit('works', () => ${name}_0(1));\n`);
    }
    if (index % 80 === 0) {
      // A short branch off the tip, merged back after one more commit on main.
      const side = commit(`side ${index}`, new Map([[`src/features/mod${index % 480}.ts`, moduleText('side', index, next)]]), `:${tip}`);
      const main = commit(`main ${index}`, changes, `:${tip}`);
      tip = commit(`merge ${index}`, new Map(), `:${main}`, `:${side}`);
      index += 2;
      continue;
    }
    tip = commit(`change ${index}`, changes, `:${tip}`);
    for (const [path, content] of changes) if (content !== undefined) files.set(path, content);
  }
  stream.push('done', '');
  execFileSync('git', ['fast-import', '--quiet', '--done', `--export-marks=${join(folder, 'marks')}`], { cwd: folder, env: GIT_ENV, input: stream.join('\n') });
  const marks = new Map(
    readFileSync(join(folder, 'marks'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' ') as [string, string]),
  );
  return { base: marks.get(`:${base}`) as string, head: marks.get(`:${tip}`) as string };
}

/** A commit on top of `base` that adds the default rulebook, so the range base..head is judged by it as verify reads it from the base. */
export function baseWithRulebook(repo: string, base: string): string {
  const rulebook = readFileSync(defaultRulebookPath(), 'utf8');
  const blob = git(repo, ['hash-object', '-w', '--stdin'], rulebook);
  const index = join(mkdtempSync(join(tmpdir(), 'holdfast-bench-verify-index-')), 'index');
  const env = { ...GIT_ENV, GIT_INDEX_FILE: index };
  execFileSync('git', ['read-tree', base], { cwd: repo, env });
  execFileSync('git', ['update-index', '--add', '--cacheinfo', `100644,${blob},holdfast/rulebook.yaml`], { cwd: repo, env });
  const tree = execFileSync('git', ['write-tree'], { cwd: repo, env }).toString('utf8').trim();
  rmSync(dirname(index), { recursive: true, force: true });
  return execFileSync('git', ['commit-tree', tree, '-p', base, '-m', 'rulebook'], {
    cwd: repo,
    env: {
      ...GIT_ENV,
      GIT_AUTHOR_NAME: 'bench',
      GIT_AUTHOR_EMAIL: 'bench@example.test',
      GIT_COMMITTER_NAME: 'bench',
      GIT_COMMITTER_EMAIL: 'bench@example.test',
    },
  })
    .toString('utf8')
    .trim();
}

interface Measured {
  readonly cpuMs: number;
  readonly peakMb: number;
  readonly status: number | null;
}

/** A command under GNU time: CPU (user + system, its waited-for children included) and its peak RSS. */
function timed(command: string, args: readonly string[], cwd: string): Measured {
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S %M', command, ...args], {
    cwd,
    env: GIT_ENV,
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const last = result.stderr.toString('utf8').trim().split('\n').at(-1) ?? '';
  const [user, system, kilobytes] = last.split(' ').map(Number);
  if (user === undefined || system === undefined || kilobytes === undefined || Number.isNaN(kilobytes)) throw new Error(`/usr/bin/time said: ${last}`);
  return { cpuMs: (user + system) * 1000, peakMb: kilobytes / 1024, status: result.status };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export async function runBench(print: (line: string) => void, context: BenchContext): Promise<void> {
  const holdfast = join(dirname(createRequire(import.meta.url).resolve('holdfast/package.json')), 'bin', 'holdfast.js');
  const folder = mkdtempSync(join(tmpdir(), 'holdfast-bench-verify-'));
  try {
    // A real public history: a local clone given by HOLDFAST_BENCH_VERIFY_REPO (hono's last 505 commits are
    // HEAD~430..HEAD of honojs/hono at 28a9c128912d), cloned again here so the rulebook commit the bench adds
    // stays out of it. Without one, the generated history of the same shape, and the figures say so.
    const given = process.env.HOLDFAST_BENCH_VERIFY_REPO;
    if (given !== undefined) git(folder, ['clone', '-q', '--shared', '--no-checkout', given, '.']);
    const repo = folder;
    const range =
      given === undefined
        ? generatedHistory(folder, COMMITS)
        : { base: process.env.HOLDFAST_BENCH_VERIFY_BASE ?? 'HEAD~430', head: process.env.HOLDFAST_BENCH_VERIFY_HEAD ?? 'HEAD' };
    const head = git(repo, ['rev-parse', range.head]);
    const base = baseWithRulebook(repo, git(repo, ['rev-parse', range.base]));
    const count = Number(git(repo, ['rev-list', '--count', `${base}..${head}`]));
    const fewHead = git(repo, ['rev-list', '--reverse', '--topo-order', `${base}..${head}`]).split('\n')[FEW - 1] as string;
    const origin = given === undefined ? 'a generated history' : `${basename(given.replace(/\/+$/, ''))} at ${head.slice(0, 12)}`;
    print(`${origin}: ${count} commits in ${base.slice(0, 12)}..${head.slice(0, 12)}`);
    const verify = (to: string) => timed(process.execPath, [holdfast, 'verify', '--base', base, '--head', to, '--format', 'json'], repo);
    const floor = () => timed('git', ['log', '-p', '--no-color', '--no-ext-diff', '--no-textconv', `${base}..${head}`], repo);
    const runs: { verify: Measured; floor: Measured; few: Measured }[] = [];
    for (let run = 0; run < 3; run += 1) runs.push({ floor: floor(), verify: verify(head), few: verify(fewHead) });
    const verifyCpu = median(runs.map((run) => run.verify.cpuMs));
    const floorCpu = median(runs.map((run) => run.floor.cpuMs));
    const verifyPeak = median(runs.map((run) => run.verify.peakMb));
    const fewPeak = median(runs.map((run) => run.few.peakMb));
    context.figure({
      name: `verify CPU over ${count} commits of ${origin}`,
      value: verifyCpu,
      unit: 'ms',
      better: 'lower',
      baseline: { name: 'git log -p of the range', value: floorCpu },
      target: { on: 'ratio', atMost: CPU_TARGET },
      detail: `${((count / verifyCpu) * 1000).toFixed(0)} commits/s of CPU (git log -p: ${((count / floorCpu) * 1000).toFixed(0)}); exit ${String(runs[0]?.verify.status)}`,
    });
    context.figure({
      name: `verify peak RSS at ${count} commits of ${origin}`,
      value: verifyPeak,
      unit: 'MiB',
      better: 'lower',
      baseline: { name: `verify of the first ${FEW} commits`, value: fewPeak },
      target: { on: 'ratio', atMost: MEMORY_TARGET },
      detail: `git log -p ${median(runs.map((run) => run.floor.peakMb)).toFixed(0)} MiB`,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
