import { createRequire } from 'node:module';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the gate remembers of one agent session between tool calls, for the rules that span several
 * calls: which files this session created (R3 TESTS) and whether the tests ran after the last change
 * (R6 ORDER). `created` is cleared by a commit, which closes the round.
 */
export interface SessionState {
  readonly version: 1;
  readonly created: readonly string[];
  /** Files that existed before and the session changed since its last commit (a module's existing test it edits counts for R3). */
  readonly changed?: readonly string[] | undefined;
  /** `changed` as it stood at the session's last commit, for the git pre-commit hook that runs after the agent gate cleared it. */
  readonly changedBeforeCommit?: readonly string[] | undefined;
  readonly testedSinceLastWrite: boolean;
  readonly lastTestCommand: string | undefined;
  /** How the last test run ended, when a PostToolUse hook saw it (false: it failed); undefined when unknown. */
  readonly lastTestPassed?: boolean | undefined;
}

export const FRESH_SESSION: SessionState = { version: 1, created: [], testedSinceLastWrite: false, lastTestCommand: undefined };

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

export function sessionStatePath(root: string, session: string): string {
  return join(root, HOLDFAST_DIR, 'sessions', sessionFileName(session));
}

function readState(raw: unknown): SessionState | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  const created = record.created;
  if (record.version !== 1) return undefined;
  if (!Array.isArray(created) || !created.every((path) => typeof path === 'string')) return undefined;
  if (typeof record.testedSinceLastWrite !== 'boolean') return undefined;
  const lastTestCommand = record.lastTestCommand;
  if (lastTestCommand !== undefined && typeof lastTestCommand !== 'string') return undefined;
  const lastTestPassed = record.lastTestPassed;
  if (lastTestPassed !== undefined && typeof lastTestPassed !== 'boolean') return undefined;
  const changed = optionalPaths(record.changed);
  const changedBeforeCommit = optionalPaths(record.changedBeforeCommit);
  if (changed === null || changedBeforeCommit === null) return undefined;
  return { version: 1, created: created as string[], changed, changedBeforeCommit, testedSinceLastWrite: record.testedSinceLastWrite, lastTestCommand, lastTestPassed };
}

/** A list of paths, undefined when absent, null when it is something else. */
function optionalPaths(value: unknown): string[] | undefined | null {
  if (value === undefined) return undefined;
  return Array.isArray(value) && value.every((path) => typeof path === 'string') ? (value as string[]) : null;
}

/**
 * A missing file is a new session. A corrupt one is read conservatively: tests count as not run, so a
 * commit needs a fresh test run; it never crashes the hook.
 */
export function loadSessionState(root: string, session: string): LoadedSessionState {
  const path = sessionStatePath(root, session);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: FRESH_SESSION, warning: undefined };
    return { state: FRESH_SESSION, warning: `the session state ${path} could not be read; tests count as not run` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  const state = readState(raw);
  if (state === undefined) return { state: FRESH_SESSION, warning: `the session state ${path} is corrupt; tests count as not run` };
  return { state, warning: undefined };
}

/** Written to a temporary file and renamed, so a reader never sees half a state. */
export function saveSessionState(root: string, session: string, state: SessionState): void {
  const path = sessionStatePath(root, session);
  mkdirSync(join(root, HOLDFAST_DIR, 'sessions'), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`);
  renameSync(temporary, path);
}

/**
 * The session the agent gate saw last in this project (the state file written most recently), for
 * the git pre-commit hook, which has no session id of its own. Undefined when the agent gate never ran.
 */
export function latestSessionState(root: string): (LoadedSessionState & { session: string }) | undefined {
  const folder = join(root, HOLDFAST_DIR, 'sessions');
  let latest: { file: string; mtimeMs: number } | undefined;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return undefined;
  }
  for (const file of names) {
    if (!file.endsWith('.json')) continue;
    try {
      const { mtimeMs } = statSync(join(folder, file));
      if (latest === undefined || mtimeMs > latest.mtimeMs) latest = { file, mtimeMs };
    } catch {
      // removed meanwhile
    }
  }
  if (latest === undefined) return undefined;
  const session = latest.file.slice(0, -'.json'.length);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(folder, latest.file), 'utf8'));
  } catch {
    raw = undefined;
  }
  const state = readState(raw);
  if (state === undefined) return { session, state: FRESH_SESSION, warning: `the session state ${join(folder, latest.file)} is corrupt; tests count as not run` };
  return { session, state, warning: undefined };
}
