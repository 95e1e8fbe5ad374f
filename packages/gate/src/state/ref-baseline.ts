import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { writeAtomically } from '../io/index.js';
import { isWatchedRef } from './repo-state.js';
import type { RepoLocation, RepoState } from './repo-state.js';
import { ensureSessionMirrorFolder, sessionMirrorFolder } from './session-state.js';
import { sealText, unsealText } from './state-seal.js';

/**
 * Every ref of the repository as the gate last accepted it: the watched refs of RepoState (every
 * namespace but remote-tracking and notes), where HEAD pointed, and the replace refs. Kept sealed
 * outside the project, keyed by the repository's top, so the agent hook and the git hooks of one
 * repository compare with the same record.
 */
export interface RefBaseline {
  readonly headRef: string | null;
  readonly headCommit: string | null;
  readonly refs: Readonly<Record<string, string>>;
  readonly replaced: Readonly<Record<string, string>>;
}

const BASELINE_PURPOSE = 'ref-baseline';
const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function baselinePath(location: RepoLocation): string {
  return join(sessionMirrorFolder(location.top), 'ref-baseline.json');
}

function readSealed(path: string, purpose: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const body = unsealText(purpose, text);
  return body === undefined ? undefined : jsonOrUndefined(body);
}

function writeSealed(location: RepoLocation, path: string, purpose: string, value: unknown): void {
  try {
    ensureSessionMirrorFolder(location.top);
    writeAtomically(path, sealText(purpose, JSON.stringify(value)));
  } catch {
    // no home to keep it in: the next event compares with nothing and takes the refs as they are
  }
}

function idMap(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const map: Record<string, string> = {};
  for (const [name, id] of Object.entries(value)) {
    if (typeof id !== 'string' || !OBJECT_ID.test(id) || !name.startsWith('refs/')) return undefined;
    map[name] = id;
  }
  return map;
}

/** The baseline, or undefined when there is none or it does not verify (then the refs as they are become it). */
export function loadRefBaseline(location: RepoLocation): RefBaseline | undefined {
  const parsed = readSealed(baselinePath(location), BASELINE_PURPOSE);
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { headRef, headCommit, refs, replaced } = parsed as Record<string, unknown>;
  const refMap = idMap(refs);
  const replaceMap = idMap(replaced);
  if (refMap === undefined || replaceMap === undefined) return undefined;
  if (headRef !== null && (typeof headRef !== 'string' || !headRef.startsWith('refs/'))) return undefined;
  if (headCommit !== null && (typeof headCommit !== 'string' || !OBJECT_ID.test(headCommit))) return undefined;
  return { headRef, headCommit, refs: refMap, replaced: replaceMap };
}

export function saveRefBaseline(location: RepoLocation, baseline: RefBaseline): void {
  writeSealed(location, baselinePath(location), BASELINE_PURPOSE, baseline);
}

/** The baseline's refs as a RepoState of the repository at `location` (what movedRefs compares with). */
export function baselineState(location: RepoLocation, baseline: RefBaseline): RepoState {
  return { ...location, headRef: baseline.headRef, headCommit: baseline.headCommit, refs: baseline.refs };
}

/** One ref update a git transaction makes: `HEAD` or a full ref name, and its new value (all zeros: deleted). */
export interface RefUpdateSeen {
  readonly ref: string;
  readonly newValue: string;
}

/**
 * The moves of a git transaction the reference-transaction hook judged and let through (or let
 * through unjudged as a person's `git commit --no-verify`) become the baseline: the gate saw them, so
 * the between-calls check neither judges them again nor puts a ref back past them. Taken in the
 * prepared state; a transaction aborted after it leaves the ref where it was, a move onto commits the
 * baseline already reaches, which is never judged. Without a baseline there is nothing to keep.
 */
export function noteRefUpdates(location: RepoLocation, updates: readonly RefUpdateSeen[]): void {
  const baseline = loadRefBaseline(location);
  if (baseline === undefined || updates.length === 0) return;
  const refs: Record<string, string> = { ...baseline.refs };
  const replaced: Record<string, string> = { ...baseline.replaced };
  let { headCommit } = baseline;
  for (const { ref, newValue } of updates) {
    const id = OBJECT_ID.test(newValue) && /[^0]/.test(newValue) ? newValue : null;
    if (ref === 'HEAD' || ref === baseline.headRef) headCommit = id ?? (ref === 'HEAD' ? null : headCommit);
    if (ref.startsWith('refs/replace/')) {
      if (id === null) delete replaced[ref];
    } else if (isWatchedRef(ref)) {
      if (id === null) delete refs[ref];
      else refs[ref] = id;
    }
  }
  saveRefBaseline(location, { headRef: baseline.headRef, headCommit, refs, replaced });
}
