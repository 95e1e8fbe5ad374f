import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTasks } from '@holdfast/lab/experiment';
import { buildBaseRepo, defaultSandboxParent, materialiseSandbox, removeSandbox } from '@holdfast/lab/sandbox';
import type { BenchContext } from './index.js';

/** Sandbox creation is microseconds; each copy or clone is a process and many milliseconds, so it gets fewer samples. */
const FAST_SAMPLES = 41;
const SLOW_SAMPLES = 5;
/** On a disk a 100 MB copy takes seconds: there the first few task repos, with fewer samples, say enough. */
const DISK = { tasks: 3, slowSamples: 3 };
const TARGET = 10;

/** holdfast's own installed dependencies stand in for a task repository's node_modules. */
const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeMs(action: () => void): number {
  const started = process.hrtime.bigint();
  action();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function run(file: string, args: string[]): void {
  const result = spawnSync(file, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
  if (result.status !== 0) throw new Error(`${file} ${args.join(' ')} failed: ${String(result.stderr).trim()}`);
}

function treeSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/**
 * Creating one arm's sandbox (a linked worktree of the task's base repo: hard-linked files, a
 * link to the node_modules snapshot) against the two plain ways to get the same repository in
 * the same run: `cp -r` of the repository with its node_modules, and `git clone` of it (which
 * brings no node_modules at all). Removal is not timed for any of the three.
 */
interface TaskTimes {
  readonly sandbox: number;
  readonly copy: number;
  readonly clone: number;
}

async function measureIn(parent: string, print: (line: string) => void, limits: { tasks: number; slowSamples: number }): Promise<TaskTimes[]> {
  const root = mkdtempSync(join(parent, 'holdfast-bench-sandbox-'));
  const times: TaskTimes[] = [];
  try {
    const tasks = (await loadTasks()).slice(0, limits.tasks);
    print(
      `  ${'task'.padEnd(26)} ${'files'.padStart(5)} ${'snapshot ms'.padStart(11)} ${'sandbox ms'.padStart(10)} ${'cp -r ms'.padStart(9)} ${'clone ms'.padStart(9)} ${'cp/sandbox'.padStart(10)} ${'clone/sandbox'.padStart(13)}`,
    );
    for (const task of tasks) {
      let snapshotMs = 0;
      const started = performance.now();
      const base = await buildBaseRepo(join(root, 'bases', task.id), task, { nodeModules: NODE_MODULES });
      snapshotMs = performance.now() - started;
      // The plain repository a person would copy: work tree, .git and node_modules in one folder.
      const plain = join(root, 'plain', task.id);
      cpSync(base.workDir, plain, { recursive: true });
      cpSync(base.gitDir, join(plain, '.git'), { recursive: true });
      cpSync(base.nodeModules!, join(plain, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      const sandbox: number[] = [];
      const copy: number[] = [];
      const clone: number[] = [];
      for (let sample = 0; sample < FAST_SAMPLES; sample += 1) {
        const target = join(root, `s-${sample}`);
        sandbox.push(timeMs(() => materialiseSandbox(base, target)));
        removeSandbox(base, target);
        if (sample >= limits.slowSamples) continue;
        const copied = join(root, `c-${sample}`);
        copy.push(timeMs(() => run('cp', ['-r', plain, copied])));
        rmSync(copied, { recursive: true, force: true });
        const cloned = join(root, `g-${sample}`);
        clone.push(timeMs(() => run('git', ['clone', '--quiet', plain, cloned])));
        rmSync(cloned, { recursive: true, force: true });
      }
      rmSync(plain, { recursive: true, force: true });
      const ratio = median(copy) / median(sandbox);
      times.push({ sandbox: median(sandbox), copy: median(copy), clone: median(clone) });
      print(
        `  ${task.id.padEnd(26)} ${String(base.files.length).padStart(5)} ${snapshotMs.toFixed(0).padStart(11)} ${median(sandbox).toFixed(3).padStart(10)} ${median(copy).toFixed(1).padStart(9)} ${median(clone).toFixed(1).padStart(9)} ${`${ratio.toFixed(0)}×`.padStart(10)} ${`${(median(clone) / median(sandbox)).toFixed(0)}×`.padStart(13)}`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return times;
}

export async function runBench(print: (line: string) => void, context: BenchContext): Promise<void> {
  const modules = treeSize(NODE_MODULES);
  print(`sandbox: create one arm's worktree vs \`cp -r\` of the repo with its node_modules and \`git clone\` of the repo (no node_modules), same run`);
  print(
    `  node_modules: holdfast's own (${modules.files} files, ${(modules.bytes / 1e6).toFixed(0)} MB), snapshotted once per task (hard links, copies across file systems)`,
  );
  print(
    `  medians: sandbox of ${FAST_SAMPLES}, cp -r and git clone of ${SLOW_SAMPLES} (${DISK.slowSamples} on a disk); target: creation ≥ ${TARGET}× faster than cp -r`,
  );
  const parents = [...new Set([defaultSandboxParent(), tmpdir()])];
  for (const parent of parents) {
    const memory = parent === defaultSandboxParent();
    print(`${parent}${memory ? ' (where runs put sandboxes)' : ` (a disk: the first ${DISK.tasks} task repos)`}:`);
    const times = await measureIn(parent, print, memory ? { tasks: Infinity, slowSamples: SLOW_SAMPLES } : DISK);
    const worst = Math.min(...times.map((time) => time.copy / time.sandbox));
    const where = memory ? 'where runs put them' : 'on a disk';
    context.figure({
      name: `sandbox creation ${where} (${parent}), median over ${times.length} task repos`,
      value: median(times.map((time) => time.sandbox)),
      unit: 'ms',
      better: 'lower',
      detail: `worst repo ${worst.toFixed(0)}× faster than cp -r`,
      baseline: { name: 'cp -r of the repo with its node_modules', value: median(times.map((time) => time.copy)) },
      target: { on: 'ratio', atMost: 1 / TARGET },
    });
    context.figure({
      name: `sandbox creation ${where} against git clone`,
      value: median(times.map((time) => time.sandbox)),
      unit: 'ms',
      better: 'lower',
      baseline: { name: 'git clone of the repo (no node_modules)', value: median(times.map((time) => time.clone)) },
    });
  }
}
