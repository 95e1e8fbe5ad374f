import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookEntryPath } from '../exec/holdfast-installation.js';
import { installGate } from '../install/install.js';
import { commitFiles, git, gitRun, gitTestEnv, projectRepo, writeFiles } from '../test-support/git-repo.js';
import type { GitResult } from '../test-support/git-repo.js';
import { saveSessionState } from '../state/session-state.js';
import { beforeReadOnlyShellCall } from '../state/snapshot.js';
import { commitSkipsHooks } from './commit-origin.js';
import { workTreeIdentity } from '../state/tree-identity.js';

const LOGGED = 'export const orders = 1;\nconsole.log(orders);\n';
/** The environment of a shell Claude Code started: a commit made there is an agent's. */
const AGENT_SHELL = { CLAUDECODE: '1' };

/** git with what it printed either way (gitRun keeps stderr only on a failure; a hook's notes go there). */
function gitSaid(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = gitTestEnv()): GitResult {
  const result = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

interface World {
  readonly project: string;
  readonly remote: string;
  /** Another clone of the remote, where a violating branch `bad` was committed without any hook. */
  readonly other: string;
  readonly bad: string;
  /** A commit of the project's history (made before the gate) that removed a console.log again. */
  readonly fix: string;
}

/** A project with a bare remote on disk; `held` installs the git gate (pre-commit and reference-transaction). */
function world(held: boolean): World {
  const project = projectRepo();
  commitFiles(project, { 'src/orders.ts': LOGGED }, 'log (history, before the gate)');
  const fix = commitFiles(project, { 'src/orders.ts': 'export const orders = 1;\n' }, 'unlog');
  git(project, 'branch', 'topic');
  const remote = mkdtempSync(join(tmpdir(), 'holdfast-remote-'));
  git(remote, 'init', '-q', '--bare', '-b', 'main');
  git(project, 'remote', 'add', 'origin', remote);
  git(project, 'push', '-q', 'origin', 'main');
  const other = mkdtempSync(join(tmpdir(), 'holdfast-other-'));
  git(other, 'clone', '-q', remote, '.');
  git(other, 'checkout', '-q', '-b', 'bad');
  const bad = commitFiles(other, { 'src/orders.ts': LOGGED }, 'sneak a log in');
  git(other, 'push', '-q', 'origin', 'bad');
  if (held) installGate('git', project, { node: process.execPath, entry: hookEntryPath(), rulebook: 'holdfast/rulebook.yaml' });
  const fetched = gitRun(project, ['fetch', '-q', 'origin']);
  expect(fetched.stderr).toBe('');
  expect(fetched.status).toBe(0);
  return { project, remote, other, bad, fix };
}

function refValue(root: string, ref: string): string | undefined {
  const result = gitRun(root, ['rev-parse', '--verify', '-q', ref]);
  return result.status === 0 ? result.stdout.trim() : undefined;
}

interface Route {
  readonly name: string;
  /** The ref the route moves, in the project. */
  readonly ref: string;
  readonly run: (w: World) => GitResult;
  /** What is done before the ref's value is taken (nothing the gate judges). */
  readonly setup?: (w: World) => void;
  /** What the refusal names; R4 NOLOG (the console.log) unless said. */
  readonly refusal?: RegExp;
}

/** An agent's `git add -A && git commit --no-verify` of LOGGED in src/orders.ts, with `extra` files written first. */
function agentCommit(w: World, extra: Record<string, string> = {}): GitResult {
  writeFiles(w.project, { ...extra, 'src/orders.ts': LOGGED });
  git(w.project, 'add', '-A');
  return gitRun(w.project, ['commit', '-q', '--no-verify', '-m', 'skip the hooks'], { env: gitTestEnv(AGENT_SHELL) });
}

/** A symbolic link made only in the index (no link on disk), committed by an agent with --no-verify. */
function indexOnlyLink(w: World, path: string, target: string): GitResult {
  const blob = gitRun(w.project, ['hash-object', '-w', '--stdin'], { input: target }).stdout.trim();
  git(w.project, 'update-index', '--add', '--cacheinfo', `120000,${blob},${path}`);
  return gitRun(w.project, ['commit', '-q', '--no-verify', '-m', 'a link'], { env: gitTestEnv(AGENT_SHELL) });
}

/**
 * On `other`, a branch `spread` whose two commits are each clean on their own change (a module with
 * its test, then the test deleted) but together add a module without its test; fetched into the project.
 */
function spreadBranch(w: World): void {
  git(w.other, 'checkout', '-q', '-b', 'spread', 'origin/main');
  commitFiles(w.other, { 'src/pay.ts': 'export const pay = 1;\n', 'src/pay.test.ts': "import './pay';\n" }, 'pay with its test');
  git(w.other, 'rm', '-q', 'src/pay.test.ts');
  git(w.other, 'commit', '-q', '-m', 'drop the test');
  git(w.other, 'push', '-q', 'origin', 'spread');
  git(w.project, 'fetch', '-q', 'origin');
}

const ROUTES: readonly Route[] = [
  { name: 'merge (a merge commit)', ref: 'refs/heads/main', run: (w) => gitRun(w.project, ['merge', '--no-ff', '--no-edit', 'origin/bad']) },
  { name: 'merge (fast-forward)', ref: 'refs/heads/main', run: (w) => gitRun(w.project, ['merge', '--ff-only', 'origin/bad']) },
  { name: 'cherry-pick', ref: 'refs/heads/main', run: (w) => gitRun(w.project, ['cherry-pick', w.bad]) },
  {
    name: 'am',
    ref: 'refs/heads/main',
    run: (w) => gitRun(w.project, ['am', '-q'], { input: execFileSync('git', ['format-patch', '-1', '--stdout', w.bad], { cwd: w.other }).toString('utf8') }),
  },
  { name: 'revert (brings a removed log back)', ref: 'refs/heads/main', run: (w) => gitRun(w.project, ['revert', '--no-edit', w.fix]) },
  {
    name: 'rebase (onto a violating branch)',
    ref: 'refs/heads/topic',
    run: (w) => {
      git(w.project, 'checkout', '-q', 'topic');
      return gitRun(w.project, ['rebase', 'origin/bad']);
    },
  },
  { name: 'pull', ref: 'refs/heads/main', run: (w) => gitRun(w.project, ['pull', '-q', '--no-rebase', '--no-edit', 'origin', 'bad']) },
  {
    name: 'stash (refs/stash)',
    ref: 'refs/stash',
    run: (w) => {
      writeFiles(w.project, { 'src/orders.ts': LOGGED });
      return gitRun(w.project, ['stash', 'push', '-q']);
    },
  },
  { name: 'update-ref', ref: 'refs/heads/main', run: (w) => gitRun(w.project, ['update-ref', 'refs/heads/main', w.bad]) },
  {
    name: 'commit-tree + update-ref',
    ref: 'refs/heads/main',
    run: (w) => {
      writeFiles(w.project, { 'src/orders.ts': LOGGED });
      git(w.project, 'add', 'src/orders.ts');
      const tree = git(w.project, 'write-tree');
      const commit = git(w.project, 'commit-tree', tree, '-p', 'HEAD', '-m', 'plumbing');
      return gitRun(w.project, ['update-ref', 'refs/heads/main', commit]);
    },
  },
  {
    name: "commit --no-verify in an agent's shell",
    ref: 'refs/heads/main',
    run: (w) => {
      writeFiles(w.project, { 'src/orders.ts': LOGGED });
      return gitRun(w.project, ['commit', '-q', '--no-verify', '-am', 'skip the hooks'], { env: gitTestEnv(AGENT_SHELL) });
    },
  },
  { name: 'push into the repository', ref: 'refs/heads/side', run: (w) => gitRun(w.other, ['push', '-q', w.project, 'bad:refs/heads/side']) },
  // Issue 42, item 5: every ref, every namespace.
  { name: 'update-ref into a new namespace (refs/wip)', ref: 'refs/wip/x', run: (w) => gitRun(w.project, ['update-ref', 'refs/wip/x', w.bad]) },
  {
    name: 'a commit on a new namespace HEAD points at (refs/keep)',
    ref: 'refs/keep/x',
    setup: (w) => {
      git(w.project, 'update-ref', 'refs/keep/x', 'HEAD');
      git(w.project, 'symbolic-ref', 'HEAD', 'refs/keep/x');
    },
    run: (w) => agentCommit(w),
  },
  {
    name: 'a commit on a detached HEAD',
    ref: 'HEAD',
    setup: (w) => git(w.project, 'checkout', '-q', '--detach'),
    run: (w) => agentCommit(w),
  },
  {
    name: 'a commit on a remote-tracking ref HEAD points at',
    ref: 'refs/remotes/origin/main',
    setup: (w) => git(w.project, 'symbolic-ref', 'HEAD', 'refs/remotes/origin/main'),
    run: (w) => agentCommit(w),
  },
  {
    name: 'a branch made where HEAD points at a remote-tracking ref (git symbolic-ref runs no hook)',
    ref: 'refs/heads/keep',
    setup: (w) => git(w.project, 'symbolic-ref', 'HEAD', 'refs/remotes/origin/bad'),
    run: (w) => gitRun(w.project, ['update-ref', 'refs/heads/keep', 'HEAD']),
  },
  {
    name: 'a merge from refs/remotes whose commits are each clean but together add a module without its test',
    ref: 'refs/heads/main',
    run: (w) => {
      spreadBranch(w);
      return gitRun(w.project, ['merge', '--no-ff', '--no-edit', 'origin/spread']);
    },
    refusal: /commit [0-9a-f]{12} "Merge [^"]*":\n {4}R3 /,
  },
  {
    name: 'a file working-tree-encoding=UTF-16LE makes git store as noise',
    ref: 'refs/heads/main',
    // Only the file the route writes: git cannot re-encode src/orders.test.ts (an odd number of bytes), and re-reads it
    // when the index holds it racily clean (written in the same second), which a fast machine does.
    run: (w) => agentCommit(w, { '.gitattributes': 'src/orders.ts working-tree-encoding=UTF-16LE\n' }),
    // R2 refuses the .gitattributes too: the console.log must be found in the file git stored as noise
    refusal: /R4 NOLOG: write to "src\/orders\.ts" adds a console\.log call/,
  },
  {
    name: 'a link into .git/ made only in the index',
    ref: 'refs/heads/main',
    run: (w) => indexOnlyLink(w, 'src/hook', '../.git/hooks/pre-commit'),
    refusal: /GATE LINK: src\/hook is a symbolic link to "\.\.\/\.git\/hooks\/pre-commit", which points into \.git\//,
  },
  {
    name: 'a link out of the repository made only in the index',
    ref: 'refs/heads/main',
    run: (w) => indexOnlyLink(w, 'src/passwd', '/etc/passwd'),
    refusal: /GATE LINK: src\/passwd is a symbolic link to "\/etc\/passwd", outside the repository/,
  },
];

