import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What one arm's work tree may hold, in bytes, unless the run says otherwise. */
export const DEFAULT_SANDBOX_MAX_BYTES = 256 * 1024 * 1024;

const MEGABYTE = 1024 * 1024;

/** The cap as a person reads it: whole megabytes when it is one, else with a decimal or in kB. */
export function formatCap(bytes: number): string {
  if (bytes >= MEGABYTE) return Number.isInteger(bytes / MEGABYTE) ? `${bytes / MEGABYTE} MB` : `${(bytes / MEGABYTE).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} kB`;
  return `${bytes} bytes`;
}

/** The sentence every over-cap outcome starts with, so a reader (and a test) can find it whatever the mode. */
export function overCapReason(maxBytes: number): string {
  return `sandbox over its ${formatCap(maxBytes)} cap`;
}

/** A write the budget allows, or the reason it does not. */
export type BudgetDecision = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * The bytes a work tree holds, counted cheaply: the file sizes holdfast writes are added as they
 * land, and after a command (which may write anything) the tree is walked again, the walk stopping
 * as soon as it passes the cap. `.git` and `node_modules` links are not followed: the arm's history
 * and the task's shared install are not the arm's writes.
 */
export interface SizeBudget {
  readonly maxBytes: number;
  /** Bytes the tree held at the last count. */
  used(): number;
  /** Whether writing `bytes` at `relative` keeps the tree within the cap; if so the write is counted. */
  admitWrite(relative: string, bytes: number): BudgetDecision;
  /** Called before `relative` (a file or a folder) is deleted: its bytes no longer count. */
  forget(relative: string): void;
  /** Walks the tree again (after a command); over the cap, the reason says by how much at least. */
  measure(): BudgetDecision;
}

/** Sums the sizes under `root`, without following links, stopping once the sum passes `limit`. */
export function treeBytes(root: string, limit: number): number {
  let total = 0;
  const folders = [root];
  while (folders.length > 0 && total <= limit) {
    const folder = folders.pop()!;
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      if (folder === root && name === '.git') continue;
      const path = join(folder, name);
      const stats = lstatSync(path, { throwIfNoEntry: false });
      if (stats === undefined) continue;
      if (stats.isDirectory()) folders.push(path);
      else if (stats.isFile()) total += stats.size;
      if (total > limit) break;
    }
  }
  return total;
}

function sizeOf(absolute: string): number {
  const stats = lstatSync(absolute, { throwIfNoEntry: false });
  return stats?.isFile() === true ? stats.size : 0;
}

/** A budget for the work tree at `workDir`, starting from what the tree holds now. */
export function createSizeBudget(workDir: string, maxBytes: number): SizeBudget {
  let used = treeBytes(workDir, maxBytes);
  return {
    maxBytes,
    used: () => used,
    admitWrite(relative, bytes) {
      const projected = used - sizeOf(join(workDir, relative)) + bytes;
      if (projected > maxBytes) {
        return {
          ok: false,
          reason: `${overCapReason(maxBytes)}: writing ${relative} (${bytes} bytes) would bring the work tree to ${projected} bytes`,
        };
      }
      used = projected;
      return { ok: true };
    },
    forget(relative) {
      const absolute = join(workDir, relative);
      const stats = lstatSync(absolute, { throwIfNoEntry: false });
      const bytes = stats?.isDirectory() === true ? treeBytes(absolute, Number.POSITIVE_INFINITY) : sizeOf(absolute);
      used = Math.max(0, used - bytes);
    },
    measure() {
      used = treeBytes(workDir, maxBytes);
      if (used > maxBytes) return { ok: false, reason: `${overCapReason(maxBytes)}: the work tree holds more than ${used} bytes after the command` };
      return { ok: true };
    },
  };
}
