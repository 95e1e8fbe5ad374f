import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Action, Rulebook } from '@holdfast/core/contract';
import { loadRulebook } from '@holdfast/core/rules';
import { detectIsolation } from './isolation.js';
import { createSandboxManager } from './manager.js';
import type { SandboxManager } from './manager.js';
import { FIXTURE_TASK, decide, requireIsolation, withAllowlist } from './test-support.js';

// Tried as an attacker would (issue 11, §3): a model writes a script, then runs it with the allowlisted command.
const HOLDFAST_ROOT = fileURLToPath(new URL('../../../..', import.meta.url)).replace(/\/$/, '');
const FAKE_TOKEN = `ghp_${'F4kE'.repeat(9)}`;
const stamp = `${process.pid}-${Date.now()}`;

let rulebook: Rulebook;
let parent = '';
let hostTmp = '';
let manager: SandboxManager | undefined;

beforeAll(async () => {
  await requireIsolation();
  rulebook = withAllowlist(await loadRulebook(), ['^node scripts/[a-z]+\\.mjs$']);
  parent = mkdtempSync(join(tmpdir(), 'holdfast-escape-test-'));
  hostTmp = realpathSync(mkdtempSync(join(tmpdir(), 'holdfast-escape-host-')));
  writeFileSync(join(hostTmp, 'secret.txt'), 'host secret\n');
});

afterEach(async () => {
  await manager?.dispose();
  manager = undefined;
});

afterAll(() => {
  // Empty when beforeAll failed (no bubblewrap): the failure is that message, not this cleanup.
  if (parent !== '') rmSync(parent, { recursive: true, force: true });
  if (hostTmp !== '') rmSync(hostTmp, { recursive: true, force: true });
  rmSync(`/var/tmp/holdfast-escaped-${stamp}`, { force: true });
  rmSync(join(HOLDFAST_ROOT, `escaped-${stamp}`), { force: true });
});

async function landScript(script: string | ((root: string) => string), extra: Action[] = []) {
  manager = await createSandboxManager({ rulebook, parentDir: parent });
  if (typeof script === 'function') script = script(manager.root);
  const actions: Action[] = [{ type: 'write', path: 'scripts/escape.mjs', content: script }, { type: 'run', cmd: 'node scripts/escape.mjs' }, ...extra];
  return manager.land({ task: FIXTURE_TASK, roundId: 'escape/0', arm: 'told', result: await decide('told', actions, rulebook) });
}

/** Each attempt's outcome: `ok:<what it got>` or `refused:<error code>`. */
const PROBE = `import fs from 'node:fs';
const attempts = {};
const attempt = (name, action) => {
  try { attempts[name] = 'ok:' + String(action()).slice(0, 300); } catch (error) { attempts[name] = 'refused:' + (error.code ?? error.message); }
};
const ATTEMPTS;
process.stdout.write(JSON.stringify(attempts));
`;

function probe(lines: string[]): string {
  return PROBE.replace('const ATTEMPTS;', lines.join('\n'));
}

function attemptsOf(output: string | undefined): Record<string, string> {
  return JSON.parse(output ?? '{}') as Record<string, string>;
}