describe('reference-transaction hook: every route that moves a ref to a violating commit', () => {
  for (const route of ROUTES) {
    it(`${route.name}: refused with the hook (the ref stays), lands in the told control`, () => {
      const told = world(false);
      route.setup?.(told);
      const toldBefore = refValue(told.project, route.ref);
      const landed = route.run(told);
      expect(landed.status, landed.stderr).toBe(0);
      expect(refValue(told.project, route.ref)).not.toBe(toldBefore);

      const held = world(true);
      route.setup?.(held);
      const before = refValue(held.project, route.ref);
      const refused = route.run(held);
      expect(refused.status).not.toBe(0);
      expect(refValue(held.project, route.ref)).toBe(before);
      expect(refused.stderr).toMatch(/holdfast: ref update refused/);
      expect(refused.stderr).toMatch(route.refusal ?? /commit [0-9a-f]{12} ".+":\n {4}R4 NOLOG: /);
      const audit = readFileSync(join(held.project, '.holdfast', 'audit.jsonl'), 'utf8');
      expect(audit).toMatch(/"tool":"reference-transaction".*"decision":"deny"/);
    });
  }
});

describe('reference-transaction hook: replace refs are refused outright', () => {
  it('a replace of a clean blob by a violating one (no commit to judge) and of a clean commit: refused with the hook, landed in the told control', () => {
    const replaceBoth = (w: World): { blob: GitResult; commit: GitResult; clean: string } => {
      const clean = git(w.project, 'rev-parse', 'HEAD:src/orders.ts');
      const dirty = gitRun(w.project, ['hash-object', '-w', '--stdin'], { input: LOGGED }).stdout.trim();
      return { blob: gitRun(w.project, ['replace', clean, dirty]), commit: gitRun(w.project, ['replace', 'HEAD', w.bad]), clean };
    };
    const told = world(false);
    const landed = replaceBoth(told);
    expect(landed.blob.status, landed.blob.stderr).toBe(0);
    expect(landed.commit.status, landed.commit.stderr).toBe(0);
    // what every later git reads in place of the clean file: the log
    expect(git(told.project, 'show', 'HEAD:src/orders.ts')).toMatch(/console\.log/);

    const held = world(true);
    const refused = replaceBoth(held);
    for (const attempt of [refused.blob, refused.commit]) {
      expect(attempt.status).not.toBe(0);
      expect(attempt.stderr).toMatch(/GATE REPLACE: refs\/replace\/[0-9a-f]{40} would make git read another object/);
    }
    expect(git(held.project, 'for-each-ref', 'refs/replace/')).toBe('');
    expect(git(held.project, 'show', 'HEAD:src/orders.ts')).not.toMatch(/console\.log/);
  });
});

