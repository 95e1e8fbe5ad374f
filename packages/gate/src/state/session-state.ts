import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { writeAtomically } from '../io/index.js';
import { projectKey, sealHome, sealText, unsealText } from './state-seal.js';

/**
 * What the gate remembers of one agent session between tool calls, for the rules that span several
 * calls: which files this session created (R3 TESTS) and the commands it ran since its last change
 * (R6 ORDER: whether one of them is a test run that passed is decided when a commit is judged, so a
 * call that only runs something never needs the test command's pattern). `created` is cleared by a
 * commit, which closes the round.
 */
export interface SessionState {
  readonly version: 1;
  readonly created: readonly string[];
  /** Files that existed before and the session changed since its last commit (a module's existing test it edits counts for R3). */
  readonly changed?: readonly string[] | undefined;
  /** `changed` as it stood at the session's last commit, for the git pre-commit hook that runs after the agent gate cleared it. */
  readonly changedBeforeCommit?: readonly string[] | undefined;
  /** The commands run since the session's last write or delete, oldest first, each once (its latest run). */
  readonly runs: readonly SessionRun[];
}

/**
 * A command the session ran; `failed` says how it ended when a hook saw it fail ("exit code 3").
 * `tree` is the identity of the work tree it passed on (tree-identity.ts), set when the hook after
 * the call saw it end with exit 0 and leave the tree as it found it; `unbound` says why a run that
 * passed has no tree (it changed files while it ran). A required command counts at a commit only
 * when its `tree` is the committed tree's.
 */
export interface SessionRun {
  readonly cmd: string;
  readonly failed?: string | undefined;
  readonly tree?: string | undefined;
  readonly unbound?: string | undefined;
}

/** The most commands kept: a test run further back than this counts as not run (a commit then needs a fresh one). */
export const MAX_SESSION_RUNS = 32;

export const FRESH_SESSION: SessionState = { version: 1, created: [], runs: [] };

export type LoadedSessionState = { state: SessionState; warning: string | undefined };

export const HOLDFAST_DIR = '.holdfast';

/** Session ids come from the agent; a file name made from one must not climb out or collide. */
export function sessionFileName(session: string): string {
  const safe = session.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);
  if (safe === session && safe.length > 0) return `${safe}.json`;
  // node:crypto is loaded only here: agents send plain ids, and every hook process would pay for it.
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const digest = createHash('sha256').update(session).digest('hex').slice(0, 12);
  return `${safe}-${digest}.json`;
}

/**
 * The session's state file; with `extension`, a file of the session's kept beside it (`.outside`: the
 * files left in place against a rule; `.ignores`: its own ignore rules).
 */
export function sessionStatePath(root: string, session: string, extension: '.json' | '.outside' | '.ignores' | '.stops' = '.json'): string {
  const name = sessionFileName(session);
  return join(root, HOLDFAST_DIR, 'sessions', `${name.slice(0, -'.json'.length)}${extension}`);
}

function readState(raw: unknown): SessionState | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  const created = record.created;
  if (record.version !== 1) return undefined;
  if (!Array.isArray(created) || !created.every((path) => typeof path === 'string')) return undefined;
  const runs = record.runs === undefined ? runsOfEarlierState(record) : readRuns(record.runs);
  const changed = optionalPaths(record.changed);
  const changedBeforeCommit = optionalPaths(record.changedBeforeCommit);
  if (runs === null || changed === null || changedBeforeCommit === null) return undefined;
  return { version: 1, created: created as string[], changed, changedBeforeCommit, runs };
}

