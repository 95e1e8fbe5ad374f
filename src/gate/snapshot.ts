import { existsSync, mkdirSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { uniqueSuffix, writeAtomically } from './atomic-file.js';
import { nodeCrypto } from './lazy-builtins.js';
import { captureGuarded } from './guarded-files.js';
import type { CaptureOptions, GuardedFiles } from './guarded-files.js';
import { readRepoState } from './repo-state.js';
import type { RepoState } from './repo-state.js';
import { sessionFileName } from './session-state.js';
import { ensureStore, snapshotStorePath, snapshotTree } from './snapshot-store.js';
import { readJsonFile } from '../contract/json-file.js';

/** How long a record of a call whose PostToolUse never came (a denied or interrupted call) is kept. */
const STALE_RECORD_MS = 24 * 60 * 60 * 1000;

export interface Snapshot {
  /** The work tree (what git would see, .gitignore honoured) as a tree id in the store. */
  readonly tree: string;
  /** `.claude/`, `.codex/`, `.holdfast/` (but holdfast's own files), and the repository's config and hooks. */
  readonly guarded: GuardedFiles;
  /** The user's repository: HEAD and branch/tag tips; null outside a repository. */
  readonly repo: RepoState | null;
}

/** Snapshots the project: work tree, guarded files and the repository's refs (see CaptureOptions for reuseUnchanged). */
export function takeSnapshot(root: string, options: Pick<CaptureOptions, 'reuseUnchanged'> = {}): Snapshot {
  const absoluteRoot = resolve(root);
  const repo = readRepoState(absoluteRoot);
  const store = ensureStore(absoluteRoot, repo);
  const guarded = captureGuarded(absoluteRoot, store, repo, options);
  const tree = snapshotTree(absoluteRoot, store);
  return { tree, guarded, repo };
}

interface RecordBase {
  readonly version: 1;
  readonly session: string;
  readonly toolUseId: string | null;
  readonly time: string;
}

/** What a shell call's PreToolUse leaves for its PostToolUse. */
export interface SnapshotRecord extends Snapshot, RecordBase {}

/**
 * What a read-only shell call leaves instead: the shell analysis found nothing it could change (only
 * read-only programs, no redirection into a file, no commit), so there is nothing to compare after
 * it and no snapshot to pay for. Its PostToolUse finds this and stays silent.
 */
export interface ReadOnlyRecord extends RecordBase {
  readonly readOnly: true;
}

export type CallRecord = SnapshotRecord | ReadOnlyRecord;

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
  for (const name of names) {
    const path = join(folder, name);
    try {
      if (now - statSync(path).mtimeMs > STALE_RECORD_MS) unlinkSync(path);
    } catch {
      // another call removed it first
    }
  }
}

/**
 * The PreToolUse side of the after-the-fact check: snapshots the project before a shell call runs and
 * records it for the call's PostToolUse, keyed by tool_use_id (session + a counter when the agent sends
 * none). Throws SnapshotError when it cannot: the caller must then refuse the call (fail closed).
 */
export function beforeShellCall(root: string, session: string, toolUseId: string | undefined, now: () => Date = () => new Date()): SnapshotRecord {
  const record: SnapshotRecord = { version: 1, session, toolUseId: toolUseId ?? null, time: now().toISOString(), ...takeSnapshot(root, { reuseUnchanged: true }) };
  writeRecord(root, session, toolUseId, record);
  return record;
}

/** Records a call the shell analysis found read-only: its PostToolUse has nothing to compare. */
export function beforeReadOnlyShellCall(root: string, session: string, toolUseId: string | undefined, now: () => Date = () => new Date()): ReadOnlyRecord {
  // The marker lives in the store's calls folder: on the project's first shell call, make the store
  // itself first (a bare calls folder would stand in the way of creating it later).
  if (!existsSync(callsFolder(root))) {
    const absoluteRoot = resolve(root);
    ensureStore(absoluteRoot, readRepoState(absoluteRoot));
  }
  const record: ReadOnlyRecord = { version: 1, session, toolUseId: toolUseId ?? null, time: now().toISOString(), readOnly: true };
  writeRecord(root, session, toolUseId, record);
  return record;
}

function writeRecord(root: string, session: string, toolUseId: string | undefined, record: CallRecord): void {
  mkdirSync(callsFolder(root), { recursive: true });
  let name: string;
  if (toolUseId !== undefined && toolUseId !== '') name = recordName(toolUseId);
  else name = `${sessionPrefix(session)}${String(Date.now()).padStart(15, '0')}-${uniqueSuffix()}.json`;
  const path = join(callsFolder(root), name);
  writeAtomically(path, `${JSON.stringify(record)}\n`);
  dropStaleRecords(root, path);
}

function readRecord(raw: unknown): CallRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const readOnly = raw as Partial<ReadOnlyRecord>;
  if (readOnly.version === 1 && readOnly.readOnly === true && typeof readOnly.session === 'string') return raw as ReadOnlyRecord;
  const record = raw as Partial<SnapshotRecord>;
  if (record.version !== 1 || typeof record.tree !== 'string' || typeof record.guarded !== 'object' || record.guarded === null) return undefined;
  if (typeof record.session !== 'string' || record.repo === undefined) return undefined;
  return record as SnapshotRecord;
}

export interface OpenRecord {
  readonly record: CallRecord;
  /** Removes the record once the call is judged. */
  close(): void;
}

/** The before-snapshot of a call; undefined when there is none (or it does not read back). */
export function findSnapshotRecord(root: string, session: string, toolUseId: string | undefined): OpenRecord | undefined {
  const name = toolUseId !== undefined && toolUseId !== '' ? recordName(toolUseId) : sessionRecords(root, session)[0];
  if (name === undefined) return undefined;
  const path = join(callsFolder(root), name);
  const record = readRecord(readJsonFile(path));
  if (record === undefined) return undefined;
  return { record, close: () => rmSync(path, { force: true }) };
}

