import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { removeFile, uniqueSuffix, writeAtomically } from '../io/index.js';
import { nodeCrypto } from '../io/index.js';
import { SnapshotError, runGit, startGitDetached } from '../io/index.js';
import { putBackGuardedBetweenCalls } from './guarded-baseline.js';
import { captureGuarded } from './guarded-files.js';
import type { CaptureOptions, GuardedFiles } from './guarded-files.js';
import { readRepoState } from './repo-state.js';
import type { RepoState } from './repo-state.js';
import { ensureSessionMirrorFolder, sessionFileName, sessionMirrorFolder } from './session-state.js';
import { sealText, unsealText } from './state-seal.js';
import { ensureStore, priorIndexPath, snapshotIndex, snapshotStorePath, snapshotTree, workTreeSince } from './snapshot-store.js';
import type { AddedIndex, TreePair } from './snapshot-store.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

/** How long a record of a call whose PostToolUse never came (a denied or interrupted call) is kept. */
const STALE_RECORD_MS = 24 * 60 * 60 * 1000;

export interface Snapshot {
  /**
   * The work tree (what git would see, .gitignore honoured): as a tree id in the store, or (a shell
   * call's before side) as an index file in the store, its tree written only if the call changed something.
   */
  readonly tree?: string;
  /** That index file, relative to the store. */
  readonly index?: string;
  /** `.claude/`, `.codex/`, `.holdfast/` (but holdfast's own files), and the repository's config and hooks. */
  readonly guarded: GuardedFiles;
  /** The user's repository: HEAD and branch/tag tips; null outside a repository. */
  readonly repo: RepoState | null;
}

interface SnapshotOptions extends Pick<CaptureOptions, 'reuseUnchanged'> {
  /** Keep the work tree as an index file at this path in the store instead of writing its tree. */
  readonly keepIndexAs?: string;
  /** The work tree already added to an index by this call's decision (see workTreeTreeAside). */
  readonly added?: AddedIndex;
}

/** Snapshots the project: work tree, guarded files and the repository's refs (see CaptureOptions for reuseUnchanged). */
export function takeSnapshot(root: string, options: SnapshotOptions = {}): Snapshot {
  const absoluteRoot = resolve(root);
  const repo = readRepoState(absoluteRoot);
  const store = ensureStore(absoluteRoot, repo);
  const guarded = captureGuarded(absoluteRoot, store, repo, options);
  if (options.keepIndexAs === undefined) return { tree: snapshotTree(absoluteRoot, store), guarded, repo };
  snapshotIndex(absoluteRoot, store, join(store, options.keepIndexAs), options.added, checkedCallIndex(absoluteRoot));
  return { index: options.keepIndexAs, guarded, repo };
}

/** The project after a shell call, against the snapshot taken before it. */
export interface SnapshotAfter {
  /** The work tree's trees before and after; null when git sees nothing changed. */
  readonly trees: TreePair | null;
  /** The SHA-256 of the index the work tree was read into: the work tree as this check found it. */
  readonly indexDigest: string;
  readonly guarded: GuardedFiles;
  readonly repo: RepoState | null;
}

export function takeSnapshotAfter(root: string, before: Snapshot): SnapshotAfter {
  const absoluteRoot = resolve(root);
  const repo = readRepoState(absoluteRoot);
  const store = ensureStore(absoluteRoot, repo);
  const guarded = captureGuarded(absoluteRoot, store, repo, { unchangedSince: before.guarded });
  return { ...workTreeSince(absoluteRoot, store, before), guarded, repo };
}

interface RecordBase {
  readonly version: 1;
  readonly session: string;
  readonly toolUseId: string | null;
  readonly time: string;
}

/** What a shell call's PreToolUse leaves for its PostToolUse. */
export interface SnapshotRecord extends Snapshot, RecordBase {
  /** Guarded files found changed since the last check (between calls) and put back before this call. */
  readonly betweenCalls?: readonly string[];
}

