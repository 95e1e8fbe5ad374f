import { join, relative } from 'node:path';
import { toSlashes } from '../io/index.js';
import type { GuardedFile } from './guarded-files.js';
import type { RepoState } from './repo-state.js';
import { readBlobs } from './repo-state.js';
import type { Snapshot } from './snapshot.js';
import { hookSettings, snapshotStorePath } from './snapshot-store.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

/** A rule one change broke, as the model and the audit log read it. */
export interface BrokenRule {
  readonly rule: string;
  readonly name: string;
  readonly detail: string;
}

const TAMPER_DETAIL = "GATE TAMPER: the gate, the agents' hook settings, git hooks and the rulebook are not the agent's to change.";

export function tamper(path: string): BrokenRule {
  return { rule: 'GATE', name: 'TAMPER', detail: `${TAMPER_DETAIL} (${path})` };
}

/**
 * Claude Code writes the permissions a person grants during a call into its settings files; only the
 * rest of them (hooks, above all) is guarded. A missing file reads as empty settings.
 */
function settingsBesidesPermissions(root: string, blob: string | undefined): string {
  if (blob === undefined) return '{}';
  const text = readBlobs({ top: root, gitDir: snapshotStorePath(root) }, [blob], root).get(blob) ?? '';
  const parsed = jsonOrUndefined(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return text;
  const { permissions: _permissions, ...rest } = parsed as Record<string, unknown>;
  return JSON.stringify(rest);
}

function guardedChangeIsTamper(root: string, path: string, before: GuardedFile | undefined, after: GuardedFile | undefined, repo: RepoState | null): boolean {
  const configPath = repo === null ? undefined : toSlashes(relative(root, join(repo.commonDir, 'config')));
  // Git rewrites its config for ordinary work (an upstream, a remote); only the settings that pick hooks are the gate's.
  if (path === configPath && before !== undefined && after !== undefined)
    return hookSettings(root, before.blob).join('\0') !== hookSettings(root, after.blob).join('\0');
  if (/^\.claude\/settings(?:\.local)?\.json$/.test(path))
    return settingsBesidesPermissions(root, before?.blob) !== settingsBesidesPermissions(root, after?.blob);
  return true;
}

export function guardedChanges(
  root: string,
  before: Pick<Snapshot, 'guarded' | 'repo'>,
  after: Pick<Snapshot, 'guarded' | 'repo'>,
): { path: string; before: GuardedFile | undefined; after: GuardedFile | undefined }[] {
  const paths = new Set([...Object.keys(before.guarded), ...Object.keys(after.guarded)]);
  const changed = [];
  for (const path of [...paths].sort()) {
    const previous = before.guarded[path];
    const current = after.guarded[path];
    if (previous?.blob === current?.blob && previous?.kind === current?.kind) continue;
    if (guardedChangeIsTamper(root, path, previous, current, after.repo ?? before.repo)) changed.push({ path, before: previous, after: current });
  }
  return changed;
}
