import { blobText } from '../io/index.js';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Action } from '@holdfast/core/contract';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { runGit } from '../io/index.js';
import { readSealedState, sealedStateExists, sessionFilePlace, writeSealedState } from '../state/index.js';
import type { SealedPlace } from '../state/index.js';
import type { AuditEntry } from '../decide/index.js';
import type { BrokenRule } from '../state/index.js';
import type { ChangeCheck } from '../decide/index.js';
import { indexChanges, ownPaths } from './outside-changes.js';
import type { OutsideChanges } from './outside-changes.js';
import { brokenByIndex, changeActions } from './post-check.js';
import { journalReverts } from '../state/index.js';
import type { GateRevert } from '../state/index.js';
import { loadSessionState } from '../state/index.js';
import { checkedCallIndex, removeCreated, restoreFromTree, snapshotIndex, snapshotStorePath } from '../state/index.js';
import { nodeCrypto } from '../io/index.js';
import { ignoredNow } from '../state/index.js';
import { changesBehindSessionRules, filesBehindSessionRules, followJudgement, loadSessionIgnores, restoreHidden, saveSessionIgnores } from '../state/index.js';

/**
 * Changes made while no checked call ran (a process a command left running, which may have detached
 * itself; or a person's editor), judged with the rules at the next checked call and at the end of
 * the agent's turn. The gate cannot tell a background process from a person, so it puts back only a
 * file the session's own tools created or changed before (the agent's own work, which a process it
 * started then overwrote); any other file that breaks a rule is left where it is, told to the model,
 * audited, and keeps the turn from ending while it stays. The git pre-commit gate judges it if staged.
 */
export interface OutsideFinding {
  readonly path: string;
  readonly broken: readonly BrokenRule[];
  /** `restored` / `deleted`: put back as the last check found it; `left`: not the session's file. */
  readonly remedy: 'restored' | 'deleted' | 'left';
}

export interface OutsideJudgementInput {
  readonly root: string;
  readonly session: string;
  readonly judge: ChangeCheck;
  readonly found: OutsideChanges;
  /** Paths the current call changed itself: judged by the check after it, never put back here. */
  readonly changedByCall?: ReadonlySet<string>;
  readonly observe?: boolean;
  readonly now: Date;
}

/** Judges changes made outside any call; puts back the session's own files that break a rule. */
export async function checkOutside(input: OutsideJudgementInput): Promise<OutsideFinding[]> {
  const { root, found } = input;
  const changes = found.changes;
  if (changes.length === 0) return [];
  const { actions, undecodable } = changeActions(root, undefined, changes);
  const existedBefore = new Set(changes.filter((change) => change.from !== null).map((change) => change.path));
  const failures = await input.judge({ root, session: input.session, round: 'work-tree', actions, existedBefore, undecodable });
  if (failures.length === 0) return [];
  const own = ownPaths(loadSessionState(root, input.session).state);
  const findings: OutsideFinding[] = [];
  const restore: string[] = [];
  const journal: GateRevert[] = [];
  for (const [index, broken] of brokenByIndex(failures)) {
    const change = changes[index];
    if (change === undefined) continue;
    // A file behind the session's own ignore rules with a blob kept for it was judged as the session's work before.
    const ownFile = own.has(change.path) || (change.hidden === true && change.from !== null);
    const putBack = input.observe !== true && ownFile && input.changedByCall?.has(change.path) !== true;
    if (!putBack) {
      findings.push({ path: change.path, broken, remedy: 'left' });
      continue;
    }
    if (change.status === 'added') removeCreated(root, change.path);
    else if (change.hidden === true && change.from !== null) restoreHidden(root, change.path, change.from);
    else restore.push(change.path);
    journal.push({ path: change.path, from: change.to, to: change.from });
    findings.push({ path: change.path, broken, remedy: change.status === 'added' ? 'deleted' : 'restored' });
  }
  restoreFromTree(root, found.priorTree, restore);
  journalReverts(root, journal, input.now);
  return findings;
}

/** Where a session's files left in place against a rule are listed, beside its state, sealed and mirrored. */
function flaggedPlace(root: string, session: string): SealedPlace {
  return sessionFilePlace(root, session, '.outside');
}

/** Whether the session has had a checked call (its list exists, even empty, here or in the mirror: deleting it does not undo that). */
export function sessionWasChecked(root: string, session: string): boolean {
  return sealedStateExists(flaggedPlace(root, session));
}

/**
 * The files left in place against a rule. A list no seal verifies and no mirror vouches for fails
 * closed: it may have dropped any file, so every file that is not as committed (every file, outside a
 * repository) is judged again at the end of the turn, reported and never put back.
 */
export function loadFlagged(root: string, session: string): string[] {
  const read = readSealedState(flaggedPlace(root, session));
  if (read.kind === 'missing') return [];
  const raw = read.kind === 'valid' ? jsonOrUndefined(read.body) : undefined;
  if (Array.isArray(raw)) return raw.filter((path): path is string => typeof path === 'string');
  return pathsNotAsCommitted(root);
}

function pathsNotAsCommitted(root: string): string[] {
  try {
    const listing = existsSync(join(root, '.git'))
      ? runGit(['ls-files', '-z', '--modified', '--others', '--exclude-standard'], { cwd: root })
      : runGit(['ls-files', '-z'], {
          cwd: root,
          gitDir: snapshotStorePath(root),
          ownRepository: true,
          workTree: root,
          indexFile: join(snapshotStorePath(root), 'index'),
        });
    return [...new Set(listing.toString('utf8').split('\0'))].filter((path) => path !== '');
  } catch {
    return [];
  }
}

