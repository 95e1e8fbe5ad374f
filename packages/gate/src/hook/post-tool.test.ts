import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Action, Rulebook } from '@holdfast/core/contract';
import { checkActions } from '@holdfast/core/rules';
import { loadRulebook } from '@holdfast/core/rules';
import { checkChangesLazily, checkChangesWith } from '../decide/check-changes.js';
import type { ChangeCheck } from '../decide/check-changes.js';
import { answerPostToolUse } from './post-tool.js';
import { loadFlagged } from '../put-back/outside-check.js';
import type { PostToolUseOptions } from './post-tool.js';
import { saveSessionState } from '../state/session-state.js';
import { beforeShellCall, findSnapshotRecord } from '../state/snapshot.js';
import { followPutBack } from '../state/snapshot-store.js';
import { sessionMirrorFolder } from '../state/session-state.js';

// Built at run time so the repository never holds a literal that secret scanners flag.
const awsKeyId = ['AKIA', 'QYLPMN5HFIQR7XYZ'].join('');
const NOW = () => new Date('2026-11-30T12:00:00Z');

let rulebook: Rulebook;
beforeAll(async () => {
  rulebook = await loadRulebook();
});

/** The session ran its tests before this call, so the order rule (R6) accepts a commit. */
function judge(replay: readonly Action[] = [{ type: 'run', cmd: 'npm test' }]): ChangeCheck {
  return checkChangesWith({ rulebook, checkActions, replay: () => ({ actions: replay, observed: new Map() }) });
}

function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString('utf8')
    .trimEnd();
}

function folder(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-post-'));
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src', 'cart.ts'), 'export const total = 1;\n');
  writeFileSync(join(root, 'src', 'cart.test.ts'), 'export {};\n');
  writeFileSync(join(root, 'README.md'), '# shop\n');
  return root;
}

function repository(): string {
  const root = folder();
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 'gate@example.test');
  git(root, 'config', 'user.name', 'gate');
  writeFileSync(join(root, '.gitignore'), 'dist/\n.holdfast/\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'start');
  return root;
}

