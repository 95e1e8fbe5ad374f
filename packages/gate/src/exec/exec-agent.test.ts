import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBubblewrap } from './containment.js';
import { WEAKER_GUARANTEE, execAgent } from './exec-agent.js';
import type { ExecAgentOptions } from './exec-agent.js';

function project(): { repo: string; home: string; install: string } {
  const repo = mkdtempSync(join(tmpdir(), 'holdfast-exec-repo-'));
  execFileSync('git', ['init', '-q'], { cwd: repo });
  mkdirSync(join(repo, '.claude'));
  writeFileSync(join(repo, '.claude', 'settings.json'), '{}\n');
  writeFileSync(join(repo, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  const home = mkdtempSync(join(tmpdir(), 'holdfast-exec-home-'));
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = person\n');
  const install = mkdtempSync(join(tmpdir(), 'holdfast-exec-install-'));
  mkdirSync(join(install, 'dist', 'hook-bundle'), { recursive: true });
  writeFileSync(join(install, 'dist', 'hook-bundle', 'hook.cjs'), '// the hook entry\n');
  return { repo, home, install };
}

function options(repo: string, home: string, install: string, script: string, extra: Partial<ExecAgentOptions> = {}): ExecAgentOptions {
  const said: string[] = [];
  return {
    argv: ['sh', '-c', script],
    cwd: repo,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    weaker: false,
    holdfastRoot: install,
    node: process.execPath,
    decide: () => Promise.reject(new Error('no hook runs in this test')),
    say: (line) => said.push(line),
    stdinIsTerminal: false,
    ...extra,
  };
}

/** Processes on this machine whose command line holds `token`. */
function processesWith(token: string): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(join('/proc', pid, 'cmdline'), 'utf8').includes(token);
      } catch {
        return false;
      }
    });
}

