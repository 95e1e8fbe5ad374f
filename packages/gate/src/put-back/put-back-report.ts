import { describeAction } from '@holdfast/core/reply';
import { appendAudit } from '../decide/index.js';
import type { AuditEntry } from '../decide/index.js';
import type { PostCheckOutcome } from './post-check.js';

// What a put-back after a call tells the model and writes to the audit log: the check after a call,
// and an earlier call's check finished late (unfinished-calls.ts), say it alike.

function short(id: string | null): string {
  return id === null ? 'nothing (it was new)' : id.slice(0, 10);
}

function refName(ref: string): string {
  if (ref === 'HEAD') return 'the detached HEAD';
  if (ref.startsWith('refs/heads/')) return `branch ${ref.slice('refs/heads/'.length)}`;
  if (ref.startsWith('refs/tags/')) return `tag ${ref.slice('refs/tags/'.length)}`;
  return ref;
}

/** A generator that wrote thousands of files must not flood the model's context. */
const MAX_LISTED = 40;

/** What the model reads: each path, the rules it broke and what was put back; what stayed. */
export function revertReason(outcome: PostCheckOutcome): string {
  const lines = ['holdfast gate: this command changed files against the rulebook, and the gate put those changes back:'];
  for (const entry of outcome.reverted.slice(0, MAX_LISTED)) {
    const remedy = entry.remedy === 'deleted' ? 'deleted (the command created it)' : 'restored to its content before the command';
    lines.push(`- ${entry.path}: ${remedy}. ${entry.broken.map((broken) => broken.detail).join(' ')}`);
  }
  const unlisted = outcome.reverted.slice(MAX_LISTED);
  if (unlisted.length > 0) {
    const rules = [...new Set(unlisted.flatMap((entry) => entry.broken.map((broken) => `${broken.rule} ${broken.name}`)))].join(', ');
    lines.push(`- and ${unlisted.length} more path(s), put back the same way (${rules}).`);
  }
  for (const ref of outcome.refs) {
    for (const commit of ref.commits.filter((candidate) => candidate.broken.length > 0)) {
      const reasons = commit.broken.map((broken) => broken.detail).join(' ');
      lines.push(`- commit ${commit.id.slice(0, 10)} "${commit.subject}" on ${refName(ref.ref)}: ${reasons}`);
    }
    if (ref.movedBack) {
      const where =
        ref.before === null ? `${refName(ref.ref)} was removed (the command created it)` : `${refName(ref.ref)} was moved back to ${short(ref.before)}`;
      lines.push(`  ${where}; the commits' changes that break no rule stay in the work tree, not staged.`);
    } else {
      lines.push(`  ${refName(ref.ref)} could not be moved back; these commits must not be pushed.`);
    }
  }
  if (outcome.stillStaged.length > 0) {
    lines.push(
      `The index still stages refused content of ${outcome.stillStaged.slice(0, 10).join(', ')}: unstage it (\`git restore --staged <path>\`) before any commit.`,
    );
  }
  const kept = outcome.kept.flatMap((action) => (action.type === 'write' || action.type === 'delete' ? [action.path] : []));
  if (kept.length > 0) lines.push(`Kept (no rule refused them): ${kept.slice(0, 20).join(', ')}${kept.length > 20 ? ` and ${kept.length - 20} more` : ''}.`);
  lines.push('Make those changes again within the rules.');
  return lines.join('\n');
}

export type AuditBase = Pick<AuditEntry, 'time' | 'agent' | 'session' | 'tool'>;

export async function auditOutcome(root: string, base: AuditBase, outcome: PostCheckOutcome): Promise<void> {
  const decision = outcome.observed ? 'deny' : 'reverted';
  const note = outcome.observed ? 'observe mode: left in place' : undefined;
  for (const entry of outcome.reverted) {
    const first = entry.broken[0];
    const kept = entry.refusedBlob === null ? '' : `; the refused content is kept: git --git-dir=.holdfast/snapshots.git cat-file -p ${entry.refusedBlob}`;
    const remedy = note ?? `${entry.remedy === 'deleted' ? 'deleted' : 'restored'}${kept}`;
    await appendAudit(root, {
      ...base,
      action: describeAction(entry.action),
      rule: first?.rule ?? null,
      name: first?.name,
      decision,
      detail: `${entry.broken.map((broken) => broken.detail).join(' | ')} (${remedy})`,
    });
  }
  for (const ref of outcome.refs) {
    const broken = ref.commits.flatMap((commit) => commit.broken);
    const remedy = note ?? (ref.movedBack ? `${ref.ref} moved back to ${short(ref.before)}` : `${ref.ref} could not be moved back`);
    await appendAudit(root, {
      ...base,
      action: ref.commits
        .map((commit) => `commit ${commit.id.slice(0, 10)} ${JSON.stringify(commit.subject)}`)
        .join('; ')
        .slice(0, 400),
      rule: broken[0]?.rule ?? null,
      name: broken[0]?.name,
      decision,
      detail: `${broken.map((entry) => entry.detail).join(' | ')} (${remedy})`.slice(0, 2000),
    });
  }
}
