import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

  it("reads the host as the user sees it, but no credential: each place in a fake HOME, a .env above the work tree, the gate state, the run's other sandboxes", async () => {
    const home = realpathSync(mkdtempSync(join('/var/tmp', 'holdfast-escape-home-')));
    const planted: Record<string, string> = {
      '.ssh/id_ed25519': 'ssh',
      '.aws/credentials': 'aws',
      '.config/gh/hosts.yml': 'gh',
      '.npmrc': 'npmrc',
      '.pypirc': 'pypirc',
      '.docker/config.json': 'docker',
      '.config/gcloud/credentials.db': 'gcloud',
      '.azure/accessTokens.json': 'azure',
      '.kube/config': 'kube',
      '.netrc': 'netrc',
      '.git-credentials': 'git-credentials',
      '.env': 'home-env',
      'projects/.env': 'above-env',
      'projects/.holdfast/sessions/s.json': 'gate-state',
    };
    for (const [path, name] of Object.entries(planted)) {
      mkdirSync(dirname(join(home, path)), { recursive: true });
      writeFileSync(join(home, path), `planted-secret-${name}\n`);
    }
    writeFileSync(join(home, '.profile'), 'an ordinary file\n');
    const savedHome = process.env.HOME;
    process.env.HOME = home;
    try {
      manager = await createSandboxManager({ rulebook, parentDir: join(home, 'projects') });
      const root = manager.root;
      const lines = [
        ...Object.keys(planted).map((path) => `attempt(${JSON.stringify(path)}, () => fs.readFileSync(${JSON.stringify(join(home, path))}, 'utf8'));`),
        ...['.ssh', '.aws', '.config/gh', '.docker', '.config/gcloud', '.azure', '.kube'].map(
          (folder) => `attempt('list ${folder}', () => fs.readdirSync(${JSON.stringify(join(home, folder))}).join(','));`,
        ),
        `attempt('profile', () => fs.readFileSync(${JSON.stringify(join(home, '.profile'))}, 'utf8'));`,
        `attempt('write-home', () => fs.writeFileSync(${JSON.stringify(join(home, '.profile'))}, 'x'));`,
        `attempt('bases', () => fs.readdirSync(${JSON.stringify(join(root, 'bases'))}).join(','));`,
        `attempt('other-rounds', () => fs.readdirSync(${JSON.stringify(join(root, 'rounds'))}).join(','));`,
        "attempt('hosts', () => fs.readFileSync('/etc/hosts', 'utf8'));",
        `attempt('host-tmp', () => fs.readFileSync(${JSON.stringify(join(hostTmp, 'secret.txt'))}, 'utf8'));`,
        "attempt('interfaces', () => fs.readFileSync('/proc/net/dev', 'utf8').split('\\n').filter((line) => line.includes(':')).map((line) => line.split(':')[0].trim()).join(','));",
      ];
      const actions: Action[] = [
        { type: 'write', path: 'scripts/escape.mjs', content: probe(lines) },
        { type: 'run', cmd: 'node scripts/escape.mjs' },
      ];
      const landing = await manager.land({ task: FIXTURE_TASK, roundId: 'escape/0', arm: 'told', result: await decide('told', actions, rulebook) });
      const output = landing.result.sandbox!.commands[0]!.output!.text;
      const attempts = attemptsOf(output);
      expect(output).not.toContain('planted-secret');
      for (const path of Object.keys(planted)) expect(attempts[path], path).toMatch(/^(ok:|refused:E(NOENT|ACCES|ISDIR))$/);
      for (const folder of ['.ssh', '.aws', '.config/gh', '.docker', '.config/gcloud', '.azure', '.kube'])
        expect(attempts[`list ${folder}`], folder).toMatch(/^(ok:|refused:)/);
      expect(attempts['profile']).toBe('ok:an ordinary file\n');
      expect(attempts['write-home']).toMatch(/^refused:E(ROFS|ACCES|PERM)$/);
      expect(attempts['bases']).toMatch(/^refused:ENOENT$/);
      // Its own worktree's folder is the one entry of the run's rounds it can see.
      expect(attempts['other-rounds']).toMatch(/^ok:[^,]+$/);
      expect(attempts['hosts']).toMatch(/localhost/);
      expect(attempts['host-tmp']).toBe('refused:ENOENT');
      expect(attempts['interfaces']).toBe('ok:lo');
      expect(JSON.stringify(landing.result)).not.toContain('planted-secret');
      expect(JSON.stringify(landing.result)).not.toContain('host secret');
    } finally {
      process.env.HOME = savedHome;
      rmSync(home, { recursive: true, force: true });
    }
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