/**
 * What a read-only shell call leaves instead: the shell analysis found nothing it could change (only
 * read-only programs, no redirection into a file, no commit), so there is nothing to compare after
 * it and no snapshot to pay for. Its PostToolUse finds this and stays silent.
 */
export interface ReadOnlyRecord extends RecordBase {
  readonly readOnly: true;
}

type CallRecord = SnapshotRecord | ReadOnlyRecord;

function callsFolder(root: string): string {
  return join(snapshotStorePath(root), 'calls');
}

function sessionPrefix(session: string): string {
  return `s-${nodeCrypto().createHash('sha256').update(session).digest('hex').slice(0, 16)}-`;
}

function recordName(toolUseId: string): string {
  return `t-${sessionFileName(toolUseId)}`;
}

/** Without a tool_use_id, a session's records are named by time; the oldest open one answers the next PostToolUse. */
function sessionRecords(root: string, session: string): string[] {
  const prefix = sessionPrefix(session);
  let names: string[];
  try {
    names = readdirSync(callsFolder(root));
  } catch {
    return [];
  }
  return names.filter((name) => name.startsWith(prefix) && name.endsWith('.json')).sort();
}

/** How often the store drops objects nothing needs any more, and how old such an object must be. */
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EXPIRE = '14.days.ago';

/**
 * Once a day the store drops objects no index holds and older than two weeks: the contents of files
 * long since changed again, refused content past the time a person would recover it from the audit
 * log, and the trees of old comparisons. A call in flight is younger than that. `git prune` runs
 * detached, so no tool call waits for it.
 */
function pruneStoreDaily(root: string, now: number): void {
  const marker = `${snapshotStorePath(root)}.pruned`;
  try {
    if (now - statSync(marker).mtimeMs < PRUNE_EVERY_MS) return;
  } catch {
    // never pruned: the first sweep only starts the clock
    writeFileSync(marker, '');
    return;
  }
  writeFileSync(marker, '');
  pruneStore(root, { wait: false });
}

/** `git prune` in the store; `wait: false` leaves it running on its own. */
export function pruneStore(root: string, options: { wait: boolean }): void {
  const store = snapshotStorePath(root);
  const args = ['prune', `--expire=${PRUNE_EXPIRE}`];
  if (options.wait) runGit(args, { cwd: root, gitDir: store, ownRepository: true });
  else startGitDetached(args, { cwd: root, gitDir: store, ownRepository: true });
}

/** How often the calls folder is swept for stale records (each sweep stats every record in it). */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Removes records older than STALE_RECORD_MS, at most once an hour: a hook is a process per call, and
 * statting every record on every call would make each call slower the more calls were interrupted.
 * Ages are measured against the record just written, so the file system's clock is compared with itself.
 */
function dropStaleRecords(root: string, newest: string): void {
  const folder = callsFolder(root);
  // Beside the calls folder, which holds only records.
  const marker = `${folder}.swept`;
  let names: string[];
  let now: number;
  try {
    now = statSync(newest).mtimeMs;
    try {
      if (now - statSync(marker).mtimeMs < SWEEP_EVERY_MS) return;
    } catch {
      // never swept: sweep now
    }
    writeFileSync(marker, '');
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const path of [...names.map((name) => join(folder, name)), ...mirroredCalls(root)]) {
    try {
      if (now - statSync(path).mtimeMs > STALE_RECORD_MS) unlinkSync(path);
    } catch {
      // another call removed it first
    }
  }
  pruneStoreDaily(root, now);
}

/**
 * The PreToolUse side of the after-the-fact check: snapshots the project before a shell call runs and
 * records it for the call's PostToolUse, keyed by tool_use_id (session + a counter when the agent sends
 * none). Guarded files changed since the last check are put back first (see guarded-baseline.ts).
 * Throws SnapshotError when it cannot: the caller must then refuse the call (fail closed).
 */
