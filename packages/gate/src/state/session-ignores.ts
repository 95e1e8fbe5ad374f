import { readFileSync, statSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { runGit } from '../io/index.js';
import { readSealedState, sessionFilePlace, writeSealedState } from './sealed-state-file.js';
import type { SealedPlace } from './sealed-state-file.js';
import { blobId, restoreGuarded } from './guarded-files.js';
import { filesShownUnder, ignoreTextsOf, isIgnoreFile, rulesText, storedAsHidden } from './hidden-files.js';
import type { Context, IgnoredBefore } from './hidden-files.js';
import { locateRepo, readBlobs } from './repo-state.js';
import { HOLDFAST_DIR } from './session-state.js';
import { snapshotStorePath } from './snapshot-store.js';
import type { TreeChange } from './snapshot-store.js';

/**
 * Ignore rules the agent wrote never hide the agent's work from the gate. The snapshot (`git add -A`)
 * honours every `.gitignore` in the work tree, so a file behind one the session wrote is out of its
 * sight: judged once by the check of the call that made the rule (hidden-files.ts), then never again.
 * The session therefore keeps, beside its state, each `.gitignore` its own tools wrote (a file-editing
 * tool, before it ran; a shell call, when its check kept the change) with the text it had before the
 * session first wrote it, and each file behind those rules with the blob the gate last judged. At every
 * later check the work tree is listed under the project's rules as they would be without the session's
 * (its `.gitignore` files as they were before it, or absent), below their folders only; a file that
 * shows there and is new, or whose blob differs from the one kept, is judged like any changed file.
 *
 * A session that never wrote a `.gitignore` has no record, and its checks read nothing more than a
 * missing file's name.
 */
export interface SessionIgnores {
  readonly version: 1;
  /** Each `.gitignore` the session's tools wrote → its text before the session first wrote it (null: the session made it). */
  readonly rules: Readonly<Record<string, string | null>>;
  /** Each file behind those rules → the blob the gate last judged (or put back); null when it could not be stored. */
  readonly files: Readonly<Record<string, string | null>>;
}

function recordPlace(root: string, session: string): SealedPlace {
  return sessionFilePlace(root, session, '.ignores');
}

function stringOrNullValues(value: unknown): value is Record<string, string | null> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => entry === null || typeof entry === 'string')
  );
}

function readRecord(body: string): SessionIgnores | undefined {
  const raw = jsonOrUndefined(body);
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { version, rules, files } = raw as Record<string, unknown>;
  if (version !== 1 || !stringOrNullValues(rules) || !stringOrNullValues(files)) return undefined;
  return { version: 1, rules, files };
}

/**
 * The session's record, sealed and mirrored outside the project (sealed-state-file.ts); undefined when
 * it never wrote a `.gitignore` (one failed open). A record no seal verifies and no mirror vouches for
 * fails closed (see untrustedRecord): it could have dropped a rule or marked a file as judged.
 */
export function loadSessionIgnores(root: string, session: string): SessionIgnores | undefined {
  const read = readSealedState(recordPlace(root, session));
  if (read.kind === 'missing') return undefined;
  return (read.kind === 'valid' ? readRecord(read.body) : undefined) ?? untrustedRecord(root);
}

/**
 * What a lost record is rebuilt as: every `.gitignore` of the work tree (as last snapshotted) that is
 * not as the repository's HEAD has it counts as the session's, with HEAD's text as its text before
 * (none, outside a repository or where HEAD has none), and no file behind them counts as judged: each
 * is judged again like a new file, and put back when it breaks a rule (undecided means put back).
 */
function untrustedRecord(root: string): SessionIgnores {
  const store = snapshotStorePath(root);
  let paths: string[] = [];
  try {
    paths = runGit(['ls-files', '-z'], { cwd: root, gitDir: store, ownRepository: true, workTree: root, indexFile: join(store, 'index') })
      .toString('utf8')
      .split('\0')
      .filter((path) => isIgnoreFile(path) && !path.startsWith(`${HOLDFAST_DIR}/`));
  } catch {
    // no store yet: the rules are rebuilt once there is one
  }
  const repo = locateRepo(root);
  let committed = new Map<string, string>();
  if (repo !== undefined && resolve(repo.top) === resolve(root)) {
    try {
      committed = readBlobs(
        repo,
        paths.map((path) => `HEAD:${path}`),
        root,
      );
    } catch {
      // no HEAD yet: none of them is committed
    }
  }
  const rules: Record<string, string | null> = {};
  for (const path of paths) {
    const before = committed.get(`HEAD:${path}`) ?? null;
    if (before === null || before !== readTextOrNull(join(root, path))) rules[path] = before;
  }
  return { version: 1, rules, files: {} };
}

export function saveSessionIgnores(root: string, session: string, record: SessionIgnores): void {
  writeSealedState(recordPlace(root, session), `${JSON.stringify(record)}\n`);
}

function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Before a call the gate allowed: each `.gitignore` it writes joins the session's rules, with its text
 * as it is now (the call has not run yet). Nothing is read for a call that writes no `.gitignore`.
 */