describe('a model-written command in the sandbox', () => {
  it("cannot write outside the repository: not the host /tmp, not /var/tmp, not holdfast's folder, not /", async () => {
    const landing = await landScript(
      probe([
        `attempt('host-tmp', () => fs.writeFileSync(${JSON.stringify(join(hostTmp, 'escaped'))}, 'x'));`,
        `attempt('var-tmp', () => fs.writeFileSync('/var/tmp/holdfast-escaped-${stamp}', 'x'));`,
        `attempt('holdfast', () => fs.writeFileSync(${JSON.stringify(join(HOLDFAST_ROOT, `escaped-${stamp}`))}, 'x'));`,
        `attempt('root', () => fs.writeFileSync('/escaped', 'x'));`,
        `attempt('usr', () => fs.writeFileSync('/usr/escaped-${stamp}', 'x'));`,
        `attempt('private-tmp', () => { fs.writeFileSync('/tmp/mine', 'x'); return fs.readFileSync('/tmp/mine', 'utf8'); });`,
        `attempt('repo', () => { fs.writeFileSync('inside.txt', 'x'); return 'written'; });`,
      ]),
    );
    const command = landing.result.sandbox!.commands[0]!;
    expect(command).toMatchObject({ executed: true, exitCode: 0 });
    const attempts = attemptsOf(command.output?.text);
    for (const name of ['host-tmp', 'var-tmp', 'root', 'usr']) expect(attempts[name], name).toMatch(/^refused:E(ROFS|NOENT|ACCES|PERM)$/);
    // A holdfast that lives under /tmp (a CI clone, say) sits inside the sandbox's private /tmp: there the
    // write may succeed in the sandbox's own tmpfs. What counts is that nothing reaches the host (below).
    if (!HOLDFAST_ROOT.startsWith('/tmp/')) expect(attempts['holdfast'], 'holdfast').toMatch(/^refused:E(ROFS|NOENT|ACCES|PERM)$/);
    expect(attempts['private-tmp']).toBe('ok:x');
    expect(attempts['repo']).toBe('ok:written');
    expect(existsSync(join(hostTmp, 'escaped'))).toBe(false);
    expect(existsSync(`/var/tmp/holdfast-escaped-${stamp}`)).toBe(false);
    expect(existsSync(join(HOLDFAST_ROOT, `escaped-${stamp}`))).toBe(false);
    expect(landing.result.sandbox!.changedPaths).toEqual(['inside.txt', 'scripts/escape.mjs']);
  });

  it("cannot read host files: /etc/hostname, /etc/passwd, the host home, another /tmp folder, holdfast's own files, the base repo", async () => {
    const landing = await landScript((root) =>
      probe([
        `attempt('bases', () => fs.readdirSync(${JSON.stringify(join(root, 'bases'))}).join(','));`,
        `attempt('other-rounds', () => fs.readdirSync(${JSON.stringify(join(root, 'rounds'))}).join(','));`,
        "attempt('hostname', () => fs.readFileSync('/etc/hostname', 'utf8'));",
        "attempt('passwd', () => fs.readFileSync('/etc/passwd', 'utf8'));",
        "attempt('hosts', () => fs.readFileSync('/etc/hosts', 'utf8'));",
        `attempt('home', () => fs.readdirSync(${JSON.stringify(homedir())}).join(','));`,
        `attempt('host-tmp', () => fs.readFileSync(${JSON.stringify(join(hostTmp, 'secret.txt'))}, 'utf8'));`,
        `attempt('holdfast-package', () => fs.readFileSync(${JSON.stringify(join(HOLDFAST_ROOT, 'package.json'))}, 'utf8'));`,
        `attempt('holdfast-folder', () => fs.readdirSync(${JSON.stringify(HOLDFAST_ROOT)}).join(','));`,
        "attempt('node-home', () => require('node:os').homedir());",
        "attempt('hostname-call', () => process.env.HOSTNAME ?? 'unset');",
      ]),
    );
    const attempts = attemptsOf(landing.result.sandbox!.commands[0]!.output?.text);
    for (const name of ['hostname', 'passwd', 'hosts', 'home', 'host-tmp', 'holdfast-package', 'bases'])
      expect(attempts[name], name).toMatch(/^refused:E(NOENT|ACCES)$/);
    // Its own worktree's folder is the one entry of the run's rounds it can see.
    expect(attempts['other-rounds']).toMatch(/^ok:[^,]+$/);
    // holdfast's folder exists only as the path to its type-stripping hook: nothing of its own is in it.
    expect(attempts['holdfast-folder']).toMatch(/^(refused:ENOENT|ok:(packages|node_modules)?(,(packages|node_modules))*)$/);
    expect(JSON.stringify(landing.result)).not.toContain('host secret');
  });

  it("sees only its own processes, and no parent environment: a GITHUB_TOKEN in holdfast's environment stays out", async () => {
    process.env.GITHUB_TOKEN = FAKE_TOKEN;
    try {
      const landing = await landScript(
        probe([
          `attempt('parent-environ', () => fs.readFileSync('/proc/${process.pid}/environ', 'utf8'));`,
          "attempt('pids', () => fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name)).join(','));",
          "attempt('every-environ', () => fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name)).map((pid) => { try { return fs.readFileSync(`/proc/${pid}/environ`, 'utf8'); } catch { return ''; } }).join('|'));",
          "attempt('own-env', () => Object.keys(process.env).sort().join(','));",
        ]),
      );
      const output = landing.result.sandbox!.commands[0]!.output!.text;
      const attempts = attemptsOf(output);
      expect(output).not.toContain(FAKE_TOKEN);
      expect(JSON.stringify(landing.result)).not.toContain(FAKE_TOKEN);
      expect(attempts['parent-environ']).toMatch(/^refused:/);
      // A fresh pid namespace: bubblewrap's init and the command, nothing of the host.
      const pids = attempts['pids']!.replace(/^ok:/, '').split(',').map(Number);
      expect(pids).not.toContain(process.pid);
      expect(Math.max(...pids)).toBeLessThan(10);
      expect(attempts['own-env']).toMatch(/^ok:/);
      expect(attempts['own-env']!.replace(/^ok:/, '').split(',').sort()).toEqual(expect.arrayContaining(['HOME', 'LANG', 'PATH', 'TMPDIR']));
      expect(attempts['own-env']).not.toMatch(/GITHUB|TOKEN|KEY|SECRET|VITEST|NODE_EXTRA/);
    } finally {
      delete process.env.GITHUB_TOKEN;
    }
  });

  it('ends the arm with the reason, never a crash, on a 300-character path segment', async () => {
    const long = `src/${'a'.repeat(300)}.ts`;
    const landing = await landScript("process.stdout.write('ran');\n", [
      { type: 'write', path: long, content: 'export const x = 1;\n' },
      { type: 'write', path: 'src/after.ts', content: 'export const after = 1;\n' },
    ]);
    expect(landing.failure).toMatchObject({ index: 2, code: 'E_SANDBOX_FS', message: expect.stringMatching(/^ENAMETOOLONG/) });
    expect(landing.result.actions[2]!.landed).toMatchObject({ state: 'failed' });
    expect(landing.result.actions[3]!.landed).toBeUndefined();
    expect(landing.result.sandbox!.changedPaths).toEqual(['scripts/escape.mjs']);
    expect(manager!.liveCount()).toBe(0);
  });

  it('ends the arm with the reason, never a crash, on a symlink loop a command made', async () => {
    const loop =
      "import fs from 'node:fs';\nfs.symlinkSync('loop-b', 'src/loop-a');\nfs.symlinkSync('loop-a', 'src/loop-b');\nfs.symlinkSync('self', 'src/self');\n";
    const landing = await landScript(loop, [
      { type: 'write', path: 'src/loop-a/x.ts', content: 'export const x = 1;\n' },
      { type: 'commit', message: 'never made' },
    ]);
    expect(landing.failure).toMatchObject({ index: 2, code: 'E_SANDBOX_FS', message: expect.stringMatching(/^ELOOP/) });
    expect(landing.result.sandbox!.commits).toEqual([]);
    expect(landing.result.sandbox!.changedPaths).toEqual(expect.arrayContaining(['src/loop-a', 'src/loop-b', 'src/self']));

    const deleting = await manager!.land({
      task: FIXTURE_TASK,
      roundId: 'escape/1',
      arm: 'told',
      result: await decide(
        'told',
        [
          { type: 'write', path: 'scripts/escape.mjs', content: loop },
          { type: 'run', cmd: 'node scripts/escape.mjs' },
          { type: 'delete', path: 'src/self/x' },
        ],
        rulebook,
      ),
    });
    expect(deleting.failure).toMatchObject({ index: 2, message: expect.stringMatching(/^ELOOP/) });
  });
});

describe('without isolation', () => {
  it('refuses to make sandboxes at all, naming what to install and the flag that overrides it', async () => {
    const missing = await detectIsolation('auto', { searchPath: mkdtempSync(join(tmpdir(), 'holdfast-no-bwrap-')) });
    expect(missing).toEqual({ kind: 'none', detail: 'bubblewrap (bwrap) is not installed' });
    const refused = createSandboxManager({ rulebook, parentDir: parent, isolation: missing });
    await expect(refused).rejects.toMatchObject({
      code: 'E_SANDBOX_ISOLATION',
      message: expect.stringMatching(/apt-get install bubblewrap.*--unsafe-no-isolation/s),
    });
    manager = await createSandboxManager({ rulebook, parentDir: parent, isolation: missing, allowUnisolated: true });
    expect(manager.isolation.kind).toBe('none');
  });
});
