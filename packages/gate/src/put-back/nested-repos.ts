import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_SETTINGS_NAMES, toSlashes } from '../io/index.js';
import { tryGit } from '../io/index.js';
import { HOLDFAST_DIR } from '../state/index.js';
import type { Snapshot } from '../state/index.js';
import { snapshotStorePath } from '../state/index.js';

/** Folders never searched: git's, holdfast's and the agents' own, and installed dependencies. */
const SKIPPED_AT_TOP = new Set(['.git', HOLDFAST_DIR, ...AGENT_SETTINGS_NAMES, 'node_modules']);

/** Root-relative folders (slashes) below the root that hold a `.git` of their own. */
function nestedRepositories(root: string): string[] {
  const found: string[] = [];
  const pending: string[] = [''];
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    let names: string[];
    try {
      names = readdirSync(join(root, folder));
    } catch {
      continue;
    }
    if (folder !== '' && names.includes('.git')) {
      found.push(folder);
      continue;
    }
    for (const name of names) {
      if (folder === '' && SKIPPED_AT_TOP.has(name)) continue;
      const path = folder === '' ? name : `${folder}/${name}`;
      if (lstatSync(join(root, path), { throwIfNoEntry: false })?.isDirectory() === true) pending.push(path);
    }
  }
  return found.map(toSlashes);
}

/** Whether the snapshot before the call had any file under `folder`. */
function hadFilesUnder(root: string, before: Snapshot, folder: string): boolean {
  const store = snapshotStorePath(root);
  const listed =
    before.index !== undefined
      ? tryGit(['ls-files', '-z', '--', folder], { cwd: root, gitDir: store, ownRepository: true, workTree: root, indexFile: join(store, before.index) })
      : before.tree !== undefined
        ? tryGit(['ls-tree', '-r', '-z', '--name-only', before.tree, '--', folder], { cwd: root, gitDir: store, ownRepository: true })
        : undefined;
  // Unknown is "had files": the folder is not removed on a guess.
  return listed === undefined || listed.status !== 0 || listed.stdout.length > 0;
}

/**
 * Fail closed means put back (issue 27): a git repository a call created inside the project (`git
 * init` in src/) makes the after-the-fact check unable to decide, since git will not look into it.
 * Every such folder the snapshot before the call did not have is the call's own new content, so it is
 * removed whole; the check then runs again over the rest. Returns the folders removed.
 */
export function removeNewNestedRepositories(root: string, before: Snapshot): string[] {
  const removed: string[] = [];
  for (const folder of nestedRepositories(root)) {
    if (hadFilesUnder(root, before, folder)) continue;
    rmSync(join(root, folder), { recursive: true, force: true });
    removed.push(folder);
  }
  return removed;
}
