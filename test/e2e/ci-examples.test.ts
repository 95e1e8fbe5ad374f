import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commitFiles, git, gitTestEnv } from '@holdfast/gate/test-support';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOGGED = 'export const orders = 1;\nconsole.log(orders);\n';

function runStep(command: string, cwd: string, env: NodeJS.ProcessEnv) {
  const result = spawnSync('/bin/sh', ['-c', command], { cwd, env: gitTestEnv({ ...env, npm_config_offline: 'true' }), encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

interface WorkflowStep {
  readonly uses?: string;
  readonly with?: Record<string, unknown>;
  readonly run?: string;
}

function githubWorkflow(): { on: Record<string, unknown>; steps: WorkflowStep[] } {
  const workflow = parse(readFileSync(join(ROOT, 'examples', 'ci', 'github-actions.yml'), 'utf8'));
  return { on: workflow.on, steps: workflow.jobs.verify.steps };
}

/** The base's rulebook (the shipped one) and a tested module. */
function baseFiles(): Record<string, string> {
  return {
    'holdfast/rulebook.yaml': readFileSync(join(ROOT, 'rulebooks', 'default.yaml'), 'utf8'),
    'src/orders.ts': 'export const orders = 1;\n',
    'src/orders.test.ts': "import './orders';\n",
  };
}

const MARKER_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'pretest', 'test', 'posttest'];

/**
 * A pull request against a bare remote, as GitHub has it: main (the base) with a rulebook, a package.json
 * whose devDependency is holdfast (a local package whose bin is this checkout's CLI) and its lockfile; the
 * head pushed as refs/pull/7/head, with a violation and a package.json whose every lifecycle script writes
 * a marker. Everything lives in one folder so the lockfile's relative `file:` path holds for every clone.
 */
function hostilePullRequest(marker: string, headRef = 'refs/pull/7/head'): { remote: string; base: string; folder: string; clean: string } {
  const folder = mkdtempSync(join(tmpdir(), 'holdfast-ci-pr-'));
  const shim = join(folder, 'holdfast-package');
  mkdirSync(join(shim, 'bin'), { recursive: true });
  writeFileSync(join(shim, 'package.json'), `${JSON.stringify({ name: 'holdfast', version: '0.0.0-local', bin: { holdfast: 'bin/holdfast.js' } })}\n`);
  writeFileSync(join(shim, 'bin', 'holdfast.js'), `#!/usr/bin/env node\nimport(${JSON.stringify(join(ROOT, 'packages', 'cli', 'bin', 'holdfast.js'))});\n`);
  chmodSync(join(shim, 'bin', 'holdfast.js'), 0o755);
  const work = join(folder, 'work');
  mkdirSync(work);
  git(work, 'init', '-q', '-b', 'main');
  commitFiles(
    work,
    {
      ...baseFiles(),
      // The project's tests, which --run-required runs on each head: they pass while src/orders.ts exports orders.
      'check.cjs': "process.exit(/export const orders/.test(require('node:fs').readFileSync('src/orders.ts', 'utf8')) ? 0 : 1);\n",
      'package.json': `${JSON.stringify({ name: 'ci', private: true, scripts: { test: 'node check.cjs' }, devDependencies: { holdfast: 'file:../holdfast-package' } })}\n`,
    },
    'base',
  );
  const installed = spawnSync('npm', ['install', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], { cwd: work, encoding: 'utf8' });
  expect(installed.status, installed.stderr).toBe(0);
  commitFiles(work, { '.gitignore': 'node_modules/\n' }, 'lockfile');
  const base = git(work, 'rev-parse', 'HEAD');
  const remote = join(folder, 'remote.git');
  git(folder, 'init', '-q', '--bare', '-b', 'main', remote);
  git(work, 'push', '-q', remote, 'main');
  git(work, 'checkout', '-q', '-b', 'hostile');
  const write = `node -e "require('fs').writeFileSync(process.argv[1] + '-' + process.env.npm_lifecycle_event, 'ran')" ${JSON.stringify(marker)}`;
  const scripts = Object.fromEntries(MARKER_SCRIPTS.map((name) => [name, write]));
  commitFiles(
    work,
    {
      'package.json': `${JSON.stringify({ name: 'ci', private: true, scripts, devDependencies: { holdfast: 'file:../holdfast-package' } })}\n`,
      'src/orders.ts': LOGGED,
    },
    'debug output',
  );
  git(work, 'push', '-q', remote, `HEAD:${headRef}`);
  git(work, 'checkout', '-q', '-b', 'clean', 'main');
  const clean = commitFiles(work, { 'src/billing.ts': 'export const billing = 1;\n', 'src/billing.test.ts': "import './billing';\n" }, 'billing');
  git(work, 'push', '-q', remote, 'clean');
  return { remote, base, folder, clean };
}

/** What actions/checkout does with `ref: base.sha` and the whole history: a clone of the remote at the base, origin set. */
function checkoutBase(remote: string, base: string, folder: string): string {
  const job = mkdtempSync(join(folder, 'job-'));
  git(job, 'clone', '-q', remote, '.');
  git(job, 'checkout', '-q', '--detach', base);
  return job;
}

// npm, git and verify with its confined runs, each a process of its own: minutes on a loaded machine.
describe('examples/ci: the verify step as written, against a real bare remote', { timeout: 600_000 }, () => {
  it('github-actions.yml: nothing of the pull request runs before the verdict; its steps as written fail a hostile head (exit 1)', () => {
    const { on, steps } = githubWorkflow();
    // The base's workflow file, the base's checkout, no credentials left in it.
    expect(Object.keys(on)).toEqual(['pull_request_target']);
    const checkoutStep = steps.find((step) => step.uses?.startsWith('actions/checkout@'));
    expect(checkoutStep?.with).toEqual({ ref: '${{ github.event.pull_request.base.sha }}', 'fetch-depth': 0, 'persist-credentials': false });
    expect(steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(20);
    expect(steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'))?.with?.sarif_file).toBe('holdfast.sarif');
    // Every shell step, in order; bubblewrap's install is the machine's (test/setup/system-tools.ts), so it is checked, not run.
    const runs = steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
    expect(runs.some((run) => run.includes('npm ci --ignore-scripts'))).toBe(true);
    expect(runs.filter((run) => /\bnpm (ci|install|i)\b/.test(run)).every((run) => run.includes('--ignore-scripts'))).toBe(true);

    const marker = join(mkdtempSync(join(tmpdir(), 'holdfast-ci-marker-')), 'ran');
    const { remote, base, folder } = hostilePullRequest(marker);
    const job = checkoutBase(remote, base, folder);
    const values: Record<string, string> = { 'github.event.pull_request.base.sha': base, 'github.event.pull_request.number': '7' };
    let verified: ReturnType<typeof runStep> | undefined;
    for (const run of runs) {
      if (run.includes('apt-get install')) {
        expect(run).toMatch(/apt-get install -y bubblewrap/);
        continue;
      }
      const command = run.replaceAll(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_whole, name: string) => {
        const value = values[name];
        if (value === undefined) throw new Error(`the example's step names \${{ ${name} }}, which this test does not know`);
        return value;
      });
      const result = runStep(command, job, {});
      if (run.includes('holdfast verify')) verified = result;
      else expect({ run, code: result.code, err: result.err }).toMatchObject({ run, code: 0 });
    }
    expect(verified?.code).toBe(1);
    const sarif = JSON.parse(readFileSync(join(job, 'holdfast.sarif'), 'utf8'));
    expect(sarif.runs[0].results.map((result: { ruleId: string }) => result.ruleId)).toContain('R4');
    // The head was fetched as data: the job's tree is the base's, and no lifecycle script of the head ran anywhere.
    expect(git(job, 'rev-parse', 'HEAD')).toBe(base);
    expect(readFileSync(join(job, 'package.json'), 'utf8')).not.toMatch(/preinstall/);
    for (const name of MARKER_SCRIPTS) expect({ name, ran: existsSync(`${marker}-${name}`) }).toEqual({ name, ran: false });
  });

  it('gitlab-ci.yml: nothing of the merge request runs before the verdict; its script as written fails a hostile head, passes a clean one', () => {
    const pipeline = parse(readFileSync(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'), 'utf8'));
    const job = pipeline['holdfast-verify'] as {
      rules: { if: string }[];
      variables: Record<string, unknown>;
      script: string[];
      artifacts: { reports: { junit: string } };
    };
    expect(job.rules[0]?.if).toMatch(/CI_PIPELINE_SOURCE == "merge_request_event"/);
    // The whole history, and the runner checks out no file of the merge request.
    expect(job.variables).toMatchObject({ GIT_DEPTH: 0, GIT_CHECKOUT: 'false', GIT_SUBMODULE_STRATEGY: 'none', GIT_LFS_SKIP_SMUDGE: '1' });
    expect(job.script.filter((line) => /\bnpm (ci|install|i)\b/.test(line)).every((line) => line.includes('--ignore-scripts'))).toBe(true);
    expect(job.script.findIndex((line) => line.startsWith('git checkout'))).toBe(0);

    const marker = join(mkdtempSync(join(tmpdir(), 'holdfast-ci-marker-')), 'ran');
    const { remote, base, folder, clean } = hostilePullRequest(marker, 'refs/merge-requests/7/head');
    const head = git(folder, '--git-dir', remote, 'rev-parse', 'refs/merge-requests/7/head');
    /** What the runner does with GIT_CHECKOUT "false": the repository and the merge request's head fetched, nothing checked out. */
    const runnerClone = (): string => {
      const job = mkdtempSync(join(folder, 'job-'));
      git(job, 'clone', '-q', '--no-checkout', remote, '.');
      git(job, 'fetch', '-q', 'origin', '+refs/merge-requests/7/head:refs/merge-requests/7/head');
      return job;
    };
    const runScript = (cwd: string, commit: string) => {
      let verified: ReturnType<typeof runStep> | undefined;
      for (const line of job.script) {
        if (line.includes('apt-get install')) {
          expect(line).toMatch(/apt-get install -y -qq bubblewrap/);
          continue;
        }
        const result = runStep(line, cwd, { CI_MERGE_REQUEST_DIFF_BASE_SHA: base, CI_COMMIT_SHA: commit });
        if (line.includes('holdfast verify')) verified = result;
        else expect({ line, code: result.code, err: result.err }).toMatchObject({ line, code: 0 });
      }
      return verified;
    };

    const hostile = runnerClone();
    expect(runScript(hostile, head)?.code).toBe(1);
    const junit = readFileSync(join(hostile, job.artifacts.reports.junit), 'utf8');
    expect(junit).toMatch(/<testcase classname="commit [0-9a-f]{12} debug output" name="R4 NOLOG">\n {6}<failure /);
    // The head was judged as objects: the job's tree is the base's, and no lifecycle script of the head ran anywhere.
    expect(git(hostile, 'rev-parse', 'HEAD')).toBe(base);
    expect(readFileSync(join(hostile, 'package.json'), 'utf8')).not.toMatch(/preinstall/);
    for (const name of MARKER_SCRIPTS) expect({ name, ran: existsSync(`${marker}-${name}`) }).toEqual({ name, ran: false });

    const passing = runnerClone();
    expect(runScript(passing, clean)?.code).toBe(0);
    expect(existsSync(join(passing, job.artifacts.reports.junit))).toBe(true);
    // a base that is not a commit is refused with what to do, not passed
    const verifyLine = job.script.find((line) => line.includes('holdfast verify')) as string;
    expect(runStep(verifyLine, passing, { CI_MERGE_REQUEST_DIFF_BASE_SHA: 'not-a-commit', CI_COMMIT_SHA: clean }).code).toBe(2);
  });
});
