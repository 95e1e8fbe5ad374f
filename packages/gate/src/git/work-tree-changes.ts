import { readText } from '@holdfast/core/rules';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Action, CheckInput } from '@holdfast/core/contract';
import { committedPaths, gitOutput } from './pre-commit.js';

/** holdfast's own folder (audit log, caches, a flow's actions.json) is never part of a change. */
const OWN_FOLDER = '.holdfast/';

/**
 * The work tree's change against the last commit as a check input: a changed or new (untracked,
 * not ignored) file is a write of its content on disk, a removed one a delete; `existing` is what
 * the last commit holds, so an added file is a new module. Renames read as delete + add.
 */
export function workTreeChanges(root: string): CheckInput {
  const existing = committedPaths(root);
  const tracked = existing.length > 0 ? gitOutput(root, ['diff', 'HEAD', '--name-status', '--no-renames', '-z']).toString('utf8').split('\0') : [];
  const actions: Action[] = [];
  for (let index = 0; index + 1 < tracked.length; index += 2) {
    const status = tracked[index] as string;
    const path = tracked[index + 1] as string;
    if (path.startsWith(OWN_FOLDER)) continue;
    actions.push(status.startsWith('D') ? { type: 'delete', path } : { type: 'write', path, content: readText(readFileSync(join(root, path))) });
  }
  const untracked = gitOutput(root, ['ls-files', '--others', '--exclude-standard', '-z']).toString('utf8').split('\0');
  for (const path of untracked) {
    if (path === '' || path.startsWith(OWN_FOLDER)) continue;
    actions.push({ type: 'write', path, content: readText(readFileSync(join(root, path))) });
  }
  return { actions, existing };
}