describe('reference-transaction hook: what it lets through', () => {
  it('a clean commit, a fetch, a new branch at a known commit, a checkout, a reset and a branch deletion', () => {
    const w = world(true);
    commitFiles(w.project, { 'src/billing.ts': 'export const billing = 1;\n', 'src/billing.test.ts': "import './billing';\n" }, 'billing');
    expect(git(w.project, 'log', '-1', '--format=%s')).toBe('billing');
    git(w.project, 'branch', 'copy', 'HEAD~1');
    git(w.project, 'checkout', '-q', 'copy');
    git(w.project, 'reset', '-q', '--hard', 'HEAD~1');
    git(w.project, 'checkout', '-q', 'main');
    git(w.project, 'branch', '-D', 'copy');
    // a remote-tracking ref is a copy of someone else's work: fetched, not judged, until a branch of ours reaches it
    expect(refValue(w.project, 'refs/remotes/origin/bad')).toBe(w.bad);
    git(w.project, 'branch', '-f', 'topic', 'main');
    expect(refValue(w.project, 'refs/heads/topic')).toBe(refValue(w.project, 'refs/heads/main'));
  });

  it('keeps stdin for a hook already there: that hook still runs after ours, with the same updates', () => {
    const project = projectRepo();
    const hook = join(project, '.git', 'hooks', 'reference-transaction');
    writeFileSync(hook, `#!/bin/sh\ncat >> "${join(project, 'theirs.log')}"\n`, { mode: 0o755 });
    installGate('git', project, { node: process.execPath, entry: hookEntryPath(), rulebook: 'holdfast/rulebook.yaml' });
    expect(readFileSync(hook, 'utf8')).toMatch(/^#!\/bin\/sh\n# >>> holdfast gate >>>[\s\S]*# <<< holdfast gate <<<\ncat >> /);
    git(project, 'branch', 'other');
    expect(readFileSync(join(project, 'theirs.log'), 'utf8')).toMatch(/^0{40} [0-9a-f]{40} refs\/heads\/other$/m);
  });
});

describe("reference-transaction hook: a person's --no-verify, as the rulebook says", () => {
  it("lets a person's commit --no-verify through unjudged by default, and judges it when the rulebook says personNoVerify: judge", () => {
    const project = projectRepo();
    installGate('git', project, { node: process.execPath, entry: hookEntryPath(), rulebook: 'holdfast/rulebook.yaml' });
    writeFiles(project, { 'src/orders.ts': LOGGED });
    const honoured = gitSaid(project, ['commit', '-q', '--no-verify', '-am', 'flaky hook, skipped']);
    expect(honoured.status, honoured.stderr).toBe(0);
    expect(honoured.stderr).toMatch(
      /a person's `git commit --no-verify` \([0-9a-f]{12}\), made outside any agent tool call, is let through unjudged: the rulebook's git.personNoVerify is honour/,
    );
    expect(git(project, 'log', '-1', '--format=%s')).toBe('flaky hook, skipped');
    const rulebook = join(project, 'holdfast', 'rulebook.yaml');
    writeFileSync(rulebook, `${readFileSync(rulebook, 'utf8')}git:\n  personNoVerify: judge\n`);
    writeFiles(project, { 'src/orders.ts': `${LOGGED}console.log(2);\n` });
    const before = refValue(project, 'HEAD');
    const judged = gitSaid(project, ['commit', '-q', '--no-verify', '-am', 'judged']);
    expect(judged.status).not.toBe(0);
    expect(judged.stderr).toMatch(/R4 NOLOG/);
    expect(refValue(project, 'HEAD')).toBe(before);
  });

  it("judges a person's commit -n while an agent's tool call is under way: the call's open record marks it", () => {
    const project = projectRepo();
    installGate('git', project, { node: process.execPath, entry: hookEntryPath(), rulebook: 'holdfast/rulebook.yaml' });
    beforeReadOnlyShellCall(project, 'agent-under-way', 'call-1');
    writeFiles(project, { 'src/orders.ts': LOGGED });
    const before = refValue(project, 'HEAD');
    const during = gitSaid(project, ['commit', '-qanm', 'during an agent call']);
    expect(during.status).not.toBe(0);
    expect(during.stderr).toMatch(/R4 NOLOG/);
    expect(refValue(project, 'HEAD')).toBe(before);
  });

  it("judges a person's commit after an agent session by the content rules only, with the hooks on", () => {
    const project = projectRepo();
    installGate('git', project, { node: process.execPath, entry: hookEntryPath(), rulebook: 'holdfast/rulebook.yaml' });
    saveSessionState(project, 'agent', { version: 1, created: [], runs: [{ cmd: 'npm test', tree: workTreeIdentity(project) }] });
    writeFiles(project, { 'README.md': 'By hand.\n', 'src/orders.ts': 'export const orders = 4;\n' });
    const person = gitSaid(project, ['commit', '-q', '-am', 'by hand']);
    expect(person.status, person.stderr).toBe(0);
    expect(person.stderr).toMatch(/R6 ORDER not judged: this commit was made outside any agent tool call/);
  });

  it("reads --no-verify from git's command line as git does", () => {
    expect(commitSkipsHooks(['git', 'commit', '--no-verify', '-m', 'x'])).toBe(true);
    expect(commitSkipsHooks(['git', '-c', 'a.b=c', '-C', 'dir', 'commit', '-anm', 'x'])).toBe(true);
    expect(commitSkipsHooks(['git', 'commit', '-m', '-n'])).toBe(false);
    expect(commitSkipsHooks(['git', 'commit', '-mn'])).toBe(false);
    expect(commitSkipsHooks(['git', 'commit', '--message', '--no-verify'])).toBe(false);
    expect(commitSkipsHooks(['git', 'commit', '-n', '--verify', '-m', 'x'])).toBe(false);
    expect(commitSkipsHooks(['git', 'commit', '--', '--no-verify'])).toBe(false);
    expect(commitSkipsHooks(['git', 'merge', '--no-verify', 'topic'])).toBe(false);
  });
});

describe('reference-transaction hook: order and requires rules on a commit made here', () => {
  it('refuses a --no-verify commit of a tree the tests did not pass on, and lets the tested tree through', () => {
    const project = projectRepo();
    installGate('git', project, { node: process.execPath, entry: hookEntryPath(), rulebook: 'holdfast/rulebook.yaml' });
    const tested = () => saveSessionState(project, 'agent', { version: 1, created: [], runs: [{ cmd: 'npm test', tree: workTreeIdentity(project) }] });
    writeFiles(project, { 'src/orders.ts': 'export const orders = 2;\n' });
    git(project, 'add', '-A');
    tested();
    const agent = gitTestEnv(AGENT_SHELL);
    const allowed = gitRun(project, ['commit', '-q', '--no-verify', '-m', 'tested'], { env: agent });
    expect(allowed.stderr).toBe('');
    expect(git(project, 'log', '-1', '--format=%s')).toBe('tested');
    writeFiles(project, { 'src/orders.ts': 'export const orders = 3;\n' });
    const before = refValue(project, 'HEAD');
    const refused = gitRun(project, ['commit', '-q', '--no-verify', '-am', 'untested'], { env: agent });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/R6 ORDER: .*passed on another tree than the one being committed/);
    expect(refValue(project, 'HEAD')).toBe(before);
    tested();
    expect(gitRun(project, ['commit', '-q', '--no-verify', '-am', 'tested again'], { env: agent }).status).toBe(0);
    expect(git(project, 'log', '-1', '--format=%s')).toBe('tested again');
  });

  it('leaves a commit brought from elsewhere to the content rules: a fetched clean commit merged by fast-forward', () => {
    const w = world(true);
    saveSessionState(w.project, 'agent', { version: 1, created: [], runs: [{ cmd: 'npm test', tree: workTreeIdentity(w.project) }] });
    git(w.other, 'checkout', '-q', 'main');
    const clean = commitFiles(w.other, { 'src/billing.ts': 'export const billing = 1;\n', 'src/billing.test.ts': "import './billing';\n" }, 'billing');
    git(w.other, 'push', '-q', 'origin', 'main');
    git(w.project, 'fetch', '-q', 'origin');
    const merged = gitRun(w.project, ['merge', '-q', '--ff-only', 'origin/main'], { env: gitTestEnv() });
    expect(merged.stderr).toBe('');
    expect(refValue(w.project, 'refs/heads/main')).toBe(clean);
  });
});

describe('reference-transaction hook without holdfast', () => {
  it('refuses a ref update that brings a new commit when the hook entry is gone, and says how to reinstall', () => {
    const project = projectRepo();
    installGate('git', project, { node: process.execPath, entry: join(project, 'gone', 'hook.cjs'), rulebook: undefined });
    writeFiles(project, { 'src/orders.ts': 'export const orders = 2;\n' });
    const before = refValue(project, 'HEAD');
    const result = gitRun(project, ['commit', '-q', '--no-verify', '-am', 'x'], { env: gitTestEnv() });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/cannot judge this ref update: .* is missing.*holdfast install git/);
    expect(refValue(project, 'HEAD')).toBe(before);
  });
});
