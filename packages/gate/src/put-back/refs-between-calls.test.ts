import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../decide/audit.js';
import type { HookAnswer } from '../decide/hook-answer.js';
import { loadRulesEngine } from '../decide/rules-engine.js';
import { hookEntryPath } from '../exec/holdfast-installation.js';
import { installGate } from '../install/install.js';
import { answerAgentHook } from '../hook/run-hook.js';
import { git, gitRun, gitTestEnv, projectRepo, writeFiles } from '../test-support/git-repo.js';
import { claude } from '../test-support/payloads.js';

const LOGGED = 'export const orders = 1;\nconsole.log(orders);\n';
const CLEAN = 'export const orders = 2;\n';
const T0 = new Date('2026-12-07T09:00:00.000Z');

/** The agent's next call (a read-only one): the event at which refs moved since the last one are judged. */
async function nextCall(root: string, observe = false): Promise<HookAnswer> {
  return answerAgentHook('claude-code', claude.bash(root, 's1', 'ls'), {
    env: {},
    now: () => T0,
    rulebookFile: 'holdfast/rulebook.yaml',
    loadEngine: loadRulesEngine,
    caseInsensitive: false,
    ...(observe ? { observe: true } : {}),
  });
}

function denial(answer: HookAnswer): string | undefined {
  if (answer.stdout === '') return undefined;
  return (JSON.parse(answer.stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
}

function auditLog(root: string): AuditEntry[] {
  const path = join(root, '.holdfast', 'audit.jsonl');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as AuditEntry);
}

function refValue(root: string, ref: string): string | undefined {
  const result = gitRun(root, ['rev-parse', '--verify', '-q', ref]);
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * A commit on top of HEAD that no ref holds, made with git's plumbing (no ref update, so no hook sees
 * it): what a process could point a ref file at.
 */
function looseCommit(root: string, files: Record<string, string | Buffer>, message: string): string {
  const env = gitTestEnv({ GIT_INDEX_FILE: join(mkdtempSync(join(tmpdir(), 'holdfast-index-')), 'index') });
  const run = (args: string[], input?: string | Buffer) => {
    const result = gitRun(root, args, { env, ...(input === undefined ? {} : { input }) });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout.trim();
  };
  run(['read-tree', 'HEAD']);
  for (const [path, content] of Object.entries(files))
    run(['update-index', '--add', '--cacheinfo', `100644,${run(['hash-object', '-w', '--stdin'], content)},${path}`]);
  return run(['commit-tree', run(['write-tree']), '-p', 'HEAD', '-m', message]);
}

/** A repository whose refs the gate has seen once (the first event takes them as they are). */
async function seen(): Promise<{ root: string; base: string }> {
  const root = projectRepo('holdfast-refs-between-');
  const base = git(root, 'rev-parse', 'HEAD');
  expect(denial(await nextCall(root))).toBeUndefined();
  return { root, base };
}

describe('refs moved outside git between calls', () => {
  it('a ref file written directly onto a commit that breaks a rule is put back at the next call, which names it; a clean direct move stays', async () => {
    const root = projectRepo('holdfast-refs-between-');
    const base = git(root, 'rev-parse', 'HEAD');
    const bad = looseCommit(root, { 'src/orders.ts': LOGGED }, 'sneak a log in');
    const clean = looseCommit(root, { 'src/orders.ts': CLEAN }, 'two orders');
    // A colleague's branch fetched into refs/remotes holds the bad commit: remote-tracking refs stay open.
    git(root, 'update-ref', 'refs/remotes/origin/main', bad);
    expect(denial(await nextCall(root))).toBeUndefined();

    writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), `${bad}\n`);
    const reason = denial(await nextCall(root));
    expect(reason).toMatch(/GATE REF: refs changed while no tool call was running/);
    expect(reason).toContain(`refs/heads/main → ${bad.slice(0, 12)}: commit ${bad.slice(0, 12)} "sneak a log in" (R4 NOLOG`);
    expect(reason).toContain(`put back to ${base.slice(0, 12)}`);
    expect(refValue(root, 'refs/heads/main')).toBe(base);
    expect(refValue(root, 'refs/remotes/origin/main')).toBe(bad);
    expect(auditLog(root).at(-1)).toMatchObject({ rule: 'GATE', name: 'REF', decision: 'deny' });
    // Put back once: the next call goes ahead.
    expect(denial(await nextCall(root))).toBeUndefined();

    writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), `${clean}\n`);
    expect(denial(await nextCall(root))).toBeUndefined();
    expect(refValue(root, 'refs/heads/main')).toBe(clean);
  });

  it('a ref moved onto a commit that adds only a .gitattributes is judged on the files it re-encodes: a log stored as UTF-16 noise is put back', async () => {
    const root = projectRepo('holdfast-refs-between-');
    // Before the session: the log committed as UTF-16LE bytes, which no rule reads as a log.
    const noise = looseCommit(root, { 'src/orders.ts': Buffer.from(LOGGED, 'utf16le') }, 'orders, encoded');
    git(root, 'update-ref', 'refs/heads/main', noise);
    expect(denial(await nextCall(root))).toBeUndefined();
    // Between calls: a commit holding only the line that makes every checkout write the log as text.
    const decoding = looseCommit(root, { 'src/.gitattributes': '*.ts working-tree-encoding=UTF-16LE\n' }, 'attributes');
    writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), `${decoding}\n`);
    const reason = denial(await nextCall(root));
    expect(reason).toMatch(/GATE REF: refs changed while no tool call was running/);
    expect(reason).toContain(`commit ${decoding.slice(0, 12)} "attributes" (R4 NOLOG`);
    expect(refValue(root, 'refs/heads/main')).toBe(noise);
  });

  it('a new namespace with HEAD pointed at it, a packed ref and a replace ref written as files are put back', async () => {
    const { root, base } = await seen();
    const bad = looseCommit(root, { 'src/orders.ts': LOGGED }, 'keep a log');
    mkdirSync(join(root, '.git', 'refs', 'keep'), { recursive: true });
    writeFileSync(join(root, '.git', 'refs', 'keep', 'wip'), `${bad}\n`);
    writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/keep/wip\n');
    const packed = existsSync(join(root, '.git', 'packed-refs'))
      ? readFileSync(join(root, '.git', 'packed-refs'), 'utf8')
      : '# pack-refs with: peeled fully-peeled sorted \n';
    writeFileSync(join(root, '.git', 'packed-refs'), `${packed}${bad} refs/wip/later\n`);
    mkdirSync(join(root, '.git', 'refs', 'replace'), { recursive: true });
    writeFileSync(join(root, '.git', 'refs', 'replace', base), `${bad}\n`);

    const reason = denial(await nextCall(root));
    expect(reason).toContain('- refs/keep/wip →');
    expect(reason).toContain('- refs/wip/later →');
    expect(reason).toContain('- HEAD →');
    expect(reason).toContain(`- refs/replace/${base} → a replace ref`);
    expect(refValue(root, 'refs/keep/wip')).toBeUndefined();
    expect(refValue(root, 'refs/wip/later')).toBeUndefined();
    expect(existsSync(join(root, '.git', 'refs', 'replace', base))).toBe(false);
    expect(git(root, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(refValue(root, 'HEAD')).toBe(base);
  });

  it('observe mode reports the move once and moves nothing', async () => {
    const { root } = await seen();
    const bad = looseCommit(root, { 'src/orders.ts': LOGGED }, 'sneak a log in');
    writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), `${bad}\n`);
    expect(denial(await nextCall(root, true))).toBeUndefined();
    expect(refValue(root, 'refs/heads/main')).toBe(bad);
    expect(auditLog(root).filter((entry) => entry.name === 'REF')).toMatchObject([{ decision: 'observed' }]);
  });
});