export function beforeShellCall(
  root: string,
  session: string,
  toolUseId: string | undefined,
  now: () => Date = () => new Date(),
  added?: AddedIndex,
): SnapshotRecord {
  const name = recordFileName(session, toolUseId);
  // A "before" replayed for a call whose snapshot is still open must not move its baseline past what
  // the call already changed: the first snapshot stays the one its PostToolUse compares with. One
  // whose call was checked is replaced (the caller judged it first: see put-back/checked-calls.ts).
  if (toolUseId !== undefined && toolUseId !== '') {
    const open = findSnapshotRecord(root, session, toolUseId);
    if (open !== undefined && !('readOnly' in open.record) && !open.checked) return open.record;
  }
  const taken = takeSnapshot(root, { reuseUnchanged: true, keepIndexAs: `calls/${indexFileName(name)}`, ...(added === undefined ? {} : { added }) });
  const at = now();
  const between = putBackGuardedBetweenCalls(resolve(root), taken.guarded, taken.repo, at);
  const snapshot = { ...taken, guarded: between.guarded, ...(between.restored.length > 0 ? { betweenCalls: between.restored } : {}) };
  const record: SnapshotRecord = { version: 1, session, toolUseId: toolUseId ?? null, time: at.toISOString(), ...snapshot };
  writeRecord(root, name, record);
  return record;
}

/**
 * Whether the gate let go of the record of this call (its check was done and a later snapshot of the
 * session covered it): a "before" that names it again is a replay, not a new call.
 */
export function callWasCovered(root: string, toolUseId: string | undefined): boolean {
  if (toolUseId === undefined || toolUseId === '') return false;
  const name = goneName(recordName(toolUseId));
  return markFolders(root).some((folder) => existsSync(join(folder, name)));
}

function goneName(recordName: string): string {
  return `${recordName}.gone`;
}

/** Records a call the shell analysis found read-only: its PostToolUse has nothing to compare. */
export function beforeReadOnlyShellCall(
  root: string,
  session: string,
  toolUseId: string | undefined,
  now: () => Date = () => new Date(),
): SnapshotRecord | ReadOnlyRecord {
  // A "before" that names a call with a snapshot (open or checked) never replaces it with a marker: its after-call compares with it.
  if (toolUseId !== undefined && toolUseId !== '') {
    const open = findSnapshotRecord(root, session, toolUseId);
    if (open !== undefined && !('readOnly' in open.record)) return open.record;
  }
  // The marker lives in the store's calls folder: on the project's first shell call, make the store
  // itself first (a bare calls folder would stand in the way of creating it later).
  if (!existsSync(callsFolder(root))) {
    const absoluteRoot = resolve(root);
    ensureStore(absoluteRoot, readRepoState(absoluteRoot));
  }
  const record: ReadOnlyRecord = { version: 1, session, toolUseId: toolUseId ?? null, time: now().toISOString(), readOnly: true };
  writeRecord(root, recordFileName(session, toolUseId), record);
  return record;
}

function recordFileName(session: string, toolUseId: string | undefined): string {
  if (toolUseId !== undefined && toolUseId !== '') return recordName(toolUseId);
  return `${sessionPrefix(session)}${String(Date.now()).padStart(15, '0')}-${uniqueSuffix()}.json`;
}

/** The before-index of a call sits beside its record (and is swept with it). */
function indexFileName(recordFile: string): string {
  return recordFile.replace(/\.json$/, '.index');
}

/** What a call's record is sealed for: its own name, so one call's record cannot stand in for another's. */
function recordPurpose(name: string): string {
  return `call-record\0${name}`;
}

/** Beside the session records outside the project: each open call's record and its before-index (see findSnapshotRecord). */
function mirrorCalls(root: string): string {
  return join(sessionMirrorFolder(root), 'calls');
}

