import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTasks } from '../experiment/tasks.js';
import { buildBaseRepo, defaultSandboxParent, materialiseSandbox, removeSandbox } from '../sandbox/index.js';
import type { BaseRepo } from '../sandbox/index.js';

const SAMPLES = 41;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeMs(action: () => void): number {
  const started = process.hrtime.bigint();
  action();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * Materialise + remove one arm's sandbox, against the plain way to get the same repository: a
 * recursive copy of the task's base repository (work tree and git dir) and its removal. The two
 * alternate sample by sample, so load on the machine hits both alike.
 */
async function measureIn(parent: string, print: (line: string) => void): Promise<number[]> {
  const root = mkdtempSync(join(parent, 'holdfast-bench-sandbox-'));
  const ratios: number[] = [];
  try {
    const tasks = await loadTasks();
    print(`  ${'task'.padEnd(26)} ${'files'.padStart(5)} ${'sandbox ms'.padStart(11)} ${'copy ms'.padStart(9)} ${'ratio'.padStart(7)}`);
    for (const task of tasks) {
      const base: BaseRepo = await buildBaseRepo(join(root, 'bases', task.id), task);
      const baseDir = join(root, 'bases', task.id);
      const sandbox: number[] = [];
      const copy: number[] = [];
      for (let sample = 0; sample < SAMPLES; sample += 1) {
        const target = join(root, `s-${sample}`);
        sandbox.push(timeMs(() => {
          materialiseSandbox(base, target);
          removeSandbox(base, target);
        }));
        const copied = join(root, `c-${sample}`);
        copy.push(timeMs(() => {
          cpSync(baseDir, copied, { recursive: true });
          rmSync(copied, { recursive: true, force: true });
        }));
      }
      const ratio = median(copy) / median(sandbox);
      ratios.push(ratio);
      print(
        `  ${task.id.padEnd(26)} ${String(base.files.length).padStart(5)} ${median(sandbox).toFixed(3).padStart(11)} ${median(copy).toFixed(3).padStart(9)} ${`${ratio.toFixed(1)}×`.padStart(7)}`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return ratios;
}

export async function runBench(print: (line: string) => void): Promise<void> {
  print(`sandbox: materialise + remove one arm's repository vs a plain recursive copy of the base repo (median of ${SAMPLES}; target ≥ 10×)`);
  const parents = [...new Set([defaultSandboxParent(), tmpdir()])];
  for (const parent of parents) {
    print(`${parent}${parent === defaultSandboxParent() ? ' (where runs put sandboxes)' : ''}:`);
    const ratios = await measureIn(parent, print);
    print(`  median ratio over the ${ratios.length} task repos: ${median(ratios).toFixed(1)}× faster than the copy`);
  }
}
