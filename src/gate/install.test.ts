import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';
import { memoryIo } from '../test-support/memory-io.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'holdfast-install-'));
}

async function cli(cwd: string, ...args: string[]) {
  const io = memoryIo({ cwd });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('holdfast install / uninstall claude-code', () => {
  it('merges into existing settings, is idempotent, and uninstall removes only its entry', async () => {
    const root = tempDir();
    mkdirSync(join(root, '.claude'));
    const theirs = { model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh' }] }], Stop: [] } };
    writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify(theirs));
    const first = await cli(root, 'install', 'claude-code', '--rulebook', 'rules.yaml');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/claude-code: updated .claude\/settings.json/);
    const settings = JSON.parse(readFileSync(join(root, '.claude', 'settings.json'), 'utf8'));
    expect(settings.model).toBe('opus');
    expect(settings.hooks.PreToolUse).toHaveLength(2);
    expect(settings.hooks.PreToolUse[1].matcher).toBe('Write|Edit|MultiEdit|NotebookEdit|Bash');
    expect(settings.hooks.PreToolUse[1].hooks[0].command).toMatch(/holdfast\.js hook claude-code --rulebook rules\.yaml$/);
    expect((await cli(root, 'install', 'claude-code', '--rulebook', 'rules.yaml')).out).toMatch(/unchanged/);
    expect(JSON.parse(readFileSync(join(root, '.claude', 'settings.json'), 'utf8'))).toEqual(settings);
    expect((await cli(root, 'uninstall', 'claude-code')).out).toMatch(/updated/);
    expect(JSON.parse(readFileSync(join(root, '.claude', 'settings.json'), 'utf8'))).toEqual(theirs);
  });

  it('creates .codex/hooks.json and removes it again when it held only holdfast', async () => {
    const root = tempDir();
    expect((await cli(root, 'install', 'codex')).out).toMatch(/codex: created .codex\/hooks.json/);
    const hooks = JSON.parse(readFileSync(join(root, '.codex', 'hooks.json'), 'utf8'));
    expect(hooks.hooks.PreToolUse[0].matcher).toBe('Bash|apply_patch');
    expect((await cli(root, 'uninstall', 'codex')).out).toMatch(/removed/);
    expect(existsSync(join(root, '.codex', 'hooks.json'))).toBe(false);
  });

  it('refuses to overwrite settings that are not JSON', async () => {
    const root = tempDir();
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.json'), '{ nope');
    const result = await cli(root, 'install', 'claude-code');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/not valid JSON/);
  });
});

describe('holdfast install git', () => {
  it('adds a block after the shebang of an existing hook, idempotently, and uninstall keeps the rest', async () => {
    const root = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: root });
    const hookPath = join(root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hookPath, '#!/bin/sh\nexec ./their-check.sh\n');
    expect((await cli(root, 'install', 'git')).out).toMatch(/git: updated/);
    const installed = readFileSync(hookPath, 'utf8');
    expect(installed.indexOf('holdfast gate')).toBeLessThan(installed.indexOf('exec ./their-check.sh'));
    expect(statSync(hookPath).mode & 0o111).not.toBe(0);
    expect((await cli(root, 'install', 'git')).out).toMatch(/unchanged/);
    await cli(root, 'uninstall', 'git');
    expect(readFileSync(hookPath, 'utf8')).toBe('#!/bin/sh\nexec ./their-check.sh\n');
  });

  it('refuses outside a git repository', async () => {
    expect((await cli(tempDir(), 'install', 'git')).code).toBe(2);
  });
});