function fileDigest(path: string): string | undefined {
  try {
    return nodeCrypto().createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * Sealed (state-seal.ts), with the SHA-256 of its before-index, and mirrored outside the project with a
 * copy of that index: a command that edits the index to make its own change look like the state
 * before it, or rewrites or deletes the record, is found and put back at the check after it.
 */
function writeRecord(root: string, name: string, record: CallRecord): void {
  mkdirSync(callsFolder(root), { recursive: true });
  const path = join(callsFolder(root), name);
  const index = 'index' in record && record.index !== undefined ? join(snapshotStorePath(root), record.index) : undefined;
  const digest = index === undefined ? undefined : fileDigest(index);
  const text = sealText(recordPurpose(name), `${JSON.stringify(digest === undefined ? record : { ...record, indexDigest: digest })}\n`);
  writeAtomically(path, text);
  // A new record of this name starts unchecked: a mark or a "covered" note of an earlier call of the same name goes.
  for (const folder of markFolders(root)) for (const file of [markName(name), goneName(name)]) removeFile(join(folder, file));
  try {
    ensureSessionMirrorFolder(root);
    mkdirSync(mirrorCalls(root), { recursive: true, mode: 0o700 });
    if (index !== undefined) copyFileSync(index, join(mirrorCalls(root), basename(index)));
    writeAtomically(join(mirrorCalls(root), name), text);
  } catch {
    // without a home to mirror into, the sealed record in the store is all there is
  }
  dropStaleRecords(root, path);
}

/** A record names its index inside the calls folder and nowhere else. */
const SAFE_INDEX = /^calls\/[A-Za-z0-9_.-]+\.index$/;

function readRecord(raw: unknown): CallRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const readOnly = raw as Partial<ReadOnlyRecord>;
  if (readOnly.version === 1 && readOnly.readOnly === true && typeof readOnly.session === 'string') return raw as ReadOnlyRecord;
  const record = raw as Partial<SnapshotRecord>;
  if (record.version !== 1 || typeof record.guarded !== 'object' || record.guarded === null) return undefined;
  if (typeof record.tree !== 'string' && (typeof record.index !== 'string' || !SAFE_INDEX.test(record.index))) return undefined;
  if (typeof record.session !== 'string' || record.repo === undefined) return undefined;
  return record as SnapshotRecord;
}

export interface OpenRecord {
  readonly record: CallRecord;
  /** The record's file name in the calls folder. */
  readonly name: string;
  /** How many checks of the call failed before (its mark says). */
  readonly failedAttempts: number;
  /** An after-call (or the end of a turn) already checked the call; its record stays until the gate covers it (see checked). */
  readonly checked: boolean;
  /** When checked and nothing was put back: the SHA-256 of the index the check read the work tree into. */
  readonly left: string | undefined;
  /** Marks the call's check as under way in this process; a later event that finds the mark with the process gone judges the call. */
  checking(): void;
  /** Marks the call's check as failed: the record stays open, and the next event of the session judges the call again. */
  failed(why: string): void;
  /**
   * Marks the call as checked, keeping its record and its before-snapshot: whoever sent the after-call,
   * the call may still be running (a process inside it can send one), so its record is let go only
   * when a later snapshot of the gate's own covers it (`drop`). `left`: see OpenRecord.left.
   */
  checkedNow(left: string | undefined): void;
  /** Lets a checked call's record go once a later snapshot covers it, leaving a note that the call id was seen (callWasCovered). */
  drop(): void;
  /** Removes the record (and its mark): a read-only call's marker, or a call given up as unchecked. */
  close(): void;
}

type ReadCall = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'valid'; record: CallRecord & { indexDigest?: string }; text: string };

function readCall(path: string, name: string): ReadCall {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'invalid' };
  }
  const body = unsealText(recordPurpose(name), text);
  const record = body === undefined ? undefined : readRecord(jsonOrUndefined(body));
  return record === undefined ? { kind: 'invalid' } : { kind: 'valid', record, text };
}

