import { copyFileSync, linkSync, mkdirSync, readdirSync, readlinkSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface SnapshotStats {
  readonly files: number;
  readonly folders: number;
  /** Files that had to be copied because a hard link was impossible (another file system). */
  readonly copied: number;
}

/**
 * A task's node_modules, taken once per task: the folder tree is recreated and every file hard
 * linked (copied when the source is on another file system), links kept as links. Sandboxes
 * then reach it through one symlink each, and under bubblewrap it is bound read-only, so no
 * round can change what the next one installs from.
 */
export function snapshotNodeModules(source: string, destination: string): SnapshotStats {
  let files = 0;
  let folders = 0;
  let copied = 0;
  const walk = (from: string, to: string) => {
    mkdirSync(to);
    folders += 1;
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      const sourcePath = join(from, entry.name);
      const destinationPath = join(to, entry.name);
      if (entry.isDirectory()) walk(sourcePath, destinationPath);
      else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(sourcePath), destinationPath);
      else if (entry.isFile()) {
        files += 1;
        try {
          linkSync(sourcePath, destinationPath);
        } catch {
          copyFileSync(sourcePath, destinationPath);
          copied += 1;
        }
      }
    }
  };
  const real = realpathSync(source);
  if (!statSync(real).isDirectory()) throw new Error(`${source} is not a folder`);
  walk(real, destination);
  return { files, folders, copied };
}
