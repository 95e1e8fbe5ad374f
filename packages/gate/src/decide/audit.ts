import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '@holdfast/core/contract';
import type { Action } from '@holdfast/core/contract';
import { HOLDFAST_DIR, ensureSessionMirrorFolder, sessionMirrorFolder } from '../state/index.js';
import { sealText, unsealText } from '../state/index.js';
import type { GateAgent } from './tool-call.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

/** A rule's verdict as recorded in observe mode. */
interface AuditVerdict {
  readonly rule: string;
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/**
 * What the gate did with a call: `allow`, `deny`, `allowed-by-person` (a denial the person let
 * through once with `holdfast allow --once`), or `observed` (observe mode: judged and recorded,
 * never blocked; `verdict` says what the gate would have done).
 */
/**
 * `reverted`: the after-the-fact check found a change a call made against a rule and put it back.
 * `warned`: the call (or commit) broke only rules at `enforcement: warn`, so it went ahead and the agent was told.
 */
type AuditDecision = 'allow' | 'deny' | 'allowed-by-person' | 'observed' | 'reverted' | 'warned';

/** One decision of the live gate, a line of `.holdfast/audit.jsonl`. */
export interface AuditEntry {
  readonly time: string;
  readonly agent: GateAgent;
  readonly session: string;
  readonly tool: string;
  /** The hook event judged (PreToolUse, Stop, pre-commit …), when it is not a PreToolUse. */
  readonly event?: string | undefined;
  /** The judged actions in words (`write src/a.ts; run npm test`). */
  readonly action: string;
  /** The first rule that refused (`R2`, or `GATE` / `INTERNAL` for the gate's own refusals). */
  readonly rule: string | null;
  readonly name?: string | undefined;
  /** Every rule that refused, when more than one did. */
  readonly rules?: readonly string[] | undefined;
  readonly decision: AuditDecision;
  /** In observe mode: what the gate would have answered. */
  readonly verdict?: 'allow' | 'deny' | undefined;
  /** In observe mode: every rule result on the call. */
  readonly results?: readonly AuditVerdict[] | undefined;
  /** The person's reason, for `allowed-by-person`. */
  readonly reason?: string | undefined;
  readonly detail: string;
}

export function auditLogPath(root: string): string {
  return join(root, HOLDFAST_DIR, 'audit.jsonl');
}

/** Every free text of an entry with credentials masked: commands and details can carry keys. */
async function redacted(entry: AuditEntry): Promise<AuditEntry> {
  const { redactSecrets } = await import('@holdfast/core/rules/redact-secrets');
  const results =
    entry.results === undefined
      ? undefined
      : await Promise.all(entry.results.map(async (result) => ({ ...result, detail: await redactSecrets(result.detail) })));
  return {
    ...entry,
    action: await redactSecrets(entry.action),
    detail: await redactSecrets(entry.detail),
    ...(entry.reason === undefined ? {} : { reason: await redactSecrets(entry.reason) }),
    ...(results === undefined ? {} : { results }),
  };
}

const MAX_ACTION_TEXT = 600;

/**
 * The actions in words for the log, commands and messages in full: they are masked before they are
 * shortened, since a secret cut in half is one no detector recognises.
 */
export function auditActionText(actions: readonly Action[]): string {
  return actions
    .map((action) => {
      switch (action.type) {
        case 'write':
          return `write ${action.path} (${action.content.length} chars)`;
        case 'delete':
          return `delete ${action.path}`;
        case 'run':
          return `run ${action.cmd}`;
        case 'commit':
          return `commit ${JSON.stringify(action.message)}`;
      }
    })
    .join('; ');
}

/**
 * One line per decision, credentials masked first; appends are small enough to land whole on a
 * local file system. Callers pass full texts: masking needs the whole secret to find it.
 */
export async function appendAudit(root: string, entry: AuditEntry): Promise<void> {
  const masked = await redacted(entry);
  const action = masked.action.length > MAX_ACTION_TEXT ? `${masked.action.slice(0, MAX_ACTION_TEXT - 1)}…` : masked.action;
  const line = `${sealLine(JSON.stringify({ ...masked, action }))}\n`;
  mkdirSync(join(root, HOLDFAST_DIR), { recursive: true });
  appendFileSync(auditLogPath(root), line);
  try {
    ensureSessionMirrorFolder(root);
    appendFileSync(auditMirrorPath(root), line);
  } catch {
    // without a home to mirror into, the project's log with its sealed lines is all there is
  }
}

const AUDIT_PURPOSE = 'audit-line';
const SEAL_TAIL = /,"seal":"([0-9a-f]{64})"\}$/;