/** A record or before-index that no seal, digest or mirror vouches for: the call cannot be checked. */
function tampered(what: string): SnapshotError {
  return new SnapshotError(
    'E_SNAPSHOT_TAMPERED',
    `GATE TAMPER: ${what} was changed after it was taken, and no copy outside the project vouches for it; holdfast's own state is not the agent's to change`,
  );
}

/** The call's before-index as its record sealed it: an edited or deleted one is copied back from the mirror. */
function verifiedIndex(root: string, record: SnapshotRecord & { indexDigest?: string }): void {
  if (record.index === undefined || record.indexDigest === undefined) return;
  const local = join(snapshotStorePath(root), record.index);
  if (fileDigest(local) === record.indexDigest) return;
  // The mirror's copy, or the store's own index (the before-index was made as a link to it, and only the next snapshot replaces it).
  const intact = [join(mirrorCalls(root), basename(local)), join(snapshotStorePath(root), 'index')].find((copy) => fileDigest(copy) === record.indexDigest);
  if (intact === undefined) throw tampered(`the snapshot taken before this call (${record.index})`);
  removeFile(local);
  copyFileSync(intact, local);
}

/**
 * The before-snapshot of a call; undefined when there is none. The mirror's record is the authority
 * (a record in the store that is deleted or differs is put back from it); a record no seal verifies
 * with no mirror to vouch for it, or a before-index whose digest no copy matches, throws SnapshotError
 * (the check says the call could not be checked, and why).
 */
export function findSnapshotRecord(root: string, session: string, toolUseId: string | undefined): OpenRecord | undefined {
  const name =
    toolUseId !== undefined && toolUseId !== ''
      ? recordName(toolUseId)
      : sessionRecords(root, session).find((candidate) => !markSays(root, candidate, (mark) => mark.done === true));
  return name === undefined ? undefined : openRecordNamed(root, name);
}

function openRecordNamed(root: string, name: string): OpenRecord | undefined {
  // A store that is gone took its objects along: there is nothing to compare with (the check says so).
  if (!existsSync(join(snapshotStorePath(root), 'HEAD'))) return undefined;
  const path = join(callsFolder(root), name);
  const mirror = readCall(join(mirrorCalls(root), name), name);
  const local = readCall(path, name);
  let read: ReadCall = local;
  if (mirror.kind === 'valid') {
    read = mirror;
    if (local.kind !== 'valid' || local.text !== mirror.text) writeAtomically(path, mirror.text);
  } else if (mirror.kind === 'invalid' || local.kind === 'invalid') throw tampered(`the record of this call's snapshot (${name})`);
  if (read.kind !== 'valid') return undefined;
  const record = read.record;
  if (!('readOnly' in record)) verifiedIndex(root, record);
  const marks = markFolders(root).flatMap((folder) => readMark(join(folder, markName(name))) ?? []);
  const failedAttempts = Math.max(0, ...marks.map((found) => found.attempts ?? 0));
  const done = marks.find((found) => found.done === true);
  const mark = (fields: Omit<AfterMark, 'session' | 'time'>) => writeMark(root, name, { session: record.session, time: new Date().toISOString(), ...fields });
  const close = () => {
    removeFile(path);
    removeMirrored(root, name);
    for (const folder of markFolders(root)) removeFile(join(folder, markName(name)));
    if (!('readOnly' in record) && record.index !== undefined) {
      removeFile(join(snapshotStorePath(root), record.index));
      removeFile(priorIndexPath(join(snapshotStorePath(root), record.index)));
      removeMirrored(root, basename(record.index));
    }
  };
  return {
    record,
    name,
    failedAttempts,
    checked: done !== undefined,
    left: done?.left,
    checking: () => mark({ pid: process.pid, ...(failedAttempts > 0 ? { attempts: failedAttempts } : {}) }),
    failed: (why) => mark({ pid: process.pid, failed: why.slice(0, 500), attempts: failedAttempts + 1 }),
    checkedNow: (left) => mark({ pid: process.pid, done: true, ...(left === undefined ? {} : { left }) }),
    drop: () => {
      close();
      if (record.toolUseId === null) return;
      try {
        ensureSessionMirrorFolder(root);
        mkdirSync(mirrorCalls(root), { recursive: true, mode: 0o700 });
        writeAtomically(join(mirrorCalls(root), goneName(name)), `${record.session}\n`);
      } catch {
        writeAtomically(join(callsFolder(root), goneName(name)), `${record.session}\n`);
      }
    },
    close,
  };
}