export function noteIgnoreFileWrites(root: string, session: string, actions: readonly Action[]): void {
  // A path outside the project (a rulebook may allow one) governs nothing the snapshot sees.
  const inside = (path: string) => !path.startsWith('../') && !posix.isAbsolute(path);
  const paths = actions.flatMap((action) => (action.type === 'write' && isIgnoreFile(action.path) && inside(action.path) ? [action.path] : []));
  if (paths.length === 0) return;
  const record = loadSessionIgnores(root, session) ?? { version: 1, rules: {}, files: {} };
  const fresh = paths.filter((path) => !Object.hasOwn(record.rules, path));
  if (fresh.length === 0) return;
  const rules = { ...record.rules };
  for (const path of fresh) rules[path] = readTextOrNull(join(root, path));
  saveSessionIgnores(root, session, { ...record, rules });
}

/**
 * A call a person let through (`holdfast allow`) against a rule: the content it writes counts as judged,
 * so a file behind the session's rules is not refused again at the next check. A call the gate allowed
 * on its own needs nothing here: judged again, it passes again.
 */
export function noteWritesAllowedByPerson(root: string, session: string, actions: readonly Action[]): void {
  const record = loadSessionIgnores(root, session);
  if (record === undefined) return;
  const files = { ...record.files };
  for (const action of actions) if (action.type === 'write') files[action.path] = blobId(Buffer.from(action.content, 'utf8'));
  saveSessionIgnores(root, session, { ...record, files });
}

/** The folder a `.gitignore` governs, as a pathspec (the project's top: every path). */
function governed(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '.' : `${folder}/`;
}

/**
 * The files the session's ignore rules hide now (not in `indexFile`, the work tree as just snapshotted),
 * with their content stored: listed under the project's rules with the session's `.gitignore` files as
 * they were before it. The project's rules are the snapshot's `.gitignore` files and those git ignores
 * themselves (one that names itself, seen as an ignored file or at the top of an ignored folder).
 */
export function filesBehindSessionRules(context: Context, record: SessionIgnores, indexName: string, ignored: IgnoredBefore): TreeChange[] {
  const texts = ignoreTextsOf(context, { index: indexName });
  for (const entry of ignored.entries) {
    const file = entry.endsWith('/') ? `${entry}.gitignore` : isIgnoreFile(entry) ? entry : undefined;
    if (file === undefined || texts.has(file)) continue;
    const text = readTextOrNull(join(context.root, file));
    if (text !== null) texts.set(file, text);
  }
  for (const [path, before] of Object.entries(record.rules)) {
    if (before === null) texts.delete(path);
    else texts.set(path, before);
  }
  const folders = [...new Set(Object.keys(record.rules).map(governed))];
  if (folders.length === 0) return [];
  const shown = filesShownUnder(context, rulesText(texts), join(context.store, indexName), folders.includes('.') ? undefined : folders);
  return storedAsHidden(context, shown);
}

/** Those files as changes since the gate last judged them: new ones added, the rest modified from the blob kept; `skip` is judged elsewhere. */
export function changesBehindSessionRules(record: SessionIgnores, behind: readonly TreeChange[], skip: ReadonlySet<string>): TreeChange[] {
  return behind.flatMap((change) => {
    if (skip.has(change.path)) return [];
    const known = Object.hasOwn(record.files, change.path) ? (record.files[change.path] ?? null) : null;
    if (known === null) return [change];
    return known === change.to ? [] : [{ ...change, status: 'modified' as const, from: known }];
  });
}

export interface JudgedIgnores {
  /** Every change the check judged (the snapshot's, the call's hidden files, the session's). */
  readonly changes: readonly TreeChange[];
  /** Those put back (none in observe mode). */
  readonly refused: readonly TreeChange[];
  /** The files behind the session's rules as the check found them. */
  readonly behind: readonly TreeChange[];
}

/**
 * The record after a check: each `.gitignore` the check kept joins the rules (its text before the
 * change, read from the store), and the files behind them are kept with their blobs as they now stand
 * (a refused new file is gone, a refused change back at its earlier blob). Undefined when the session
 * has no rules of its own.
 */
export function followJudgement(context: Context, record: SessionIgnores | undefined, judged: JudgedIgnores): SessionIgnores | undefined {
  const refused = new Map(judged.refused.map((change) => [change.path, change]));
  const rules = { ...record?.rules };
  const ruleChanges = judged.changes.filter(
    (change) => isIgnoreFile(change.path) && change.status !== 'deleted' && !refused.has(change.path) && !Object.hasOwn(rules, change.path),
  );
  const earlier = readBlobs(
    { top: context.root, gitDir: context.store },
    ruleChanges.flatMap((change) => (change.from === null ? [] : [change.from])),
    context.root,
  );
  for (const change of ruleChanges) rules[change.path] = change.from === null ? null : (earlier.get(change.from) ?? '');
  if (Object.keys(rules).length === 0) return undefined;
  const files: Record<string, string | null> = {};
  for (const change of [...judged.behind, ...judged.changes.filter((candidate) => candidate.hidden === true)]) files[change.path] = change.to;
  for (const change of refused.values()) {
    if (change.hidden !== true) continue;
    if (change.status === 'added') delete files[change.path];
    else files[change.path] = change.from;
  }
  return { version: 1, rules, files };
}

/** Puts a hidden file back to a blob of the store (it is in no snapshot tree), keeping an executable bit. */
export function restoreHidden(root: string, path: string, blob: string): void {
  let executable = false;
  try {
    executable = (statSync(join(root, path)).mode & 0o111) !== 0;
  } catch {
    // removed since: written back as a plain file
  }
  restoreGuarded(root, path, { blob, kind: executable ? 'executable' : 'file' });
}