/** Where each line is appended again, outside the project (see state-seal.ts): the authority a summary reads. */
export function auditMirrorPath(root: string): string {
  return join(sessionMirrorFolder(root), 'audit.jsonl');
}

/** The entry's JSON with an HMAC of it as its last field (`seal`): a line a command wrote or edited does not verify. */
function sealLine(json: string): string {
  const seal = sealText(AUDIT_PURPOSE, json).slice(0, 64);
  return `${json.slice(0, -1)},"seal":"${seal}"}`;
}

/** Whether a line is one the gate wrote: its seal verifies over the rest of it. */
function auditLineSealed(line: string): boolean {
  const match = SEAL_TAIL.exec(line);
  if (match === null) return false;
  const body = `${line.slice(0, match.index)}}`;
  return unsealText(AUDIT_PURPOSE, `${match[1]}\n${body}`) !== undefined;
}

interface AuditRuleCount {
  readonly rule: string;
  readonly name: string | undefined;
  readonly blocked: number;
}

/** The audit log summarised like a run: calls judged, and blocked per rule. */
export interface AuditSummary {
  readonly file: string;
  readonly calls: number;
  readonly allowed: number;
  readonly blocked: number;
  /** Denials a person let through once (`holdfast allow --once`). */
  readonly allowedByPerson: number;
  /** Calls judged in observe mode, and how many of them the gate would have blocked. */
  readonly observed: number;
  readonly wouldBlock: number;
  readonly perRule: AuditRuleCount[];
  readonly perAgent: { agent: string; calls: number; blocked: number }[];
  readonly sessions: number;
  readonly first: string | undefined;
  readonly last: string | undefined;
  /** Lines that were not audit entries (a torn write, a hand edit); counted, never fatal. */
  readonly unreadableLines: number;
  /** Entries whose seal does not verify (written or edited by something other than the gate, or by a holdfast before seals): no evidence, left out of every count. */
  readonly unsealedLines: number;
  /** The project's log is not the copy kept outside it (lines deleted, edited or replayed there); the summary is the copy's. */
  readonly differsFromMirror?: boolean;
}

/** One line of the audit log, or undefined for a line that is not an entry (a torn write, a hand edit). */
export function readAuditEntry(line: string): AuditEntry | undefined {
  const raw = jsonOrUndefined(line);
  if (typeof raw !== 'object' || raw === null) return undefined;
  const entry = raw as Record<string, unknown>;
  if (typeof entry.time !== 'string' || typeof entry.agent !== 'string' || typeof entry.session !== 'string') return undefined;
  if (!['allow', 'deny', 'allowed-by-person', 'observed', 'reverted', 'warned'].includes(entry.decision as string)) return undefined;
  if (entry.rule !== null && typeof entry.rule !== 'string') return undefined;
  return raw as AuditEntry;
}