function readRuns(value: unknown): SessionRun[] | null {
  if (!Array.isArray(value)) return null;
  const runs: SessionRun[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) return null;
    const { cmd, failed, tree, unbound } = entry as Record<string, unknown>;
    if (typeof cmd !== 'string' || !optionalString(failed) || !optionalString(tree) || !optionalString(unbound)) return null;
    runs.push({
      cmd,
      ...(failed === undefined ? {} : { failed: failed as string }),
      ...(tree === undefined ? {} : { tree: tree as string }),
      ...(unbound === undefined ? {} : { unbound: unbound as string }),
    });
  }
  return runs;
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** A state written by an earlier holdfast kept only the last test run (and whether it failed). */
function runsOfEarlierState(record: Record<string, unknown>): SessionRun[] | null {
  const { testedSinceLastWrite, lastTestCommand, lastTestPassed } = record;
  if (typeof testedSinceLastWrite !== 'boolean' || (lastTestCommand !== undefined && typeof lastTestCommand !== 'string')) return null;
  if (!testedSinceLastWrite || lastTestCommand === undefined) return [];
  return [lastTestPassed === false ? { cmd: lastTestCommand, failed: 'it failed' } : { cmd: lastTestCommand }];
}

/** The runs after one more: a command run again moves to the end (its new outcome replaces the old one). */
export function withRun(runs: readonly SessionRun[], cmd: string): SessionRun[] {
  return [...runs.filter((run) => run.cmd !== cmd), { cmd }].slice(-MAX_SESSION_RUNS);
}

/** A list of paths, undefined when absent, null when it is something else. */
function optionalPaths(value: unknown): string[] | undefined | null {
  if (value === undefined) return undefined;
  return Array.isArray(value) && value.every((path) => typeof path === 'string') ? (value as string[]) : null;
}

/** What a session record is sealed for: its own file name, so a record cannot stand in for another session's. */
function sealPurpose(fileName: string): string {
  return `session-state\0${fileName}`;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The mirror of the project's session records, outside the project (see state-seal.ts). */
export function sessionMirrorFolder(root: string): string {
  return join(sealHome(), 'projects', projectKey(realOrSelf(root)));
}

/** The file in a mirror folder naming the project it mirrors, so a sweep can tell the mirror of a project that is gone. */
const MIRROR_PROJECT_FILE = 'project';

/** The mirror folder, made on first use (0700) with a note of the project it mirrors. */
export function ensureSessionMirrorFolder(root: string): string {
  const folder = sessionMirrorFolder(root);
  if (mkdirSync(folder, { recursive: true, mode: 0o700 }) !== undefined) writeFileSync(join(folder, MIRROR_PROJECT_FILE), `${realOrSelf(root)}\n`);
  return folder;
}

type ReadRecord = { kind: 'missing' } | { kind: 'unreadable' } | { kind: 'forged' } | { kind: 'valid'; state: SessionState; text: string };

function readRecord(path: string, fileName: string): ReadRecord {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable' };
  }
  const body = unsealText(sealPurpose(fileName), text);
  const state = body === undefined ? undefined : readState(jsonOrUndefined(body));
  return state === undefined ? { kind: 'forged' } : { kind: 'valid', state, text };
}

/**
 * The session record, authenticated: the copy outside the project (the mirror) is the authority,
 * the one in `.holdfast/sessions/` what a person reads. A record that is missing while its mirror
 * exists, or that differs from it, was deleted, replayed or forged by a command: the mirror's is
 * used and the project's put back. A record no seal verifies is no evidence: tests count as not
 * run and the session's changes are not known (a commit needs a fresh test run). A missing one is a
 * new session. It never crashes the hook.
 */
export function loadSessionState(root: string, session: string): LoadedSessionState {
  return readSessionState(root, session, true);
}

/**
 * The session's state as loadSessionState finds it, without putting the project's copy back: for a
 * look taken before the check after a call, which must still see (and report) what the call did to
 * the record.
 */
export function peekSessionState(root: string, session: string): SessionState {
  return readSessionState(root, session, false).state;
}

