import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findBubblewrap } from '@holdfast/gate';
import { SHIPPED_RULEBOOK } from '@holdfast/lab/test-support';
import { gitOut, makeRepo, settle } from './gate-guarantee-routes.js';

// Issue 27, the last clause: a program with no agent hooks under `holdfast exec` leaves no session
// record, so no pass of R6's command is recorded. The git hooks then ask the broker, which runs the
// required command itself on exactly the committed tree: the commit lands only if it exits 0 there.
// Without bubblewrap these tests do not run: install it (apt-get install bubblewrap).

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'holdfast.js');

/** The project's tests pass only while src/verdict.txt starts with "pass". */
const CHECK = "const text = require('node:fs').readFileSync('src/verdict.txt', 'utf8');\nprocess.exit(text.startsWith('pass') ? 0 : 1);\n";

function route(verdict: string, options: { testScript?: boolean; commit?: string } = {}) {
  const { repo } = makeRepo();
  const scripts = options.testScript === false ? {} : { test: 'node check.cjs' };
  writeFileSync(join(repo, 'package.json'), `${JSON.stringify({ name: 'rerun', private: true, scripts }, null, 2)}\n`);
  writeFileSync(join(repo, 'check.cjs'), CHECK);
  writeFileSync(join(repo, 'src', 'verdict.txt'), 'pass\n');
  execFileSync(process.execPath, [BIN, 'install', 'git', '--rulebook', SHIPPED_RULEBOOK], { cwd: repo, stdio: 'ignore' });
  const base = settle(repo, false);
  const commit = options.commit ?? 'git commit -qm change';
  const script = `printf '${verdict}\\n' > src/verdict.txt && git add -A && ${commit}`;
  const home = mkdtempSync(join(tmpdir(), 'holdfast-rerun-home-'));
  const ran = spawnSync(process.execPath, [BIN, 'exec', '--', 'sh', '-c', script], { cwd: repo, env: { ...process.env, HOME: home }, encoding: 'utf8' });
  return {
    repo,
    landed: gitOut(repo, 'rev-parse', 'HEAD').trim() !== base,
    log: gitOut(repo, 'log', '--format=%s'),
    output: `${ran.stdout}${ran.stderr}`,
    exit: ran.status,
  };
}

describe.runIf(findBubblewrap(process.env) !== undefined)('holdfast exec: a commit with no agent session (real git, real bubblewrap)', () => {
  it('the required command fails on the committed tree: the commit is refused for R6 and nothing lands', () => {
    const failing = route('fail');
    expect(failing.landed, failing.output).toBe(false);
    expect(failing.log).not.toMatch(/change/);
    expect(failing.output).toMatch(/R6/);
    expect(failing.output).toMatch(/ran `npm test` itself on the committed tree/);
    expect(failing.exit).not.toBe(0);
  });

  it('the required command passes on the committed tree: the commit lands', () => {
    const passing = route('pass, and changed');
    expect(passing.landed, passing.output).toBe(true);
    expect(passing.log).toMatch(/^change/);
  });

  it('fail closed: the required command cannot run (no test script) and the commit is refused', () => {
    const missing = route('pass, and changed', { testScript: false });
    expect(missing.landed, missing.output).toBe(false);
    expect(missing.output).toMatch(/R6/);
  });

  it('the reference-transaction hook re-runs it too: git commit --no-verify with failing tests moves no ref', () => {
    const skipped = route('fail', { commit: 'git commit --no-verify -qm change' });
    expect(skipped.landed, skipped.output).toBe(false);
    expect(skipped.output).toMatch(/R6/);
    const control = route('pass, and changed', { commit: 'git commit --no-verify -qm change' });
    expect(control.landed, control.output).toBe(true);
  });

  it('git commit -a: the broker judges the index git commits (a temporary one), not .git/index', () => {
    // .git/index holds a failing verdict; the work tree, which `commit -a` commits, a passing one.
    const all = route('fail', { commit: "printf 'pass, and changed\\n' > src/verdict.txt && git commit -a -qm change" });
    expect(all.landed, all.output).toBe(true);
    expect(gitOut(all.repo, 'show', 'HEAD:src/verdict.txt')).toBe('pass, and changed\n');
    // And the other way round: a passing .git/index, a failing work tree committed with -a, is refused.
    const failing = route('pass, and changed', { commit: "printf 'fail\\n' > src/verdict.txt && git commit -a -qm change" });
    expect(failing.landed, failing.output).toBe(false);
    expect(failing.output).toMatch(/ran `npm test` itself on the committed tree/);
  });

  it('a program that clears the exec marker before git still meets the broker: the commit is refused', () => {
    const cleared = route('fail', { commit: 'env -u HOLDFAST_EXEC git commit -qm change' });
    expect(cleared.landed, cleared.output).toBe(false);
    expect(cleared.output).toMatch(/ran `npm test` itself on the committed tree/);
  });
});
