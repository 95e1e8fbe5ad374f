import { existsSync } from 'node:fs';
import { putBackGuardedBetweenCalls, loadGuardedBaseline, saveGuardedBaseline } from '../state/index.js';
import type { BetweenCalls } from '../state/index.js';
import { GUARDED_RACY_MS, captureGuarded, currentBlob, statGuarded } from '../state/index.js';
import type { GuardedFile } from '../state/index.js';
import { locateRepo, readRepoState } from '../state/index.js';
import { snapshotStorePath } from '../state/index.js';

/** What the cheap comparison found: nothing changed, only identities (same content), or content. */
type Comparison = { kind: 'same' } | { kind: 'identities'; refreshed: Record<string, GuardedFile> } | { kind: 'changed' };

function compareWithBaseline(root: string, baseline: Readonly<Record<string, GuardedFile>>, nowMs: number): Comparison {
  const repo = locateRepo(root) ?? null;
  const stated = statGuarded(root, repo);
  if (stated.size !== Object.keys(baseline).length) return { kind: 'changed' };
  const refreshed: Record<string, GuardedFile> = { ...baseline };
  let identities = false;
  for (const [path, file] of stated) {
    const known = baseline[path];
    if (known === undefined || known.kind !== file.kind) return { kind: 'changed' };
    if (known.identity === file.identity) continue;
    // Another identity (touched, copied over, or a racy write we could not trust before): only the content decides.
    if (currentBlob(file) !== known.blob) return { kind: 'changed' };
    identities = true;
    refreshed[path] = { blob: known.blob, kind: known.kind, ...(file.changedMs < nowMs - GUARDED_RACY_MS ? { identity: file.identity } : {}) };
  }
  return identities ? { kind: 'identities', refreshed } : { kind: 'same' };
}

/**
 * The between-calls comparison for a call that takes no snapshot (a read-only shell call, a
 * file-editing tool): guarded files changed since the last check by a process that outlived its call
 * are put back and named, as the snapshotted path does (guarded-baseline.ts). Cheap on the common path:
 * one lstat per guarded file against the sealed baseline's identities; a file is read and hashed only
 * when its identity differs, and the full comparison (every guarded file read) runs only when some
 * content did. Nothing to compare before the project's first check (no store, no baseline).
 */
export function putBackGuardedAtCall(root: string, at: Date, observe: boolean): BetweenCalls['restored'] {
  if (!existsSync(snapshotStorePath(root))) return [];
  const baseline = loadGuardedBaseline(root);
  if (baseline === undefined) return [];
  const found = compareWithBaseline(root, baseline, Date.now());
  if (found.kind === 'same') return [];
  if (found.kind === 'identities') {
    if (!observe) saveGuardedBaseline(root, found.refreshed);
    return [];
  }
  const repo = readRepoState(root);
  return putBackGuardedBetweenCalls(root, captureGuarded(root, snapshotStorePath(root), repo), repo, at, observe).restored;
}