function readSessionState(root: string, session: string, putBack: boolean): LoadedSessionState {
  const path = sessionStatePath(root, session);
  const fileName = sessionFileName(session);
  const mirror = readRecord(join(sessionMirrorFolder(root), fileName), fileName);
  const local = readRecord(path, fileName);
  if (mirror.kind === 'valid') {
    if (local.kind !== 'valid' || local.text !== mirror.text) {
      try {
        if (putBack) writeAtomically(path, mirror.text);
      } catch {
        // the mirror is what counts; the project's copy is put back at the next save
      }
      return {
        state: mirror.state,
        warning: `the session record ${path} was ${local.kind === 'missing' ? 'deleted' : 'changed'} outside the gate and is put back`,
      };
    }
    return { state: mirror.state, warning: undefined };
  }
  if (local.kind === 'missing') return { state: FRESH_SESSION, warning: undefined };
  if (local.kind === 'unreadable') return { state: FRESH_SESSION, warning: `the session record ${path} could not be read; tests count as not run` };
  if (local.kind === 'forged' || mirror.kind !== 'missing')
    return { state: FRESH_SESSION, warning: `the session record ${path} is not one the gate wrote (no valid seal); tests count as not run` };
  return { state: local.state, warning: undefined };
}

/** Sealed, written to a temporary file and renamed (a reader never sees half a record), here and in the mirror. */
export function saveSessionState(root: string, session: string, state: SessionState): void {
  const path = sessionStatePath(root, session);
  const fileName = sessionFileName(session);
  const text = sealText(sealPurpose(fileName), `${JSON.stringify(state)}\n`);
  mkdirSync(join(root, HOLDFAST_DIR, 'sessions'), { recursive: true });
  writeAtomically(path, text);
  try {
    const mirror = ensureSessionMirrorFolder(root);
    writeAtomically(join(mirror, fileName), text);
  } catch {
    // without a home to mirror into, the sealed project copy is the record (a replay of it is not seen)
  }
}

/**
 * The gate's own sealed `.json` files that sit beside the session records in the mirror folder and
 * are never a session (guarded-baseline.ts, ref-baseline.ts): taking the newest `.json` once named `guarded-baseline`
 * as the agent session after `holdfast install` rewrote the baseline.
 */
const NOT_SESSION_RECORDS: ReadonlySet<string> = new Set(['guarded-baseline.json', 'ref-baseline.json']);

/**
 * The session the agent gate saw last in this project (the session record written most recently,
 * among the mirror's when there is one), for the git hooks when no open call names the session.
 * Undefined when the agent gate never ran here. A record that does not verify is no evidence.
 */
export function latestSessionState(root: string): (LoadedSessionState & { session: string }) | undefined {
  const mirror = sessionMirrorFolder(root);
  const latest = newestRecord(mirror) ?? newestRecord(join(root, HOLDFAST_DIR, 'sessions'));
  if (latest === undefined) return undefined;
  const session = latest.slice(0, -'.json'.length);
  const record = readRecord(join(mirror, latest), latest);
  if (record.kind === 'valid') return { session, state: record.state, warning: undefined };
  const local = readRecord(join(root, HOLDFAST_DIR, 'sessions', latest), latest);
  if (local.kind === 'valid' && record.kind === 'missing') return { session, state: local.state, warning: undefined };
  return { session, state: FRESH_SESSION, warning: `the session record of ${session} is missing or not one the gate wrote; tests count as not run` };
}

/**
 * A named session's record for the git hooks (an open call names it), authenticated as
 * loadSessionState does but without putting the project's copy back: git's hooks are not the agent
 * gate's check.
 */
export function sessionStateOf(root: string, session: string): LoadedSessionState & { session: string } {
  return { ...readSessionState(root, session, false), session };
}

function newestRecord(folder: string): string | undefined {
  let latest: { file: string; mtimeMs: number } | undefined;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  for (const file of names) {
    if (!file.endsWith('.json') || NOT_SESSION_RECORDS.has(file)) continue;
    try {
      const { mtimeMs } = statSync(join(folder, file));
      if (latest === undefined || mtimeMs > latest.mtimeMs) latest = { file, mtimeMs };
    } catch {
      // removed meanwhile
    }
  }
  return latest?.file;
}