/** Writes the list when it changed (atomically: a torn list would forget the files it names). */
export function saveFlagged(root: string, session: string, paths: readonly string[]): void {
  const place = flaggedPlace(root, session);
  const body = `${JSON.stringify([...new Set(paths)].sort())}\n`;
  const read = readSealedState(place);
  if (read.kind === 'valid' && read.putBack === undefined && read.body === body) return;
  writeSealedState(place, body);
}

/**
 * For a session that wrote ignore rules of its own (see session-ignores.ts): the files behind them that
 * are new or changed since the last check, added to what changed outside any call (the store's index
 * is the work tree as just snapshotted), and how to keep the record after they are judged.
 */
function behindSessionRules(
  root: string,
  session: string,
  found: OutsideChanges | undefined,
): { found: OutsideChanges; follow: (findings: readonly OutsideFinding[], observe: boolean) => void } | undefined {
  const record = loadSessionIgnores(root, session);
  if (record === undefined) return undefined;
  const context = { root, store: snapshotStorePath(root) };
  const behind = filesBehindSessionRules(context, record, 'index', ignoredNow(context));
  const changes = changesBehindSessionRules(record, behind, new Set(found?.changes.map((change) => change.path)));
  return {
    found: { priorTree: found?.priorTree ?? '', changes: [...(found?.changes ?? []), ...changes] },
    follow: (findings, observe) => {
      const putBack = new Set(findings.filter((finding) => !observe && finding.remedy !== 'left').map((finding) => finding.path));
      const next = followJudgement(context, record, { changes, refused: changes.filter((change) => putBack.has(change.path)), behind });
      if (next !== undefined) saveSessionIgnores(root, session, next);
    },
  };
}

/** The flagged files still breaking a rule, read as they are now (a deleted one no longer does). */
async function stillBroken(root: string, session: string, judge: ChangeCheck, paths: readonly string[]): Promise<OutsideFinding[]> {
  const actions: Action[] = [];
  const undecodable = new Map<string, string>();
  for (const path of paths) {
    try {
      const read = blobText(readFileSync(join(root, path)));
      actions.push({ type: 'write', path, content: read.text });
      if (read.undecodable !== undefined) undecodable.set(path, read.undecodable);
    } catch {
      // gone: nothing left to judge
    }
  }
  if (actions.length === 0) return [];
  const failures = await judge({ root, session, round: 'work-tree', actions, existedBefore: new Set(paths), undecodable });
  return [...brokenByIndex(failures)].map(([index, broken]) => ({ path: (actions[index] as { path: string }).path, broken, remedy: 'left' as const }));
}

/**
 * At the end of the agent's turn: what changed since the last checked call (one `git add` into a
 * copy of the store's index; three more git processes only when something changed), judged like
 * changes between calls, plus the files left in place earlier that still break a rule, and for a
 * session that wrote ignore rules of its own, the files behind them (see session-ignores.ts). Only for
 * a session that had a checked call. The flagged list follows what still breaks a rule.
 */
export async function decideAtTurnEnd(root: string, session: string, judge: ChangeCheck, options: { observe: boolean; now: Date }): Promise<OutsideFinding[]> {
  if (!sessionWasChecked(root, session)) return [];
  const store = snapshotStorePath(root);
  if (!existsSync(join(store, 'index'))) return [];
  const name = `calls/stop-${nodeCrypto().createHash('sha256').update(session).digest('hex').slice(0, 16)}.index`;
  const keepAt = join(store, name);
  let found: OutsideChanges | undefined;
  try {
    snapshotIndex(root, store, keepAt, undefined, checkedCallIndex(root));
    found = indexChanges(root, keepAt.replace(/\.index$/, '.prior'), keepAt);
  } finally {
    rmSync(keepAt, { force: true });
    rmSync(keepAt.replace(/\.index$/, '.prior'), { force: true });
  }
  const hidden = behindSessionRules(root, session, found);
  if (hidden !== undefined) found = hidden.found;
  const fresh = found === undefined ? [] : await checkOutside({ root, session, judge, found, observe: options.observe, now: options.now });
  hidden?.follow(fresh, options.observe);
  const known = new Set(fresh.map((finding) => finding.path));
  const earlier = await stillBroken(
    root,
    session,
    judge,
    loadFlagged(root, session).filter((path) => !known.has(path)),
  );
  const findings = [...fresh, ...earlier];
  saveFlagged(
    root,
    session,
    findings.filter((finding) => finding.remedy === 'left').map((finding) => finding.path),
  );
  return findings;
}

/** One line per finding, for the model. */
export function outsideLines(findings: readonly OutsideFinding[]): string[] {
  return findings.map((finding) => {
    const remedy =
      finding.remedy === 'left'
        ? 'left in place (this session did not write it: a person, or a process still running, may have)'
        : finding.remedy === 'deleted'
          ? 'deleted (this session had created it; something else rewrote it after the last check)'
          : 'restored to its content at the last check (this session had written it; something else changed it after)';
    return `- ${finding.path}: ${remedy}. ${finding.broken.map((broken) => broken.detail).join(' ')}`;
  });
}

/** The audit log's fields for one finding (the entry's time, agent, session and tool are the caller's). */
export function outsideAuditFields(
  finding: OutsideFinding,
  observe: boolean,
): Pick<AuditEntry, 'action' | 'rule' | 'name' | 'decision' | 'verdict' | 'detail'> {
  const first = finding.broken[0];
  return {
    action: `changed outside any call: ${finding.path}`,
    rule: first?.rule ?? null,
    name: first?.name,
    decision: observe ? 'observed' : finding.remedy === 'left' ? 'deny' : 'reverted',
    ...(observe ? { verdict: 'deny' as const } : {}),
    detail: `${finding.broken.map((broken) => broken.detail).join(' | ')} (${finding.remedy === 'left' ? 'left in place: not written by this session' : finding.remedy})`,
  };
}
