import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendAudit, auditLogPath, auditMirrorPath, formatAuditSummary, summarizeAudit } from './audit.js';
import type { AuditEntry } from './audit.js';

const entry = (decision: AuditEntry['decision'], rule: string | null, session = 's1'): AuditEntry => ({
  time: '2026-01-01T00:00:00.000Z',
  agent: 'claude-code',
  session,
  tool: 'Write',
  action: 'write src/a.ts',
  rule,
  name: rule === 'R4' ? 'NOLOG' : rule === 'R2' ? 'SCOPE' : undefined,
  decision,
  detail: 'x',
});

describe('summarizeAudit', () => {
  it('counts calls judged and blocked per rule, and skips torn lines', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-audit-'));
    await appendAudit(root, entry('allow', null));
    await appendAudit(root, entry('deny', 'R4'));
    await appendAudit(root, entry('deny', 'R4', 's2'));
    await appendAudit(root, entry('deny', 'R2'));
    for (const log of [auditLogPath(root), auditMirrorPath(root)]) writeFileSync(log, '{"torn', { flag: 'a' });
    const summary = summarizeAudit(auditLogPath(root));
    expect(summary).toMatchObject({ calls: 4, allowed: 1, blocked: 3, sessions: 2, unreadableLines: 1 });
    expect(summary.perRule).toEqual([
      { rule: 'R4', name: 'NOLOG', blocked: 2 },
      { rule: 'R2', name: 'SCOPE', blocked: 1 },
    ]);
    const text = formatAuditSummary(summary);
    expect(text).toContain('calls judged  4');
    expect(text).toMatch(/R4 NOLOG\s+2/);
  });

  it('counts every rule of a denial, person-allowed calls and observed calls apart', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-audit-'));
    await appendAudit(root, { ...entry('deny', 'R1'), rules: ['R1', 'R4'] });
    await appendAudit(root, { ...entry('allowed-by-person', 'R2'), reason: 'mine' });
    await appendAudit(root, { ...entry('observed', 'R4'), verdict: 'deny' });
    await appendAudit(root, { ...entry('observed', null), verdict: 'allow' });
    const summary = summarizeAudit(auditLogPath(root));
    expect(summary).toMatchObject({ calls: 4, blocked: 1, allowedByPerson: 1, observed: 2, wouldBlock: 1 });
    expect(summary.perRule.map((count) => count.rule)).toEqual(['R1', 'R4']);
    expect(formatAuditSummary(summary)).toMatch(/observed\s+2 .*1 would have been blocked/);
  });

  it('counts a change the post-check put back as blocked under its rule', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-audit-'));
    await appendAudit(root, entry('allow', null));
    await appendAudit(root, entry('reverted', 'R4'));
    const summary = summarizeAudit(auditLogPath(root));
    expect(summary).toMatchObject({ calls: 2, allowed: 1, blocked: 1, unreadableLines: 0 });
    expect(summary.perRule).toEqual([{ rule: 'R4', name: 'NOLOG', blocked: 1 }]);
  });

  it('refuses a missing log as bad input', () => {
    expect(() => summarizeAudit('/nonexistent/audit.jsonl')).toThrow(/cannot read the audit log/);
  });

  it('leaves out a line no seal verifies: a command that appends an "allow" or edits a denial into one forges no evidence', async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-audit-'));
    await appendAudit(root, entry('deny', 'R4'));
    const forged = JSON.stringify(entry('allow', null));
    writeFileSync(auditLogPath(root), `${forged}\n`, { flag: 'a' });
    writeFileSync(auditMirrorPath(root), `${forged}\n`, { flag: 'a' });
    const summary = summarizeAudit(auditLogPath(root));
    expect(summary).toMatchObject({ calls: 1, allowed: 0, blocked: 1, unsealedLines: 1 });
    expect(formatAuditSummary(summary)).toMatch(/1 line\(s\) carry no valid seal/);
  });

  it("reads the copy kept outside the project when the project's log was edited, truncated or replayed", async () => {
    const root = mkdtempSync(join(tmpdir(), 'holdfast-audit-'));
    await appendAudit(root, entry('deny', 'R4'));
    await appendAudit(root, entry('allow', null));
    const [denial = '', allowed = ''] = readFileSync(auditLogPath(root), 'utf8').trim().split('\n');
    writeFileSync(auditLogPath(root), `${allowed}\n${allowed}\n`);
    expect(denial).toContain('"decision":"deny"');
    const summary = summarizeAudit(auditLogPath(root));
    expect(summary).toMatchObject({ calls: 2, allowed: 1, blocked: 1, differsFromMirror: true });
    expect(formatAuditSummary(summary)).toMatch(/differs from the copy the gate keeps outside the project/);
  });
});
