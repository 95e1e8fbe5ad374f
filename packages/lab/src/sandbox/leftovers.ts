import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTree } from './remove-tree.js';

const OWNER_FILE = 'holdfast-owner.pid';

/** Marks a run's sandbox folder with the pid of the process that made it, so a later run can tell a leftover. */
export function markOwner(root: string, pid = process.pid): void {
  writeFileSync(join(root, OWNER_FILE), `${pid}\n`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, it is someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the sandbox folders under `parent` named `prefix…` whose owner process is gone: what a
 * run killed with SIGKILL left behind (its exit hook never ran). A folder without an owner mark, or
 * whose owner still runs, is left alone. Returns the folders removed.
 */
export function removeLeftovers(parent: string, prefix: string): string[] {
  let names: string[];
  try {
    names = readdirSync(parent).filter((name) => name.startsWith(prefix));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const folder = join(parent, name);
    let pid: number;
    try {
      pid = Number.parseInt(readFileSync(join(folder, OWNER_FILE), 'utf8'), 10);
    } catch {
      continue;
    }
    if (!Number.isInteger(pid) || pid <= 0 || isRunning(pid)) continue;
    removeTree(folder);
    removed.push(folder);
  }
  return removed;
}