/*
 * The git hooks run as their own processes, with the machine's seal home (this file's in-process hook has one
 * of its own, test/setup/seal-home.ts): here every event is a git hook's, so they share one baseline.
 */
describe('refs moved outside git, found by the git hooks', () => {
  function gitSaid(root: string, args: string[], env: NodeJS.ProcessEnv = gitTestEnv()) {
    return spawnSync('git', args, { cwd: root, env, encoding: 'utf8' });
  }

  /** A gated repository whose refs a person's first commit showed the gate. */
  function gated(): string {
    const root = projectRepo('holdfast-refs-git-');
    installGate('git', root, { node: process.execPath, entry: hookEntryPath(), rulebook: 'holdfast/rulebook.yaml' });
    writeFiles(root, { 'src/orders.ts': 'export const orders = 1;\n// first\n' });
    const first = gitSaid(root, ['commit', '-q', '-am', 'first']);
    expect(first.status, first.stderr).toBe(0);
    return root;
  }

  it("a person's next commit finds a ref written directly, puts it back and is refused; their own --no-verify commit is not put back later", () => {
    const root = gated();
    const base = git(root, 'rev-parse', 'HEAD');
    const bad = looseCommit(root, { 'src/orders.ts': LOGGED }, 'sneak a log in');
    writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), `${bad}\n`);
    writeFiles(root, { 'src/orders.ts': 'export const orders = 1;\n// reviewed\n' });
    const refused = gitSaid(root, ['commit', '-q', '-am', 'note']);
    expect(refused.status, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/holdfast: commit refused: refs were moved outside git/);
    expect(refused.stderr).toContain(`refs/heads/main → ${bad.slice(0, 12)}`);
    expect(refValue(root, 'refs/heads/main')).toBe(base);
    const made = gitSaid(root, ['commit', '-q', '-am', 'note']);
    expect(made.status, made.stderr).toBe(0);

    // A person's `git commit --no-verify` is let through by the reference-transaction hook (personNoVerify: honour):
    // the gate saw it, so the next commit leaves it where it is.
    writeFiles(root, { 'src/orders.ts': LOGGED });
    const honoured = gitSaid(root, ['commit', '-q', '--no-verify', '-am', 'flaky hook, skipped']);
    expect(honoured.status, honoured.stderr).toBe(0);
    const kept = git(root, 'rev-parse', 'HEAD');
    writeFiles(root, { 'src/orders.ts': 'export const orders = 1;\n' });
    const next = gitSaid(root, ['commit', '-q', '-am', 'unlog']);
    expect(next.status, next.stderr).toBe(0);
    expect(git(root, 'rev-parse', 'HEAD^')).toBe(kept);
  });

  it('a new ref HEAD was pointed at, put back by a transaction of another ref: HEAD goes back on its branch, never left on a ref that is gone', () => {
    const root = gated();
    const base = git(root, 'rev-parse', 'HEAD');
    const pointAtBad = (): string => {
      const bad = looseCommit(root, { 'src/orders.ts': LOGGED }, 'keep a log');
      mkdirSync(join(root, '.git', 'refs', 'wip'), { recursive: true });
      writeFileSync(join(root, '.git', 'refs', 'wip', 'x'), `${bad}\n`);
      writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/wip/x\n');
      return looseCommit(root, { 'src/orders.ts': CLEAN }, 'two orders');
    };
    // A transaction that holds another ref (and not HEAD) starts the gate: refs/wip/x is removed and HEAD is back on main.
    const refused = gitSaid(root, ['update-ref', 'refs/heads/topic', pointAtBad()]);
    expect(refused.status, refused.stderr).not.toBe(0);
    expect(refused.stderr).toMatch(/- refs\/wip\/x → .*put back to nothing/);
    expect(refValue(root, 'refs/wip/x')).toBeUndefined();
    expect(git(root, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    writeFiles(root, { 'src/notes.ts': 'export const notes = 1;\n', 'src/notes.test.ts': "import './notes';\n" });
    git(root, 'add', 'src');
    const next = gitSaid(root, ['commit', '-q', '-m', 'on top']);
    expect(next.status, next.stderr).toBe(0);
    expect(git(root, 'rev-parse', 'HEAD^')).toBe(base);

    // While git holds HEAD (its lock file is there), neither HEAD nor the ref it names can move: both are left as
    // they are (HEAD never names a ref that is gone), the transaction is refused, and the next event puts them back.
    const held = git(root, 'rev-parse', 'HEAD');
    const onTop = pointAtBad();
    const bad = git(root, 'rev-parse', 'refs/wip/x');
    writeFileSync(join(root, '.git', 'HEAD.lock'), 'ref: refs/heads/main\n');
    const whileHeld = gitSaid(root, ['update-ref', 'refs/heads/topic', onTop]);
    expect(whileHeld.status).not.toBe(0);
    expect(whileHeld.stderr).toMatch(/- refs\/wip\/x → .*left where it is/);
    expect(refValue(root, 'HEAD')).toBe(bad);
    rmSync(join(root, '.git', 'HEAD.lock'));
    const found = gitSaid(root, ['commit', '-q', '--allow-empty', '-m', 'on top again']);
    expect(found.status).toBe(1);
    expect(git(root, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(refValue(root, 'refs/wip/x')).toBeUndefined();
    const after = gitSaid(root, ['commit', '-q', '--allow-empty', '-m', 'on top again']);
    expect(after.status, after.stderr).toBe(0);
    expect(git(root, 'rev-parse', 'HEAD^')).toBe(held);
  });

  it('a ref written directly that a git transaction holds refuses the transaction', () => {
    const root = gated();
    const base = git(root, 'rev-parse', 'HEAD');
    const bad = looseCommit(root, { 'src/orders.ts': LOGGED }, 'sneak a log in');
    writeFileSync(join(root, '.git', 'refs', 'heads', 'main'), `${bad}\n`);
    // A commit with pre-commit skipped still runs the reference-transaction hook, which holds main's lock.
    writeFiles(root, { 'src/notes.ts': 'export const notes = 1;\n', 'src/notes.test.ts': "import './notes';\n" });
    git(root, 'add', 'src');
    const refused = gitSaid(root, ['commit', '-q', '--no-verify', '-m', 'on top']);
    expect(refused.status, refused.stderr).not.toBe(0);
    expect(refused.stderr).toMatch(/refs were moved outside git/);
    expect(refused.stderr).toMatch(/ref update refused: it would build on them/);
    expect(refValue(root, 'refs/heads/main')).toBe(bad);
    // A ref the transaction does not hold is put back by it: the same file written under refs/keep/.
    mkdirSync(join(root, '.git', 'refs', 'keep'), { recursive: true });
    writeFileSync(join(root, '.git', 'refs', 'keep', 'wip'), `${bad}\n`);
    const onTop = gitSaid(root, ['commit', '-q', '--no-verify', '-m', 'on top']);
    expect(onTop.stderr).toMatch(/refs were moved outside git/);
    expect(onTop.stderr).toContain(`- refs/keep/wip → ${bad.slice(0, 12)}`);
    expect(refValue(root, 'refs/keep/wip')).toBeUndefined();
    // main is still held by that commit's transaction: refused again, and left for the next event.
    expect(onTop.status).not.toBe(0);
    expect(refValue(root, 'refs/heads/main')).toBe(bad);
    // A branch made at a commit a ref already holds brings nothing new (git's hook lets it through without
    // starting holdfast); the next event finds both refs and puts both back.
    expect(gitSaid(root, ['branch', 'topic', 'main']).status).toBe(0);
    const next = gitSaid(root, ['commit', '-q', '-m', 'on top']);
    expect(next.status).toBe(1);
    expect(next.stderr).toContain(`- refs/heads/main → ${bad.slice(0, 12)}`);
    expect(next.stderr).toContain(`- refs/heads/topic → ${bad.slice(0, 12)}`);
    expect(refValue(root, 'refs/heads/main')).toBe(base);
    expect(refValue(root, 'refs/heads/topic')).toBeUndefined();
    const made = gitSaid(root, ['commit', '-q', '-m', 'on top']);
    expect(made.status, made.stderr).toBe(0);
    expect(git(root, 'rev-parse', 'HEAD^')).toBe(base);
  });
});