function summarizeAuditText(text: string, file: string): AuditSummary {
  const perRule = new Map<string, { name: string | undefined; blocked: number }>();
  const perAgent = new Map<string, { calls: number; blocked: number }>();
  const sessions = new Set<string>();
  let calls = 0;
  let allowed = 0;
  let blocked = 0;
  let allowedByPerson = 0;
  let observed = 0;
  let wouldBlock = 0;
  let unreadableLines = 0;
  let unsealedLines = 0;
  let first: string | undefined;
  let last: string | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = readAuditEntry(line);
    if (entry === undefined) {
      unreadableLines += 1;
      continue;
    }
    if (!auditLineSealed(line)) {
      unsealedLines += 1;
      continue;
    }
    calls += 1;
    sessions.add(`${entry.agent}:${entry.session}`);
    if (first === undefined || entry.time < first) first = entry.time;
    if (last === undefined || entry.time > last) last = entry.time;
    const agent = perAgent.get(entry.agent) ?? { calls: 0, blocked: 0 };
    agent.calls += 1;
    // A reverted change is a blocked violation: it did not stay.
    if (entry.decision === 'deny' || entry.decision === 'reverted') {
      blocked += 1;
      agent.blocked += 1;
      for (const rule of entry.rules ?? [entry.rule ?? 'unknown']) {
        const count = perRule.get(rule) ?? { name: rule === entry.rule ? entry.name : undefined, blocked: 0 };
        count.blocked += 1;
        perRule.set(rule, count);
      }
    } else if (entry.decision === 'allowed-by-person') allowedByPerson += 1;
    else if (entry.decision === 'observed') {
      observed += 1;
      if (entry.verdict === 'deny') wouldBlock += 1;
    } else allowed += 1;
    perAgent.set(entry.agent, agent);
  }
  return {
    file,
    calls,
    allowed,
    blocked,
    allowedByPerson,
    observed,
    wouldBlock,
    perRule: [...perRule.entries()]
      .map(([rule, count]) => ({ rule, name: count.name, blocked: count.blocked }))
      .sort((left, right) => right.blocked - left.blocked || left.rule.localeCompare(right.rule, 'en', { numeric: true })),
    perAgent: [...perAgent.entries()].map(([agent, count]) => ({ agent, ...count })).sort((left, right) => left.agent.localeCompare(right.agent)),
    sessions: sessions.size,
    first,
    last,
    unreadableLines,
    unsealedLines,
  };
}

/** Reads and summarises an audit log; a missing file is bad input (exit 2), not an empty log. */
export function summarizeAudit(path: string): AuditSummary {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(
      'E_AUDIT_READ',
      `cannot read the audit log ${path}: ${(error as Error).message}. The gate writes it to .holdfast/audit.jsonl once it has judged a call.`,
      { cause: error },
    );
  }
  const mirror = mirrorOfLog(path);
  if (mirror === undefined || mirror === text) return summarizeAuditText(text, path);
  return { ...summarizeAuditText(mirror, path), differsFromMirror: true };
}

/** The mirror's copy of a project's log (`<project>/.holdfast/audit.jsonl`), when there is one. */
function mirrorOfLog(path: string): string | undefined {
  const folder = dirname(path);
  if (basename(path) !== 'audit.jsonl' || basename(folder) !== HOLDFAST_DIR) return undefined;
  try {
    return readFileSync(auditMirrorPath(dirname(folder)), 'utf8');
  } catch {
    return undefined;
  }
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;
}

export function formatAuditSummary(summary: AuditSummary): string {
  const lines = [
    `holdfast gate audit: ${summary.file}`,
    `calls judged  ${summary.calls}  (${summary.sessions} session${summary.sessions === 1 ? '' : 's'}${summary.first === undefined ? '' : `, ${summary.first} … ${summary.last ?? ''}`})`,
    `allowed       ${summary.allowed}`,
    `blocked       ${summary.blocked}  (${percent(summary.blocked, summary.calls)} of calls)`,
  ];
  if (summary.allowedByPerson > 0) lines.push(`let through   ${summary.allowedByPerson}  (a person's one-time override, holdfast allow --once)`);
  if (summary.observed > 0) lines.push(`observed      ${summary.observed}  (observe mode; ${summary.wouldBlock} would have been blocked)`);
  if (summary.perRule.length > 0) {
    lines.push('', 'blocked per rule:');
    const width = Math.max(...summary.perRule.map((count) => `${count.rule} ${count.name ?? ''}`.trim().length));
    for (const count of summary.perRule) lines.push(`  ${`${count.rule} ${count.name ?? ''}`.trim().padEnd(width)}  ${count.blocked}`);
  }
  if (summary.perAgent.length > 0) {
    lines.push('', 'per agent:');
    for (const agent of summary.perAgent) lines.push(`  ${agent.agent.padEnd(11)}  ${agent.calls} judged, ${agent.blocked} blocked`);
  }
  if (summary.unreadableLines > 0) lines.push('', `${summary.unreadableLines} line(s) of the log could not be read and were skipped.`);
  if (summary.unsealedLines > 0)
    lines.push(
      '',
      `${summary.unsealedLines} line(s) carry no valid seal (not written by the gate, edited, or from a holdfast before seals) and were left out.`,
    );
  if (summary.differsFromMirror === true)
    lines.push(
      '',
      "The project's log differs from the copy the gate keeps outside the project (lines deleted, edited or replayed): this summary is the copy's.",
    );
  return lines.join('\n');
}
