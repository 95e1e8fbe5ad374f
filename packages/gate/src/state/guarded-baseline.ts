import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { writeAtomically } from '../io/index.js';
import { guardedChanges } from './guarded-changes.js';
import { captureGuarded, restoreGuarded } from './guarded-files.js';
import type { GuardedFile, GuardedFiles } from './guarded-files.js';
import { readRepoState } from './repo-state.js';
import type { RepoState } from './repo-state.js';
import { snapshotStorePath } from './snapshot-store.js';
import { journalReverts } from './revert-journal.js';
import { ensureSessionMirrorFolder, sessionMirrorFolder } from './session-state.js';
import { sealText, unsealText } from './state-seal.js';

const PURPOSE = 'guarded-baseline';

function baselinePath(root: string): string {
  return join(sessionMirrorFolder(root), 'guarded-baseline.json');
}

function isGuardedFile(value: unknown): value is GuardedFile {
  if (typeof value !== 'object' || value === null) return false;
  const { blob, kind, identity } = value as Record<string, unknown>;
  return (
    typeof blob === 'string' &&
    /^[0-9a-f]{40,64}$/.test(blob) &&
    (kind === 'file' || kind === 'executable' || kind === 'symlink') &&
    (identity === undefined || typeof identity === 'string')
  );
}

/**
 * The guarded files (hook settings, git's hooks and config, `.holdfast/`, …) as the last check left
 * them, kept sealed outside the project (state-seal.ts): a process that outlived its call and
 * rewrote them, or the record, is found at the next call and at the end of the turn.
 */
export function loadGuardedBaseline(root: string): GuardedFiles | undefined {
  let text: string;
  try {
    text = readFileSync(baselinePath(root), 'utf8');
  } catch {
    return undefined;
  }
  const body = unsealText(PURPOSE, text);
  const parsed = body === undefined ? undefined : jsonOrUndefined(body);
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const files: Record<string, GuardedFile> = {};
  for (const [path, file] of Object.entries(parsed))
    if (isGuardedFile(file)) files[path] = { blob: file.blob, kind: file.kind, ...(file.identity === undefined ? {} : { identity: file.identity }) };
  return files;
}

/**
 * Keeps the guarded files as a check leaves them, each with its identity when it had settled (see
 * GuardedFile): the cheap comparison at every call (guarded-stat-check.ts) reads only a file whose
 * identity differs. One that cannot be written only loses the between-calls check.
 */
export function saveGuardedBaseline(root: string, guarded: GuardedFiles): void {
  const plain: Record<string, GuardedFile> = {};
  for (const [path, file] of Object.entries(guarded))
    plain[path] = { blob: file.blob, kind: file.kind, ...(file.identity === undefined ? {} : { identity: file.identity }) };
  try {
    ensureSessionMirrorFolder(root);
    writeAtomically(baselinePath(root), sealText(PURPOSE, JSON.stringify(plain)));
  } catch {
    // no home to keep it in
  }
}

export interface BetweenCalls {
  /** The guarded files as they are after the put-back. */
  readonly guarded: GuardedFiles;
  /** The paths changed since the last check, put back (or removed when the last check had none). */
  readonly restored: readonly string[];
}

/**
 * Guarded files changed while no checked call ran (a detached process, a script's child) are put
 * back to what the last check left, with the same tamper rules as a call's own change (git's config
 * only for its hook settings, Claude Code's settings besides the permissions a person grants).
 * Without a baseline (the project's first check) the files as they are become it.
 */
export function putBackGuardedBetweenCalls(root: string, now: GuardedFiles, repo: RepoState | null, at: Date, observe = false): BetweenCalls {
  const baseline = loadGuardedBaseline(root);
  if (baseline === undefined) {
    if (!observe) saveGuardedBaseline(root, now);
    return { guarded: now, restored: [] };
  }
  const changes = guardedChanges(root, { guarded: baseline, repo }, { guarded: now, repo });
  if (observe) return { guarded: now, restored: changes.map((change) => change.path) };
  // Changes that are not tamper (an upstream in git's config, a permission granted) become the baseline.
  if (changes.length === 0) {
    if (!sameFiles(baseline, now)) saveGuardedBaseline(root, now);
    return { guarded: now, restored: [] };
  }
  const guarded: Record<string, GuardedFile> = { ...now };
  for (const change of changes) {
    restoreGuarded(root, change.path, change.before);
    if (change.before === undefined) delete guarded[change.path];
    else guarded[change.path] = { blob: change.before.blob, kind: change.before.kind };
  }
  saveGuardedBaseline(root, guarded);
  journalReverts(
    root,
    changes.map((change) => ({ path: change.path, from: change.after?.blob ?? null, to: change.before?.blob ?? null })),
    at,
  );
  return { guarded, restored: changes.map((change) => change.path) };
}

function sameFiles(left: GuardedFiles, right: GuardedFiles): boolean {
  const paths = Object.keys(left);
  return paths.length === Object.keys(right).length && paths.every((path) => left[path]?.blob === right[path]?.blob && left[path]?.kind === right[path]?.kind);
}

/** The model's sentence for guarded files put back between calls. */
export function betweenCallsReason(restored: readonly string[]): string {
  return `GATE TAMPER: ${restored.join(', ')} changed while no tool call was running (a process that outlived its call, or a script's child) and ${restored.length === 1 ? 'was' : 'were'} put back: the agents' hook settings, git's hooks and config, holdfast's state and the rulebook are the person's to change, not the agent's. Leave them as they are and carry on with the task.`;
}

/**
 * At the end of the turn (Stop): the between-calls check for a project the gate has checked before
 * (it has a store); a lstat of each guarded file, and a read only of those whose identity changed.
 */
export function putBackGuardedAtTurnEnd(root: string, at: Date, observe: boolean): readonly string[] {
  const store = snapshotStorePath(root);
  if (!existsSync(store)) return [];
  const repo = readRepoState(root);
  return putBackGuardedBetweenCalls(root, captureGuarded(root, store, repo, { reuseUnchanged: true }), repo, at, observe).restored;
}

/**
 * `holdfast install` and `uninstall` are the person's own changes to the guarded files: the baseline
 * takes them, so the next call does not put them back. Only where the gate has checked before.
 */
export function refreshGuardedBaseline(root: string): void {
  const store = snapshotStorePath(root);
  if (!existsSync(store) || loadGuardedBaseline(root) === undefined) return;
  saveGuardedBaseline(root, captureGuarded(root, store, readRepoState(root), { reuseUnchanged: true }));
}