describe.runIf(findBubblewrap(process.env) !== undefined)('holdfast exec under bubblewrap', () => {
  it('lets the agent write the project but not the gate, its state, the hook entry or the user’s git config', async () => {
    const { repo, home, install } = project();
    const script = [
      'echo work > src.txt',
      'echo x >> .claude/settings.json',
      'mkdir -p .holdfast/sessions; echo forged > .holdfast/sessions/s.json',
      "echo 'exit 0' > .git/hooks/pre-commit",
      'git config core.hooksPath /dev/null',
      `echo silenced > ${install}/dist/hook-bundle/hook.cjs`,
      'git config --global core.hooksPath /dev/null',
      'echo x > ../outside.txt',
      'echo "$HOME" > home.txt',
      'true',
    ].join('; ');
    const outcome = await execAgent(options(repo, home, install, script));
    expect(outcome).toEqual({ kind: 'ran', layer: 'contained', exitCode: 0 });
    expect(readFileSync(join(repo, 'src.txt'), 'utf8')).toBe('work\n');
    expect(readFileSync(join(repo, '.claude', 'settings.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(join(repo, '.holdfast', 'sessions', 's.json'))).toBe(false);
    expect(readFileSync(join(repo, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 1\n');
    expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).not.toContain('hooksPath');
    expect(readFileSync(join(install, 'dist', 'hook-bundle', 'hook.cjs'), 'utf8')).toBe('// the hook entry\n');
    expect(readFileSync(join(home, '.gitconfig'), 'utf8')).toBe('[user]\n\tname = person\n');
    expect(existsSync(join(repo, '..', 'outside.txt'))).toBe(false);
  });

  it('keeps the agents’ settings read-only though they did not exist yet, and leaves nothing behind (issue 42, item 7)', async () => {
    const { repo, home, install } = project();
    rmSync(join(repo, '.claude'), { recursive: true });
    const off = '{"disableAllHooks":true}';
    const script = [
      `mkdir -p "$HOME/.claude"; echo '${off}' > "$HOME/.claude/settings.json"`,
      `mkdir -p .claude; echo '${off}' > .claude/settings.local.json`,
      `mkdir -p .codex; echo 'x' > .codex/config.toml`,
      `mkdir -p "$HOME/.codex"; echo '[features]' > "$HOME/.codex/config.toml"`,
      `echo '{"hooks":{"PreToolUse":[]}}' > "$HOME/.codex/hooks.json"`,
      `mkdir -p "$HOME/.gemini"; echo '{"hooks":{}}' > "$HOME/.gemini/settings.json"`,
      `echo '{"${repo}":"DO_NOT_TRUST"}' > "$HOME/.gemini/trustedFolders.json"`,
      `mkdir -p .gemini; echo '{}' > .gemini/settings.json`,
      'echo work > src.txt',
      'true',
    ].join('; ');
    const outcome = await execAgent(options(repo, home, install, script));
    expect(outcome).toEqual({ kind: 'ran', layer: 'contained', exitCode: 0 });
    expect(readFileSync(join(repo, 'src.txt'), 'utf8')).toBe('work\n');
    for (const place of [
      join(home, '.claude', 'settings.json'),
      join(home, '.codex', 'config.toml'),
      join(home, '.codex', 'hooks.json'),
      join(home, '.gemini', 'settings.json'),
      join(home, '.gemini', 'trustedFolders.json'),
      join(repo, '.claude'),
      join(repo, '.codex'),
      join(repo, '.gemini'),
    ])
      expect({ place, there: existsSync(place) }).toEqual({ place, there: false });
  });

  it('kills a detached (setsid nohup) child when the agent exits', async () => {
    const { repo, home, install } = project();
    const token = `86400.${process.pid}${Date.now() % 100000}`;
    // The agent waits until its child runs (it wrote its pid), then exits at once.
    const script = `setsid nohup sh -c 'echo $$ > child.pid; exec sleep ${token}' >/dev/null 2>&1 & while [ ! -s child.pid ]; do :; done; true`;
    const outcome = await execAgent(options(repo, home, install, script));
    expect(outcome).toEqual({ kind: 'ran', layer: 'contained', exitCode: 0 });
    expect(readFileSync(join(repo, 'child.pid'), 'utf8').trim()).toMatch(/^\d+$/);
    // The pid namespace is gone with its init: nothing on the machine still runs the child's command.
    expect(processesWith(`sleep\0${token}`)).toEqual([]);
  });

  it('passes the agent’s exit status through', async () => {
    const { repo, home, install } = project();
    expect(await execAgent(options(repo, home, install, 'exit 7'))).toEqual({ kind: 'ran', layer: 'contained', exitCode: 7 });
  });
});

describe('holdfast exec without bubblewrap', () => {
  function pathWithoutBwrap(): string {
    const bin = mkdtempSync(join(tmpdir(), 'holdfast-exec-bin-'));
    symlinkSync('/bin/sh', join(bin, 'sh'));
    return bin;
  }

  it('refuses, naming what to install', async () => {
    const { repo, home, install } = project();
    const outcome = await execAgent(options(repo, home, install, 'echo ran > ran.txt', { env: { PATH: pathWithoutBwrap(), HOME: home } }));
    expect(outcome.kind).toBe('refused');
    expect(outcome.kind === 'refused' ? outcome.reason : '').toMatch(/bubblewrap.*apt-get install bubblewrap.*--weaker/);
    expect(existsSync(join(repo, 'ran.txt'))).toBe(false);
  });

  it('runs with --weaker and says what is lost', async () => {
    const { repo, home, install } = project();
    const said: string[] = [];
    const outcome = await execAgent(
      options(repo, home, install, 'echo ran > ran.txt', { env: { PATH: pathWithoutBwrap(), HOME: home }, weaker: true, say: (line) => said.push(line) }),
    );
    expect(outcome).toEqual({ kind: 'ran', layer: 'weaker', exitCode: 0 });
    expect(existsSync(join(repo, 'ran.txt'))).toBe(true);
    expect(said).toEqual([WEAKER_GUARANTEE]);
  });
});
