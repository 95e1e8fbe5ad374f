import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { claude, codex } from '../../src/gate/test-support/payloads.js';

// Runs the built CLI (npm test builds dist/ first), exactly as an agent's hook runner would.
const BIN = fileURLToPath(new URL('../../bin/holdfast.js', import.meta.url));

function spawnHook(agent: string, input: string, cwd: string, flags: string[] = []) {
  const result = spawnSync(process.execPath, [BIN, 'hook', agent, ...flags], { input, cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-e2e-gate-'));
  mkdirSync(join(root, 'src'));
  return root;
}

describe('the gate as a real process', () => {
  it('claude-code: refuses a console.log and a write outside src/ with a JSON deny, allows a clean write silently', () => {
    const root = project();
    const log = spawnHook('claude-code', claude.write(root, 's', 'src/a.test.ts', 'console.log(1);\n'), root);
    expect(log.code).toBe(0);
    expect(JSON.parse(log.out).hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/R4 NOLOG/) });
    const outside = spawnHook('claude-code', claude.write(root, 's', 'README.md', '# hi\n'), root);
    expect(JSON.parse(outside.out).hookSpecificOutput.permissionDecisionReason).toMatch(/R2 SCOPE/);
    expect(spawnHook('claude-code', claude.write(root, 's', 'src/a.test.ts', 'export {};\n'), root)).toEqual({ code: 0, out: '', err: '' });
    const audit = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { decision: string; rule: string | null });
    expect(audit.map((entry) => [entry.decision, entry.rule])).toEqual([['deny', 'R4'], ['deny', 'R2'], ['allow', null]]);
  });

  it('codex: refuses with exit 2 and a reason on stderr', () => {
    const root = project();
    const result = spawnHook('codex', codex.applyPatch(root, 's', '*** Begin Patch\n*** Add File: lib/a.ts\n+export {};\n*** End Patch\n'), root);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/R2 SCOPE/);
  });

  it('claude-code: a module written before its test lands; the Stop event sends the agent back until the test exists', () => {
    const root = project();
    const stop = JSON.stringify({ session_id: 't', transcript_path: null, cwd: root, permission_mode: 'acceptEdits', hook_event_name: 'Stop', stop_hook_active: false });
    expect(spawnHook('claude-code', claude.write(root, 't', 'src/a.ts', 'export const a = 1;\n'), root)).toEqual({ code: 0, out: '', err: '' });
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    const blocked = spawnHook('claude-code', stop, root);
    expect(blocked.code).toBe(0);
    expect(JSON.parse(blocked.out)).toEqual({ decision: 'block', reason: expect.stringMatching(/R3 TESTS: write to "src\/a\.ts".*"src\/a\.test\.ts"/s) });
    expect(spawnHook('claude-code', claude.write(root, 't', 'src/a.test.ts', 'import "./a";\n'), root).out).toBe('');
    expect(spawnHook('claude-code', stop, root)).toEqual({ code: 0, out: '', err: '' });
  });

  it('--observe never blocks and records what the gate would have done', () => {
    const root = project();
    expect(spawnHook('codex', codex.applyPatch(root, 's', '*** Begin Patch\n*** Add File: lib/a.ts\n+console.log(1);\n*** End Patch\n'), root, ['--observe'])).toEqual({ code: 0, out: '', err: '' });
    const [entry] = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { decision: string; verdict: string });
    expect(entry).toMatchObject({ decision: 'observed', verdict: 'deny' });
  });

  it('fails closed on garbage input', () => {
    const root = project();
    expect(JSON.parse(spawnHook('claude-code', '\u0000garbage', root).out).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(spawnHook('codex', '', root).code).toBe(2);
  });

  it('the exported FlowSpec steps run holdfast check and fail exactly the violated rule', () => {
    const root = project();
    const exported = spawnSync(process.execPath, [BIN, 'rulebook', 'export', '--format', 'flowspec', '--holdfast', `${process.execPath} ${BIN}`], { cwd: root, encoding: 'utf8' });
    expect(exported.status).toBe(0);
    const steps = parse(exported.stdout).workflows[0].steps as { name: string; command: string }[];
    writeFileSync(join(root, 'actions.json'), JSON.stringify({ actions: [{ type: 'write', path: 'src/a.test.ts', content: 'console.log(1);\n' }] }));
    const codes = Object.fromEntries(steps.map((step) => [step.name, spawnSync('sh', ['-c', step.command], { cwd: root, encoding: 'utf8' }).status]));
    expect(codes['r4-nolog']).toBe(1);
    expect(codes['r2-scope']).toBe(0);
    expect(codes['r1-secret']).toBe(0);
  });
});
