import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built hook entry, as the agents start it (`npm run build` writes it; the test command builds first).
const HOOK = fileURLToPath(new URL('../../packages/gate/dist/hook-bundle/hook.cjs', import.meta.url));

const RULEBOOK = [
  'version: 1',
  'rules:',
  '  - id: R2',
  '    name: SCOPE',
  '    prose: Write only under src/.',
  "    check: { kind: scope, allow: ['src/**'] }",
  '  - id: R4',
  '    name: NOLOG',
  '    prose: No console.log in src/.',
  '    enforcement: warn',
  "    check: { kind: forbidden-pattern, patterns: ['console\\.log'], what: a console.log, files: ['src/**'] }",
  '',
].join('\n');

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-levels-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  mkdirSync(join(root, 'holdfast'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'holdfast', 'rulebook.yaml'), RULEBOOK);
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['-c', 'user.email=t@holdfast.invalid', '-c', 'user.name=t', 'commit', '-q', '-m', 'start'], { cwd: root });
  return root;
}

function hook(root: string, agent: 'claude-code' | 'codex', event: object): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.HOLDFAST_RULEBOOK;
  delete env.CLAUDE_PROJECT_DIR;
  const child = spawn(process.execPath, [HOOK, agent, '--deadline-ms', '60000'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(JSON.stringify(event));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function audit(root: string): { decision: string; rule: string | null }[] {
  return readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { decision: string; rule: string | null });
}

describe('enforcement levels through the real bundled hook', () => {
  it('Claude Code: a warn rule broken is allowed with the rule for the model (additionalContext) and recorded as warned; a block rule broken is denied', async () => {
    const root = project();
    const write = (path: string, content: string, id: string) =>
      hook(root, 'claude-code', {
        session_id: 's1',
        cwd: root,
        hook_event_name: 'PreToolUse',
        tool_name: 'Write',
        tool_input: { file_path: join(root, path), content },
        tool_use_id: id,
      });
    const warned = await write('src/a.ts', 'export const a = 1;\nconsole.log(a);\n', 't1');
    expect(warned.code, warned.stderr).toBe(0);
    const answer = JSON.parse(warned.stdout) as { hookSpecificOutput: Record<string, unknown> };
    expect(answer.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(answer.hookSpecificOutput.permissionDecision).toBeUndefined();
    expect(answer.hookSpecificOutput.additionalContext).toMatch(
      /^holdfast warning: this call went ahead, but it breaks a rule of this project \(warn level, not yet enforced\): R4 NOLOG: /,
    );
    const denied = await write('lib/b.ts', 'export const b = 1;\n', 't2');
    expect(denied.code).toBe(0);
    const refusal = JSON.parse(denied.stdout) as { hookSpecificOutput: Record<string, unknown> };
    expect(refusal.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(refusal.hookSpecificOutput.permissionDecisionReason).toMatch(/R2 SCOPE/);
    // Both broken at once: the block rule refuses, and the warning is said beside it.
    const both = await write('lib/c.ts', 'console.log(1);\n', 't3');
    expect((JSON.parse(both.stdout) as { hookSpecificOutput: Record<string, unknown> }).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(audit(root).map((entry) => [entry.decision, entry.rule])).toEqual([
      ['warned', 'R4'],
      ['deny', 'R2'],
      ['deny', 'R2'],
    ]);
  });

  it('Codex: the same warn rule is allowed (exit 0, additionalContext), the block rule denied (exit 2, the reason on stderr)', async () => {
    const root = project();
    const patch = (path: string, line: string, id: string) =>
      hook(root, 'codex', {
        session_id: 's2',
        cwd: root,
        hook_event_name: 'PreToolUse',
        model: 'scripted',
        permission_mode: 'default',
        transcript_path: null,
        turn_id: 'turn-1',
        tool_name: 'apply_patch',
        tool_input: { command: `*** Begin Patch\n*** Add File: ${path}\n+${line}\n*** End Patch\n` },
        tool_use_id: id,
      });
    const warned = await patch('src/a.ts', 'console.log(1);', 'c1');
    expect(warned.code, warned.stderr).toBe(0);
    expect((JSON.parse(warned.stdout) as { hookSpecificOutput: Record<string, unknown> }).hookSpecificOutput.additionalContext).toMatch(/R4 NOLOG/);
    const denied = await patch('lib/b.ts', 'export const b = 1;', 'c2');
    expect(denied.code).toBe(2);
    expect(denied.stderr).toMatch(/R2 SCOPE/);
    expect(audit(root).map((entry) => entry.decision)).toEqual(['warned', 'deny']);
  });
});
