import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SHIPPED_RULEBOOK } from '@holdfast/lab/test-support';
import { claude } from '@holdfast/gate/test-support';

// Ignore rules the agent wrote never hide its work: the built CLI as Claude Code runs it, one process
// per hook event, on a real git repository (npm test builds dist/ first).
const BIN = fileURLToPath(new URL('../../packages/cli/bin/holdfast.js', import.meta.url));
// Built at run time, as an agent would write it.
const LOGGED = `export const leak = () => ${['console', 'log'].join('.')}('leak');\n`;
const CLEAN = 'export const leak = () => 1;\n';

function hook(root: string, input: string): { code: number | null; out: string } {
  const result = spawnSync(process.execPath, [BIN, 'hook', 'claude-code'], {
    input,
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOLDFAST_RULEBOOK: SHIPPED_RULEBOOK },
  });
  return { code: result.status, out: result.stdout };
}

function gitProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-e2e-ignores-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'greet.ts'), 'export const greet = () => "hi";\n');
  writeFileSync(join(root, '.gitignore'), '.holdfast/\n');
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', 'commit', '-qm', 'start'],
  ])
    spawnSync('git', args, { cwd: root });
  return root;
}

/** A Bash call whose effects show only after it ran (`npm run generate`): PreToolUse, the command's effect, PostToolUse. */
function bashCall(root: string, id: string, effect: () => void): string {
  const pre = { ...(JSON.parse(claude.bash(root, 's', 'npm run generate')) as Record<string, unknown>), tool_use_id: id };
  expect(hook(root, JSON.stringify(pre))).toEqual({ code: 0, out: '' });
  effect();
  const post = hook(root, JSON.stringify({ ...pre, hook_event_name: 'PostToolUse', tool_response: { stdout: '', stderr: '', interrupted: false } }));
  expect(post.code).toBe(0);
  return post.out;
}

function blockReason(out: string): string {
  const answer = JSON.parse(out) as { decision: string; reason: string };
  expect(answer.decision).toBe('block');
  return answer.reason;
}

function audit(root: string): { decision: string; rule: string | null; action: string }[] {
  return readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { decision: string; rule: string | null; action: string });
}

describe('files behind ignore rules the agent wrote, the built hook', () => {
  it('a later call that rewrites a file an earlier call hid behind its own src/.gitignore: put back, told, audited', () => {
    const root = gitProject();
    const first = bashCall(root, 'toolu_1', () => {
      writeFileSync(join(root, 'src', '.gitignore'), 'leak.ts\n');
      writeFileSync(join(root, 'src', 'leak.ts'), CLEAN);
    });
    expect(first).toBe('');
    const reason = blockReason(bashCall(root, 'toolu_2', () => writeFileSync(join(root, 'src', 'leak.ts'), LOGGED)));
    expect(reason).toMatch(/src\/leak\.ts: restored to its content before the command\. R4 NOLOG/);
    expect(readFileSync(join(root, 'src', 'leak.ts'), 'utf8')).toBe(CLEAN);
    expect(audit(root).filter((entry) => entry.decision === 'reverted')).toMatchObject([{ rule: 'R4', action: expect.stringMatching(/^write src\/leak\.ts/) }]);
  });

  it('a .gitignore written with the Write tool, then a file behind it written by a shell call: deleted, told', () => {
    const root = gitProject();
    expect(hook(root, claude.write(root, 's', 'src/.gitignore', 'leak.ts\n'))).toEqual({ code: 0, out: '' });
    writeFileSync(join(root, 'src', '.gitignore'), 'leak.ts\n');
    const reason = blockReason(bashCall(root, 'toolu_1', () => writeFileSync(join(root, 'src', 'leak.ts'), LOGGED)));
    expect(reason).toMatch(/src\/leak\.ts: deleted \(the command created it\)\. R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'leak.ts'))).toBe(false);
  });
});