/**
 * The mark a shell call's check leaves while it runs, and leaves behind when it is stopped (kill -9,
 * a client's timeout) or fails (a full disk): the call's record stays open, and the next event of the
 * session that finds the mark with its process gone, or failed, judges the call first (issue 46).
 */
interface AfterMark {
  readonly session: string;
  /** The process checking the call. */
  readonly pid: number;
  /** Why the check failed; absent while it runs. */
  readonly failed?: string;
  /** How many checks of the call failed so far. */
  readonly attempts?: number;
  /** The call was checked; its record stays until a later snapshot covers it. */
  readonly done?: true;
  /** When done and nothing was put back: the SHA-256 of the index the check read the work tree into. */
  readonly left?: string;
  readonly time: string;
}

function markName(recordName: string): string {
  return `${recordName}.after`;
}

/** Marks live outside the project (the mirror); in the store's calls folder only when there is no mirror. Both are read. */
function markFolders(root: string): string[] {
  return [mirrorCalls(root), callsFolder(root)];
}

function writeMark(root: string, name: string, mark: AfterMark): void {
  const text = `${JSON.stringify(mark)}\n`;
  try {
    ensureSessionMirrorFolder(root);
    mkdirSync(mirrorCalls(root), { recursive: true, mode: 0o700 });
    writeAtomically(join(mirrorCalls(root), markName(name)), text);
  } catch {
    writeAtomically(join(callsFolder(root), markName(name)), text);
  }
}

