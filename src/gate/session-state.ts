import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the gate remembers of one agent session between tool calls, for the rules that span several
 * calls: which files this session created (R3 TESTS) and whether the tests ran after the last change
 * (R6 ORDER). `created` is cleared by a commit, which closes the round.
 */
export interface SessionState {
  readonly version: 1;
  readonly created: readonly string[];
  readonly testedSinceLastWrite: boolean;
  readonly lastTestCommand: string | undefined;
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
  return { version: 1, created: created as string[], testedSinceLastWrite: record.testedSinceLastWrite, lastTestCommand };
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
