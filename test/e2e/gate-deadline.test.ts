import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { claude } from '@holdfast/gate/test-support';

// The installed command runs this bundled entry with the hook's deadline, as Claude Code starts it.
const ENTRY = fileURLToPath(new URL('../../packages/gate/dist/hook-bundle/hook.cjs', import.meta.url));

function project(rulebook: string): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-e2e-deadline-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'rulebook.yaml'), rulebook);
  return root;
}

function hook(root: string, event: string, deadlineMs: number): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ENTRY, 'claude-code', '--deadline-ms', String(deadlineMs), '--rulebook', 'rulebook.yaml'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(event);
  });
}

/** Claude Code blocks a call on exit 2, or on exit 0 with a JSON permissionDecision "deny". */
function refused(answer: { code: number | null; out: string }): boolean {
  return answer.code === 2 || (answer.code === 0 && /"permissionDecision":"deny"/.test(answer.out));
}

function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const NOLOG = `version: 1
rules:
  - id: R4
    name: NOLOG
    prose: No console.log.
    check:
      kind: forbidden-pattern
      what: a console.log call
      files: ['src/**']
      patterns: ['console\\.log']
`;

describe('the hook under its deadline, whatever the input (issue 46)', () => {
  it('refuses a 10 MB Write unread, at once, naming the limit', async () => {
    const root = project(NOLOG);
    const bundle = `${'var a=1;'.repeat(1_250_000)}console.log(a);`;
    const answer = await hook(root, claude.write(root, 's', 'src/bundle.js', bundle), 24_000);
    expect(refused(answer)).toBe(true);
    expect(answer.out + answer.err).toMatch(/over the gate's limit of 4\.0 MB for one call/);
  });

  it("refuses a call whose check never finishes when the deadline comes, and leaves none of the check's processes behind", async () => {
    const root = project('');
    const pids = join(root, 'pids');
    writeFileSync(
      join(root, 'slow.mjs'),
      `import { spawn } from 'node:child_process';\nimport { appendFileSync } from 'node:fs';\nexport function check() {\n  const helper = spawn('sleep', ['600'], { stdio: 'ignore' });\n  appendFileSync(${JSON.stringify(pids)}, process.pid + ' ' + helper.pid + '\\n');\n  for (;;) {}\n}\n`,
    );
    writeFileSync(
      join(root, 'rulebook.yaml'),
      `version: 1\nrules:\n  - id: SLOW\n    name: SLOW\n    prose: A check that never ends.\n    check:\n      kind: custom\n      module: slow.mjs\n      timeoutMs: 60000\n`,
    );
    const answer = await hook(root, claude.write(root, 's', 'src/a.ts', 'export const a = 1;\n'), 3_000);
    expect(refused(answer)).toBe(true);
    expect(answer.out + answer.err).toMatch(/within the hook's deadline|within its deadline/);
    // On a slow machine the check may not have started before the deadline; whatever started is gone.
    const started = existsSync(pids) ? readFileSync(pids, 'utf8').trim().split(/\s+/).map(Number) : [];
    await vi.waitFor(() => expect(started.filter(alive)).toEqual([]), { timeout: 2_147_483_647, interval: 50 });
  });
});