function readMark(path: string): AfterMark | undefined {
  let raw: unknown;
  try {
    raw = jsonOrUndefined(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const mark = raw as Partial<AfterMark>;
  if (typeof mark.session !== 'string' || typeof mark.pid !== 'number' || !Number.isInteger(mark.pid)) return undefined;
  if (mark.attempts !== undefined && (typeof mark.attempts !== 'number' || !Number.isInteger(mark.attempts))) return undefined;
  if (mark.done !== undefined && mark.done !== true) return undefined;
  if (mark.left !== undefined && typeof mark.left !== 'string') return undefined;
  return mark as AfterMark;
}

/** Whether a before-index of the calls folder (by file name) is a call the gate already checked: no longer a call in flight. */
export function checkedCallIndex(root: string): (indexName: string) => boolean {
  return (indexName) => markSays(root, indexName.replace(/\.index$/, '.json'), (mark) => mark.done === true);
}

/** Whether a mark of the record `name` (in either folder) says `test`. */
function markSays(root: string, name: string, test: (mark: AfterMark) => boolean): boolean {
  return markFolders(root).some((folder) => {
    const mark = readMark(join(folder, markName(name)));
    return mark !== undefined && test(mark);
  });
}

/** Whether a process still runs (one of another user counts as running). */
function processRuns(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The calls of a session whose check never finished, oldest first. Mid-turn (`atTurnEnd: false`), a
 * call counts once its check was started and its process is gone, or its check failed: a call whose
 * check never started may still be running beside this one. At the end of the turn no call of the
 * session runs any more, so every open record counts, whatever a mark says (a mark can only make a
 * call judged sooner, never spare it). `session: undefined` (the git hooks, which serve no session):
 * the calls of every session whose check died or failed, by their marks.
 */
export function unfinishedCalls(root: string, session: string | undefined, options: { readonly atTurnEnd: boolean }): OpenRecord[] {
  const names = new Set<string>();
  for (const folder of markFolders(root)) {
    let listed: string[];
    try {
      listed = readdirSync(folder);
    } catch {
      continue;
    }
    for (const entry of listed) {
      if (options.atTurnEnd && session !== undefined) {
        if (entry.endsWith('.json')) names.add(entry);
        continue;
      }
      if (!entry.endsWith('.json.after')) continue;
      const mark = readMark(join(folder, entry));
      if (mark !== undefined && (session === undefined || mark.session === session) && (mark.failed !== undefined || !processRuns(mark.pid)))
        names.add(entry.slice(0, -'.after'.length));
    }
  }
  // A call already checked is not unfinished: its after-call (or the end of a turn) judged it, and it is judged again only when named.
  return recordsNamed(root, names, session).filter((found) => !found.checked);
}

function recordsNamed(root: string, names: Iterable<string>, session: string | undefined): OpenRecord[] {
  const open: OpenRecord[] = [];
  for (const name of names) {
    const found = openRecordNamed(root, name);
    if (found !== undefined && (session === undefined || found.record.session === session)) open.push(found);
  }
  return open.sort((a, b) => a.record.time.localeCompare(b.record.time));
}

/**
 * Every record of the session the gate still holds, checked or not, oldest first: the before-snapshots
 * an after-call without its own record is judged against (see put-back/checked-calls.ts).
 */
export function sessionCalls(root: string, session: string): OpenRecord[] {
  const names = new Set<string>();
  for (const folder of markFolders(root)) {
    try {
      for (const entry of readdirSync(folder)) if (entry.endsWith('.json')) names.add(entry);
    } catch {
      // no such folder
    }
  }
  return recordsNamed(root, names, session);
}

function mirroredCalls(root: string): string[] {
  try {
    return readdirSync(mirrorCalls(root)).map((name) => join(mirrorCalls(root), name));
  } catch {
    return [];
  }
}

function removeMirrored(root: string, name: string): void {
  try {
    removeFile(join(mirrorCalls(root), name));
  } catch {
    // no mirror
  }
}

/**
 * How long after it started an open call record counts as a call in flight for the git hooks: Claude
 * Code's longest shell call (10 minutes) and a minute for its hooks. A record whose PostToolUse never
 * came (a call the person interrupted) stops counting then.
 */
const AGENT_CALL_WINDOW_MS = 11 * 60 * 1000;

/** The agent tool calls under way in a project, as their open records (written before, closed after each shell call) say. */
export interface OpenAgentCalls {
  /** The sessions of records a seal verifies, started within the window. */
  readonly sessions: readonly string[];
  /** Records of the window that no seal verifies: still marks of an agent call, of a session nobody can name. */
  readonly unverified: number;
}

/**
 * The open call records of both copies (the project's store and the mirror outside it). A record can
 * only make the git hooks stricter (a commit made while one is open is judged as the agent's), so
 * one that does not verify still counts, and an agent gains nothing by writing one.
 */
export function openAgentCalls(root: string, now: Date): OpenAgentCalls {
  const sessions = new Set<string>();
  let unverified = 0;
  const since = now.getTime() - AGENT_CALL_WINDOW_MS;
  for (const folder of [mirrorCalls(root), callsFolder(root)]) {
    let names: string[];
    try {
      names = readdirSync(folder).filter((name) => name.endsWith('.json'));
    } catch {
      continue;
    }
    for (const name of names) {
      const read = readCall(join(folder, name), name);
      if (read.kind === 'valid') {
        // A call whose check was done is no longer in flight (a forged after-call can say so no more than the record's absence could).
        if (Date.parse(read.record.time) >= since && !markSays(root, name, (mark) => mark.done === true)) sessions.add(read.record.session);
        continue;
      }
      try {
        if (read.kind === 'invalid' && statSync(join(folder, name)).mtimeMs >= since) unverified += 1;
      } catch {
        // closed meanwhile
      }
    }
  }
  return { sessions: [...sessions], unverified };
}