/** A script the agent runs: real shell, real files, the way `npm run …` or `node x.js` would change them. */
function run(root: string, script: string): void {
  execFileSync('sh', ['-c', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
}

function postEvent(root: string, session: string, toolUseId: string | undefined, eventName = 'PostToolUse', tool = 'Bash'): string {
  return JSON.stringify({
    session_id: session,
    cwd: root,
    hook_event_name: eventName,
    tool_name: tool,
    tool_input: { command: 'npm run build' },
    tool_response: { stdout: '', stderr: '', interrupted: false },
    ...(toolUseId === undefined ? {} : { tool_use_id: toolUseId }),
  });
}

function options(overrides: Partial<PostToolUseOptions> = {}): PostToolUseOptions {
  return { env: {}, now: NOW, judge: judge(), ...overrides };
}

function blockReason(stdout: string): string {
  const answer = JSON.parse(stdout) as { decision: string; reason: string };
  expect(answer.decision).toBe('block');
  return answer.reason;
}

function audit(root: string): { decision: string; rule: string | null; name?: string; action: string; detail: string }[] {
  return readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

async function afterScript(root: string, script: string, overrides: Partial<PostToolUseOptions> = {}, agent: 'claude-code' | 'codex' = 'claude-code') {
  beforeShellCall(root, 's1', 'toolu_1', NOW);
  run(root, script);
  return answerPostToolUse(agent, postEvent(root, 's1', 'toolu_1'), options(overrides));
}

describe('the after-the-fact check of a shell call', () => {
  it('puts back a console.log in src/ and deletes a new key file in config/, and keeps the clean change', async () => {
    const root = repository();
    const answer = await afterScript(
      root,
      [
        `printf 'export const total = 1;\\nconsole.log(total);\\n' > src/cart.ts`,
        `mkdir -p config && printf '{"aws":"${awsKeyId}"}\\n' > config/keys.json`,
        `printf 'export {};\\n// more cases\\n' > src/cart.test.ts`,
      ].join(' && '),
    );
    expect(answer.exitCode).toBe(0);
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/src\/cart\.ts: restored to its content before the command\. R4 NOLOG/);
    expect(reason).toMatch(/config\/keys\.json: deleted \(the command created it\)\. R1 SECRET.*R2 SCOPE/s);
    expect(reason).toContain('Kept (no rule refused them): src/cart.test.ts.');
    expect(reason).not.toContain(awsKeyId);
    expect(reason).not.toMatch(/HOLDFAST_GATE|bypass|switch/i);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 1;\n');
    expect(existsSync(join(root, 'config', 'keys.json'))).toBe(false);
    expect(readFileSync(join(root, 'src', 'cart.test.ts'), 'utf8')).toBe('export {};\n// more cases\n');
    expect(audit(root)).toMatchObject([
      { decision: 'reverted', rule: 'R1', name: 'SECRET', action: expect.stringMatching(/^write config\/keys\.json/) },
      { decision: 'reverted', rule: 'R4', name: 'NOLOG', action: expect.stringMatching(/^write src\/cart\.ts/) },
    ]);
    expect(JSON.stringify(audit(root))).not.toContain(awsKeyId);
    // A person whose own edit landed in the call's window can still get it back.
    const recover = /git --git-dir=\.holdfast\/snapshots\.git cat-file -p ([0-9a-f]+)/.exec(audit(root)[1]?.detail ?? '')?.[1] ?? '';
    expect(execFileSync('git', ['--git-dir=.holdfast/snapshots.git', 'cat-file', '-p', recover], { cwd: root }).toString()).toBe(
      'export const total = 1;\nconsole.log(total);\n',
    );
    expect(reason).not.toContain('cat-file');
  });

  it('deletes a new file outside the allowed area and restores a deleted one, leaving ignored build output alone', async () => {
    const root = repository();
    const answer = await afterScript(root, 'mkdir -p docs dist && echo notes > docs/notes.md && rm README.md && echo built > dist/app.js');
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/docs\/notes\.md: deleted .*R2 SCOPE/);
    expect(reason).toMatch(/README\.md: restored .*R2 SCOPE/);
    expect(existsSync(join(root, 'docs', 'notes.md'))).toBe(false);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# shop\n');
    expect(readFileSync(join(root, 'dist', 'app.js'), 'utf8')).toBe('built\n');
  });

  it('judges a symbolic link where it leads: one out of src/ (or out of the project) is removed, one inside src/ stays', async () => {
    const root = repository();
    const answer = await afterScript(root, 'ln -s .. src/up && ln -s ../../outside src/far && ln -s cart.ts src/alias.ts');
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/src\/up: deleted .*R2 SCOPE/);
    expect(reason).toMatch(/src\/far: deleted .*R2 SCOPE/);
    expect(reason).not.toMatch(/src\/alias\.ts/);
    expect(existsSync(join(root, 'src', 'up'))).toBe(false);
    expect(existsSync(join(root, 'src', 'far'))).toBe(false);
    expect(readFileSync(join(root, 'src', 'alias.ts'), 'utf8')).toBe('export const total = 1;\n');
  });

  it('puts back files whose names are not UTF-8 by their own bytes, and leaves the file whose name they decoded to alone (issue 46)', async () => {
    const root = repository();
    const named = (name: string) => Buffer.concat([Buffer.from(join(root, 'src/'), 'utf8'), Buffer.from(name, 'latin1')]);
    writeFileSync(named('mod\xfe.ts'), 'export const mod = 1;\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'a name that is not UTF-8');
    // A person's file named as the call's would decode to: src/log\ufffd.ts.
    writeFileSync(join(root, 'src', 'log\ufffd.ts'), 'export const mine = 1;\n');
    const answer = await afterScript(
      root,
      `printf 'console.log(1);\\n' > "$(printf 'src/log\\377.ts')" && printf 'console.log(2);\\n' >> "$(printf 'src/mod\\376.ts')"`,
    );
    expect(blockReason(answer.stdout)).toMatch(/R4 NOLOG[\s\S]*R4 NOLOG/);
    expect(existsSync(named('log\xff.ts'))).toBe(false);
    expect(readFileSync(named('mod\xfe.ts'), 'utf8')).toBe('export const mod = 1;\n');
    expect(readFileSync(join(root, 'src', 'log\ufffd.ts'), 'utf8')).toBe('export const mine = 1;\n');
  });

  it('moves a file back when its move to a refused place is put back', async () => {
    const root = repository();
    const answer = await afterScript(root, 'mkdir -p lib && mv src/cart.ts lib/cart.ts');
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/lib\/cart\.ts: deleted .*R2 SCOPE/);
    expect(reason).toMatch(/src\/cart\.ts: restored/);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 1;\n');
    expect(existsSync(join(root, 'lib', 'cart.ts'))).toBe(false);
  });

  it('takes refused content out of the index too, where a script staged it, and leaves other staging alone', async () => {
    const root = repository();
    writeFileSync(join(root, 'src', 'cart.test.ts'), 'export {};\n// staged by a person\n');
    git(root, 'add', 'src/cart.test.ts');
    const answer = await afterScript(root, `printf 'console.log(1);\\n' > src/cart.ts && git add src/cart.ts && git rm -q README.md`);
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/README\.md: restored .*R2 SCOPE/);
    expect(reason).toMatch(/src\/cart\.ts: restored .*R4 NOLOG/);
    expect(git(root, 'status', '--porcelain')).toBe('M  src/cart.test.ts');
  });

  it('says nothing when every change keeps the rules, and loads the rulebook only when something changed', async () => {
    const root = repository();
    let loads = 0;
    const lazy = checkChangesLazily(async () => {
      loads += 1;
      return { rulebook, checkActions };
    });
    expect(await afterScript(root, 'ls > /dev/null', { judge: lazy })).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(loads).toBe(0);
    const answer = await afterScript(root, `printf 'export const total = 2;\\n' > src/cart.ts`, { judge: lazy });
    expect(answer).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(loads).toBe(1);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 2;\n');
  });

  it('moves the branch back past a commit a script made with --no-verify, keeping its compliant changes unstaged', async () => {
    const root = repository();
    const start = git(root, 'rev-parse', 'HEAD');
    const answer = await afterScript(
      root,
      [
        `printf 'export const total = 3;\\n' > src/cart.ts`,
        `printf 'export const log = () => console.log(1);\\n' > src/log.ts`,
        `printf 'export {};\\n' > src/log.test.ts`,
        'git add -A',
        'git commit -q --no-verify -m release',
        `printf 'export const log = () => 1;\\n' > src/log.ts`,
      ].join(' && '),
    );
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/commit [0-9a-f]{10} "release" on branch main: R4 NOLOG: write to "src\/log\.ts"/);
    expect(reason).toContain(`branch main was moved back to ${start.slice(0, 10)}`);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(start);
    expect(git(root, 'diff', '--cached', '--name-only')).toBe('');
    // What the work tree holds now breaks no rule, so it stays, as changes not yet committed.
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 3;\n');
    expect(readFileSync(join(root, 'src', 'log.ts'), 'utf8')).toBe('export const log = () => 1;\n');
    expect(git(root, 'status', '--porcelain', '--untracked-files=all').split('\n').sort()).toEqual([' M src/cart.ts', '?? src/log.test.ts', '?? src/log.ts']);
    expect(audit(root)).toMatchObject([{ decision: 'reverted', rule: 'R4', action: expect.stringMatching(/^commit [0-9a-f]{10} "release"/) }]);
  });

  it('removes a tag a script put on a refused commit, and a first commit of an empty repository', async () => {
    const root = repository();
    const start = git(root, 'rev-parse', 'HEAD');
    const tagged = await afterScript(root, `printf 'console.log(1);\\n' > src/cart.test.ts && git commit -qam log && git tag v1`);
    expect(blockReason(tagged.stdout)).toMatch(/tag v1 was removed \(the command created it\)/);
    expect(git(root, 'tag', '--list')).toBe('');
    expect(git(root, 'rev-parse', 'HEAD')).toBe(start);

    const empty = folder();
    git(empty, 'init', '-q', '-b', 'main');
    const first = await afterScript(
      empty,
      `printf 'console.log(1);\\n' > src/cart.test.ts && git add -A && git -c user.email=a@b.test -c user.name=a commit -qm first`,
    );
    expect(blockReason(first.stdout)).toMatch(/"first" on branch main: .*R4 NOLOG.*branch main was removed/s);
    expect(spawnSync('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: empty }).status).not.toBe(0);
    expect(git(empty, 'diff', '--cached', '--name-only')).toBe('');
  });

  it('puts HEAD back on its branch when the call pointed it at a ref the gate removes, or detached it onto a refused commit', async () => {
    const root = repository();
    const start = git(root, 'rev-parse', 'HEAD');
    // As a script can with plumbing and two file writes: a violating commit on a new ref, and HEAD on that ref.
    const onWip = await afterScript(
      root,
      [
        `printf 'console.log(1);\\n' > src/cart.test.ts && git add -A`,
        `c=$(git -c user.email=a@b.test -c user.name=a commit-tree $(git write-tree) -p HEAD -m wip)`,
        `mkdir -p .git/refs/wip && echo $c > .git/refs/wip/x && echo 'ref: refs/wip/x' > .git/HEAD`,
      ].join(' && '),
    );
    expect(blockReason(onWip.stdout)).toMatch(/refs\/wip\/x was removed \(the command created it\)/);
    expect(git(root, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(git(root, 'rev-parse', 'HEAD')).toBe(start);
    expect(git(root, 'diff', '--cached', '--name-only')).toBe('');
    const detached = await afterScript(
      root,
      `printf 'console.log(2);\\n' > src/cart.test.ts && git add -A && git -c user.email=a@b.test -c user.name=a commit -q --no-verify -m d && git checkout -q --detach && git reset -q --soft HEAD~1 && git -c user.email=a@b.test -c user.name=a commit -q --no-verify -m d2 && git update-ref refs/heads/main ${start}`,
    );
    expect(blockReason(detached.stdout)).toMatch(/R4 NOLOG/);
    expect(git(root, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(git(root, 'rev-parse', 'HEAD')).toBe(start);
  });

  it('keeps a compliant script commit, and refuses one the session made without running its tests (R6)', async () => {
    const root = repository();
    const clean = await afterScript(root, `printf 'export const total = 4;\\n' > src/cart.ts && git commit -qam tidy`);
    expect(clean.stdout).toBe('');
    const tidy = git(root, 'rev-parse', 'HEAD');
    const untested = await afterScript(root, `printf 'export const total = 5;\\n' > src/cart.ts && git commit -qam again`, { judge: judge([]) });
    expect(blockReason(untested.stdout)).toMatch(/"again" on branch main: R6 ORDER/);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(tidy);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 5;\n');
  });

  it('restores .claude/settings.json and a git hook a script changed (GATE TAMPER)', async () => {
    const root = repository();
    mkdirSync(join(root, '.claude'));
    const settings = '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"holdfast hook claude-code"}]}]}}\n';
    writeFileSync(join(root, '.claude', 'settings.json'), settings);
    const hook = join(root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\nholdfast hook git\n');
    chmodSync(hook, 0o755);
    const answer = await afterScript(root, `echo '{}' > .claude/settings.json && rm .git/hooks/pre-commit && mkdir -p .codex && echo x > .codex/hooks.json`);
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/\.claude\/settings\.json: restored .*GATE TAMPER/);
    expect(reason).toMatch(/\.git\/hooks\/pre-commit: restored .*GATE TAMPER/);
    expect(reason).toMatch(/\.codex\/hooks\.json: deleted .*GATE TAMPER/);
    expect(readFileSync(join(root, '.claude', 'settings.json'), 'utf8')).toBe(settings);
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\nholdfast hook git\n');
    expect(execFileSync('sh', ['-c', `test -x '${hook}' && echo executable`]).toString()).toBe('executable\n');
    expect(existsSync(join(root, '.codex', 'hooks.json'))).toBe(false);
    expect(audit(root).map((entry) => `${entry.rule} ${entry.name ?? ''}`)).toEqual(['GATE TAMPER', 'GATE TAMPER', 'GATE TAMPER']);
  });

  it('treats a hooks-path setting in .git/config as tampering, but not an upstream or a granted permission', async () => {
    const root = repository();
    mkdirSync(join(root, '.claude'));
    const benign = await afterScript(
      root,
      `git config branch.main.remote origin && echo '{"permissions":{"allow":["Bash(npm run build)"]}}' > .claude/settings.local.json`,
    );
    expect(benign.stdout).toBe('');
    expect(git(root, 'config', 'branch.main.remote')).toBe('origin');
    const hooks = await afterScript(root, `echo '{"permissions":{"allow":[]},"disableAllHooks":true}' > .claude/settings.local.json`);
    expect(blockReason(hooks.stdout)).toMatch(/\.claude\/settings\.local\.json: restored .*GATE TAMPER/);
    expect(readFileSync(join(root, '.claude', 'settings.local.json'), 'utf8')).toBe('{"permissions":{"allow":["Bash(npm run build)"]}}\n');
    const hooksPath = await afterScript(root, 'git config core.hooksPath /dev/null');
    expect(blockReason(hooksPath.stdout)).toMatch(/\.git\/config: restored .*GATE TAMPER/);
    expect(spawnSync('git', ['config', '--get', 'core.hooksPath'], { cwd: root }).status).toBe(1);
  });

  it('treats a change to the rulebook file as tampering', async () => {
    const root = repository();
    writeFileSync(join(root, 'AGENTS.yaml'), 'version: 1\n');
    const answer = await afterScript(root, `echo 'rules: []' > AGENTS.yaml`, { protectedPaths: [join(root, 'AGENTS.yaml')] });
    expect(blockReason(answer.stdout)).toMatch(/AGENTS\.yaml: restored .*GATE TAMPER/);
    expect(readFileSync(join(root, 'AGENTS.yaml'), 'utf8')).toBe('version: 1\n');
  });

  it('checks again when a put-back .gitignore reveals files it hid', async () => {
    const root = repository();
    const answer = await afterScript(root, `echo 'src/' >> .gitignore && printf 'console.log(1);\\n' > src/hidden.test.ts`);
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/\.gitignore: restored .*R2 SCOPE/);
    expect(reason).toMatch(/src\/hidden\.test\.ts: deleted .*R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'hidden.test.ts'))).toBe(false);
  });

  describe('files hidden behind ignore rules the command wrote', () => {
    it('judges files a new .gitignore that ignores itself hides, and deletes the one that breaks a rule', async () => {
      const root = repository();
      const answer = await afterScript(root, `mkdir -p src/gen && printf '*\\n' > src/gen/.gitignore && printf 'console.log(1);\\n' > src/gen/log.ts`);
      const reason = blockReason(answer.stdout);
      expect(reason).toMatch(/src\/gen\/log\.ts: deleted \(the command created it\)\. .*R4 NOLOG/);
      expect(existsSync(join(root, 'src', 'gen', 'log.ts'))).toBe(false);
    });

    it('judges a file a visible new .gitignore names (a secret), and leaves files hidden before the call alone', async () => {
      const root = repository();
      mkdirSync(join(root, 'src', 'local'));
      writeFileSync(join(root, 'src', 'local', '.gitignore'), '*\n');
      writeFileSync(join(root, 'src', 'local', 'notes.ts'), 'console.log("mine");\n');
      const answer = await afterScript(root, `printf 'keys.json\\n' > src/.gitignore && printf '{"aws":"${awsKeyId}"}\\n' > src/keys.json`);
      const reason = blockReason(answer.stdout);
      expect(reason).toMatch(/src\/keys\.json: deleted \(the command created it\)\. R1 SECRET/);
      expect(reason).not.toContain('notes.ts');
      expect(existsSync(join(root, 'src', 'keys.json'))).toBe(false);
      expect(readFileSync(join(root, 'src', 'local', 'notes.ts'), 'utf8')).toBe('console.log("mine");\n');
    });

    it("is not fooled by the repository's .git/info/exclude (the snapshot store never reads it)", async () => {
      const root = repository();
      const answer = await afterScript(root, `echo 'src/leak.ts' >> .git/info/exclude && printf 'console.log(1);\\n' > src/leak.ts`);
      expect(blockReason(answer.stdout)).toMatch(/src\/leak\.ts: deleted .*R4 NOLOG/);
      expect(existsSync(join(root, 'src', 'leak.ts'))).toBe(false);
    });

    it('leaves what rules from before the call ignore alone (a build into dist/), and says nothing', async () => {
      const root = repository();
      const first = await afterScript(root, `mkdir -p dist && printf 'console.log(1);\\n' > dist/out.js`);
      expect(first.stdout).toBe('');
      const again = await afterScript(root, `printf 'console.log(2);\\n' > dist/more.js`);
      expect(again.stdout).toBe('');
      expect(readFileSync(join(root, 'dist', 'more.js'), 'utf8')).toBe('console.log(2);\n');
    });
  });

  describe('files changed while no checked call ran', () => {
    /** As the hook judges the work tree: R3 waits for the commit or the end of the turn. */
    const sessionJudge = (): ChangeCheck =>
      checkChangesWith({ rulebook, checkActions, skipTimings: ['change'], replay: () => ({ actions: [], observed: new Map() }) });

    it('judges, at the next shell call, a file a process the last command left in the background wrote, and leaves it in place', async () => {
      const root = repository();
      const trigger = join(mkdtempSync(join(tmpdir(), 'holdfast-trigger-')), 'go');
      const first = await afterScript(root, `(while [ ! -e '${trigger}' ]; do sleep 0.01; done; printf 'console.log(1);\\n' > src/late.ts) >/dev/null 2>&1 &`);
      expect(first.stdout).toBe('');
      writeFileSync(trigger, '');
      // The shell creates the file before it writes the line: wait for the line, not the name.
      await expect
        .poll(() => (existsSync(join(root, 'src', 'late.ts')) ? readFileSync(join(root, 'src', 'late.ts'), 'utf8') : ''), { interval: 20 })
        .toBe('console.log(1);\n');
      beforeShellCall(root, 's1', 'toolu_2', NOW);
      const next = await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_2'), options({ judge: sessionJudge() }));
      const reason = blockReason(next.stdout);
      expect(reason).toMatch(/src\/late\.ts: left in place \(this session did not write it.*R4 NOLOG/);
      expect(reason).toMatch(/turn cannot end while a file left in place breaks a rule/);
      expect(reason).not.toMatch(/HOLDFAST_GATE|bypass|switch/i);
      expect(existsSync(join(root, 'src', 'late.ts'))).toBe(true);
      expect(audit(root)).toMatchObject([{ decision: 'deny', rule: 'R4', name: 'NOLOG', action: 'changed outside any call: src/late.ts' }]);
      expect(readFileSync(join(root, '.holdfast', 'sessions', 's1.outside'), 'utf8')).toMatch(/^[0-9a-f]{64}\n\["src\/late\.ts"\]\n$/);
      expect(loadFlagged(root, 's1')).toEqual(['src/late.ts']);
    });

    it("puts back a session's own file that something else rewrote against a rule between its calls", async () => {
      const root = repository();
      expect((await afterScript(root, 'true')).stdout).toBe('');
      writeFileSync(join(root, 'src', 'cart.ts'), 'export const total = 2;\n');
      saveSessionState(root, 's1', { version: 1, created: [], changed: ['src/cart.ts'], runs: [] });
      writeFileSync(join(root, 'src', 'cart.ts'), 'export const total = 2;\nconsole.log(total);\n');
      beforeShellCall(root, 's1', 'toolu_2', NOW);
      const reason = blockReason((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_2'), options({ judge: sessionJudge() }))).stdout);
      expect(reason).toMatch(/src\/cart\.ts: restored to its content at the last check \(this session had written it.*R4 NOLOG/);
      expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 1;\n');
      expect(audit(root)).toMatchObject([{ decision: 'reverted', rule: 'R4', action: 'changed outside any call: src/cart.ts' }]);
    });

    it('reports, without refusing, a file something else changed within the rules', async () => {
      const root = repository();
      expect((await afterScript(root, 'true')).stdout).toBe('');
      writeFileSync(join(root, 'src', 'cart.test.ts'), 'export {};\n// edited by a person\n');
      beforeShellCall(root, 's1', 'toolu_2', NOW);
      const reason = blockReason((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_2'), options({ judge: sessionJudge() }))).stdout);
      expect(reason).toMatch(/no call of this session made the change: src\/cart\.test\.ts\. .*no rule refuses them/);
      expect(audit(root)).toMatchObject([{ decision: 'observed', rule: 'INTERNAL', name: 'OUTSIDE' }]);
    });

    it('says nothing at the next shell call of what the gate itself put back (issue 44: it read as a change no call made)', async () => {
      const root = repository();
      mkdirSync(join(root, '.gemini'), { recursive: true });
      writeFileSync(join(root, '.gemini', 'settings.json'), '{"hooks":{"BeforeTool":[]}}\n');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'gate settings');
      expect((await afterScript(root, 'true')).stdout).toBe('');
      beforeShellCall(root, 's1', 'toolu_2', NOW);
      run(root, `printf 'console.log(1);\\n' >> src/cart.ts && printf 'console.log(2);\\n' > src/new.ts && printf '{}\\n' > .gemini/settings.json`);
      const putBack = blockReason((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_2'), options({ judge: sessionJudge() }))).stdout);
      expect(putBack).toMatch(/src\/cart\.ts: restored.*src\/new\.ts: deleted.*\.gemini\/settings\.json: restored/s);
      beforeShellCall(root, 's1', 'toolu_3', NOW);
      expect((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_3'), options({ judge: sessionJudge() }))).stdout).toBe('');
      expect(audit(root).filter((entry) => entry.action.startsWith('changed outside any call'))).toEqual([]);
    });

    it('reads the paths it put back literally: a put-back name that is also a glob does not hide another file changed between calls', async () => {
      const root = repository();
      expect((await afterScript(root, 'true')).stdout).toBe('');
      writeFileSync(join(root, 'src', 'cart.test.ts'), 'export {};\n// edited by a person\n');
      // As after the put-back of a file named `src/[c]art.test.ts`: as a glob it names src/cart.test.ts.
      followPutBack(root, ['src/[c]art.test.ts']);
      beforeShellCall(root, 's1', 'toolu_2', NOW);
      const reason = blockReason((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_2'), options({ judge: sessionJudge() }))).stdout);
      expect(reason).toMatch(/no call of this session made the change: src\/cart\.test\.ts\./);
    });

    it("says nothing of a file the session's own tools wrote between its shell calls, nor when nothing changed", async () => {
      const root = repository();
      expect((await afterScript(root, 'true')).stdout).toBe('');
      writeFileSync(join(root, 'src', 'made.ts'), 'export const made = 1;\n');
      saveSessionState(root, 's1', { version: 1, created: ['src/made.ts'], runs: [] });
      beforeShellCall(root, 's1', 'toolu_2', NOW);
      expect((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_2'), options({ judge: sessionJudge() }))).stdout).toBe('');
      beforeShellCall(root, 's1', 'toolu_3', NOW);
      expect((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_3'), options({ judge: sessionJudge() }))).stdout).toBe('');
    });
  });

  it("puts back a command's rewrite of OpenCode's plugin and settings as GATE TAMPER, whatever the rulebook's scope says (issue 44), not OpenCode's own package install", async () => {
    const root = repository();
    mkdirSync(join(root, '.opencode', 'plugin'), { recursive: true });
    const plugin = 'export const HoldfastGate = async () => ({ gated: true });\n';
    writeFileSync(join(root, '.opencode', 'plugin', 'holdfast-gate.js'), plugin);
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'gate plugin');
    const noScope: Rulebook = { ...rulebook, rules: rulebook.rules.filter((rule) => rule.check.kind !== 'scope') };
    const unscoped = checkChangesWith({ rulebook: noScope, checkActions, replay: () => ({ actions: [], observed: new Map() }) });
    const answer = await afterScript(
      root,
      `printf 'export const HoldfastGate = async () => ({});\\n' > .opencode/plugin/holdfast-gate.js && printf '{"plugin":[]}\\n' > opencode.json && printf '{}\\n' > .opencode/package.json`,
      { judge: unscoped },
    );
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/\.opencode\/plugin\/holdfast-gate\.js: restored to its content before the command\. GATE TAMPER/);
    expect(reason).toMatch(/opencode\.json: deleted \(the command created it\)\. GATE TAMPER/);
    expect(reason).toContain('Kept (no rule refused them): .opencode/package.json.');
    expect(readFileSync(join(root, '.opencode', 'plugin', 'holdfast-gate.js'), 'utf8')).toBe(plugin);
    expect(existsSync(join(root, 'opencode.json'))).toBe(false);
    expect(readFileSync(join(root, '.opencode', 'package.json'), 'utf8')).toBe('{}\n');
  });

  it('works in a folder that is not a git repository', async () => {
    const root = folder();
    const answer = await afterScript(root, `printf 'console.log(1);\\n' >> src/cart.ts && printf 'export const ok = 1;\\n' > src/cart.test.ts`);
    expect(blockReason(answer.stdout)).toMatch(/src\/cart\.ts: restored .*R4 NOLOG/);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 1;\n');
    expect(readFileSync(join(root, 'src', 'cart.test.ts'), 'utf8')).toBe('export const ok = 1;\n');
  });

  it('reports a shell call with no snapshot before it, and audits it', async () => {
    const root = repository();
    const answer = await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_missing'), options());
    expect(blockReason(answer.stdout)).toMatch(/could not check what this command changed \(the gate's snapshot store .* is missing/);
    expect(audit(root)).toMatchObject([{ decision: 'deny', rule: 'INTERNAL', name: 'UNCHECKED' }]);
    const other = await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_read', 'PostToolUse', 'Read'), options());
    expect(other.stdout).toBe('');
    beforeShellCall(root, 's1', 'toolu_other', NOW);
    const unpaired = await answerPostToolUse('codex', postEvent(root, 's1', 'toolu_missing'), options());
    expect(blockReason(unpaired.stdout)).toMatch(/could not check what this command changed \(no snapshot was taken before it ran\)/);
  });

  it('reports a command that removed the snapshot store, and never says how to switch the gate off', async () => {
    const root = repository();
    const answer = await afterScript(root, `rm -rf .holdfast/snapshots.git && printf 'console.log(1);\\n' > src/cart.ts`);
    const reason = blockReason(answer.stdout);
    expect(reason).toMatch(/snapshot store .* is missing: no snapshot was taken before it ran, or it removed the store/);
    expect(reason).not.toMatch(/HOLDFAST_GATE|bypass|switch|disable/i);
    expect(audit(root)).toMatchObject([{ decision: 'deny', rule: 'INTERNAL', name: 'UNCHECKED' }]);
  });

  it('keeps overlapping calls of one session apart by tool_use_id, and pairs calls without one in order', async () => {
    const root = repository();
    beforeShellCall(root, 's1', 'toolu_a', NOW);
    run(root, `printf 'console.log(1);\\n' > src/a.test.ts`);
    beforeShellCall(root, 's1', 'toolu_b', NOW);
    run(root, `printf 'export const b = 1;\\n' > src/b.test.ts`);
    const second = await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_b'), options());
    expect(second.stdout).toBe('');
    const first = await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_a'), options());
    expect(blockReason(first.stdout)).toMatch(/src\/a\.test\.ts: deleted .*R4 NOLOG/);
    expect(existsSync(join(root, 'src', 'b.test.ts'))).toBe(true);

    beforeShellCall(root, 's2', undefined, NOW);
    run(root, `printf 'console.log(2);\\n' > src/c.test.ts`);
    beforeShellCall(root, 's2', undefined, NOW);
    const unpaired = await answerPostToolUse('codex', postEvent(root, 's2', undefined), options());
    expect(blockReason(unpaired.stdout)).toMatch(/src\/c\.test\.ts: deleted/);
    expect((await answerPostToolUse('codex', postEvent(root, 's2', undefined), options())).stdout).toBe('');
  });

  it('does not undo a revert the gate made for an overlapping call', async () => {
    const root = repository();
    beforeShellCall(root, 's1', 'toolu_a', NOW);
    run(root, 'mkdir -p docs && echo notes > docs/notes.md');
    beforeShellCall(root, 's1', 'toolu_b', NOW);
    const first = await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_a'), options());
    expect(blockReason(first.stdout)).toMatch(/docs\/notes\.md: deleted/);
    const second = await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_b'), options());
    expect(second.stdout).toBe('');
    expect(existsSync(join(root, 'docs', 'notes.md'))).toBe(false);
  });

  it('answers Claude Code PostToolUseFailure (a command that exited non-zero) with context, still putting changes back', async () => {
    const root = repository();
    beforeShellCall(root, 's1', 'toolu_1', NOW);
    run(root, `printf 'console.log(1);\\n' > src/cart.ts || true`);
    const answer = await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_1', 'PostToolUseFailure'), options());
    const output = JSON.parse(answer.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(output.hookSpecificOutput.hookEventName).toBe('PostToolUseFailure');
    expect(output.hookSpecificOutput.additionalContext).toMatch(/src\/cart\.ts: restored/);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 1;\n');
  });

  it('in observe mode records what it would put back and changes nothing', async () => {
    const root = repository();
    const answer = await afterScript(root, `printf 'console.log(1);\\n' > src/cart.ts`, { observe: true });
    expect(answer.stdout).toBe('');
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('console.log(1);\n');
    expect(audit(root)).toMatchObject([{ decision: 'deny', rule: 'R4', detail: expect.stringContaining('observe mode: left in place') }]);
  });
});

describe('the same decisions on a 20,000-file tree (issue 47: what a check reads follows the call, not the tree)', () => {
  /** The repository of the other tests, with `extra` more tracked files in folders of 100 under lib/ and src/. */
  function repositoryOf(extra: number): string {
    const root = repository();
    for (let index = 0; index < extra; index += 1) {
      const at = index % 2 === 0 ? join(root, 'lib', `part-${Math.floor(index / 200)}`) : join(root, 'src', `part-${Math.floor(index / 200)}`);
      if (index % 200 < 2) mkdirSync(at, { recursive: true });
      writeFileSync(join(at, `module-${index}.ts`), `export const value${index} = ${index};\n`);
    }
    if (extra === 0) return root;
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'many files');
    return root;
  }

  const SCRIPTS = [
    `printf 'export const total = 1;\\nconsole.log(total);\\n' > src/cart.ts && mkdir -p config && printf '{"aws":"${awsKeyId}"}\\n' > config/keys.json`,
    'mkdir -p docs && echo notes > docs/notes.md && rm README.md && printf "export const tax = 2;\\n" > src/tax.ts',
    `printf 'export {};\\n// more cases\\n' > src/cart.test.ts && ln -s .. src/up`,
    'true',
  ];

  /** Every call's answer (the tree's own folder name taken out) and the files it left, for one tree. */
  async function decisionsOn(root: string): Promise<unknown[]> {
    const seen: unknown[] = [];
    for (const [index, script] of SCRIPTS.entries()) {
      const id = `toolu_size_${index}`;
      beforeShellCall(root, 's1', id, NOW);
      run(root, script);
      const answer = await answerPostToolUse('claude-code', postEvent(root, 's1', id), options());
      seen.push({ exitCode: answer.exitCode, stdout: answer.stdout.split(root).join('<root>') });
    }
    seen.push(git(root, 'status', '--porcelain', '--untracked-files=all'));
    seen.push(audit(root).map((entry) => ({ ...entry, detail: entry.detail.split(root).join('<root>') })));
    return seen;
  }

  it('puts back, keeps and reports the same changes as on a small tree', async () => {
    const small = await decisionsOn(repositoryOf(0));
    const large = await decisionsOn(repositoryOf(20_000));
    expect(large).toEqual(small);
    // The cases do decide something: content refused, a file outside the allowed area deleted, another restored.
    expect(JSON.stringify(small)).toMatch(/R4 NOLOG[\s\S]*R1 SECRET[\s\S]*R2 SCOPE/);
    expect(JSON.stringify(small)).toMatch(/README\.md: restored/);
  });
});

describe('a call whose check did not finish (issue 46)', () => {
  const failing: ChangeCheck = () => Promise.reject(new Error('ENOSPC: no space left on device, write'));

  it('keeps a call whose check failed open, and the next call of the session judges it first against its own snapshot', async () => {
    const root = repository();
    const first = await afterScript(root, `printf 'console.log(1);\\n' > src/cart.ts`, { judge: failing });
    expect(blockReason(first.stdout)).toMatch(
      /could not check what this command changed \(the check after it failed: ENOSPC.*judges it again at the next tool call/,
    );
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('console.log(1);\n');
    // The next call's snapshot is taken with the violation in place; only the first call's snapshot shows it.
    beforeShellCall(root, 's1', 'toolu_2', NOW);
    const next = await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_2'), options());
    const reason = blockReason(next.stdout);
    expect(reason).toMatch(/^holdfast gate: the check after an earlier command of this session did not finish/);
    expect(reason).toMatch(/src\/cart\.ts: restored to its content before the command\. R4 NOLOG/);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 1;\n');
    expect(audit(root).filter((entry) => entry.decision === 'reverted')).toMatchObject([{ rule: 'R4', action: expect.stringMatching(/^write src\/cart\.ts/) }]);
    // Judged once: the call after that has nothing left to finish.
    beforeShellCall(root, 's1', 'toolu_3', NOW);
    expect((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_3'), options())).stdout).toBe('');
  });

  it("judges a call whose checking process is gone (killed), but not one whose check still runs, nor another session's", async () => {
    const root = repository();
    beforeShellCall(root, 's1', 'toolu_1', NOW);
    run(root, `printf 'console.log(1);\\n' > src/cart.ts`);
    const open = findSnapshotRecord(root, 's1', 'toolu_1');
    // This process checks it: a call of the same session beside it leaves it alone.
    open?.checking();
    beforeShellCall(root, 's1', 'toolu_2', NOW);
    expect((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_2'), options())).stdout).toBe('');
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('console.log(1);\n');
    // The checking process was killed: its mark names a process that is gone.
    const gone = spawnSync('true').pid;
    for (const mark of marksOf(root)) writeFileSync(mark, `${JSON.stringify({ session: 's1', pid: gone, time: NOW().toISOString() })}\n`);
    beforeShellCall(root, 's2', 'toolu_9', NOW);
    expect((await answerPostToolUse('claude-code', postEvent(root, 's2', 'toolu_9'), options())).stdout).toBe('');
    beforeShellCall(root, 's1', 'toolu_3', NOW);
    const reason = blockReason((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_3'), options())).stdout);
    expect(reason).toMatch(/did not finish.*\n.*src\/cart\.ts: restored/s);
    expect(readFileSync(join(root, 'src', 'cart.ts'), 'utf8')).toBe('export const total = 1;\n');
  });

  it('gives a check that keeps failing up after three attempts, as unchecked, so the session is not refused for ever', async () => {
    const root = repository();
    await afterScript(root, `printf 'console.log(1);\\n' > src/cart.ts`, { judge: failing });
    for (const id of ['toolu_2', 'toolu_3']) {
      beforeShellCall(root, 's1', id, NOW);
      const answer = await answerPostToolUse('claude-code', postEvent(root, 's1', id), options({ judge: failing }));
      expect(blockReason(answer.stdout)).toMatch(/could not be finished now: ENOSPC/);
    }
    beforeShellCall(root, 's1', 'toolu_4', NOW);
    const last = blockReason((await answerPostToolUse('claude-code', postEvent(root, 's1', 'toolu_4'), options())).stdout);
    expect(last).toMatch(/failed 3 times; its changes were not judged\. Check with `git status`/);
    expect(audit(root).filter((entry) => entry.name === 'UNCHECKED').length).toBeGreaterThanOrEqual(4);
  });
});

/** The marks of calls under check, wherever they are kept (the mirror outside the project, or the store). */
function marksOf(root: string): string[] {
  const folders = [join(sessionMirrorFolder(root), 'calls'), join(root, '.holdfast', 'snapshots.git', 'calls')];
  return folders.flatMap((at) =>
    existsSync(at)
      ? readdirSync(at)
          .filter((name) => name.endsWith('.after'))
          .map((name) => join(at, name))
      : [],
  );
}
