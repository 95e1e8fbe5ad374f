import { chmodSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Makes every folder under `path` writable and searchable again, so its entries can be removed. */
function unlock(path: string): void {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isDirectory()) return;
  try {
    chmodSync(path, 0o700);
    for (const entry of readdirSync(path)) unlock(join(path, entry));
  } catch {
    // What cannot be unlocked is reported by the second removal.
  }
}

/**
 * Removes a tree a model-written command may have left hostile (a folder made unreadable or
 * read-only): on a permission error the folders are unlocked and the removal tried again. It
 * never throws: leftovers are returned as a reason, so cleanup cannot end a run.
 */
export function removeTree(path: string): string | undefined {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
    return undefined;
  } catch {
    unlock(path);
  }
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
    return undefined;
  } catch (error) {
    return `${path} could not be removed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
