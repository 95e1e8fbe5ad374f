import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commitFiles, git, gitTestEnv, projectRepo } from '@holdfast/gate/test-support';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOGGED = 'export const orders = 1;\nconsole.log(orders);\n';

interface Remote {
  readonly remote: string;
  readonly base: string;
}

/** A bare remote on disk holding main (with the rulebook), a clean branch and a violating one, all pushed. */
function remoteWithBranches(): Remote {
  const work = projectRepo('holdfast-ci-work-');
  // The project's tests, which --run-required runs on each head: they pass while src/orders.ts exports orders.
  commitFiles(
    work,
    {
      'package.json': `${JSON.stringify({ name: 'ci', private: true, scripts: { test: 'node check.cjs' } })}\n`,
      'check.cjs': "process.exit(/export const orders/.test(require('node:fs').readFileSync('src/orders.ts', 'utf8')) ? 0 : 1);\n",
    },
    'tests',
  );
  const base = git(work, 'rev-parse', 'HEAD');
  const remote = mkdtempSync(join(tmpdir(), 'holdfast-ci-remote-'));
  git(remote, 'init', '-q', '--bare', '-b', 'main');
  git(work, 'remote', 'add', 'origin', remote);
  git(work, 'push', '-q', 'origin', 'main');
  git(work, 'checkout', '-q', '-b', 'clean');
  commitFiles(work, { 'src/billing.ts': 'export const billing = 1;\n', 'src/billing.test.ts': "import './billing';\n" }, 'billing');
  git(work, 'push', '-q', 'origin', 'clean');
  git(work, 'checkout', '-q', '-b', 'violating', 'main');
  commitFiles(work, { 'src/orders.ts': LOGGED }, 'debug output');
  git(work, 'push', '-q', 'origin', 'violating');
  git(work, 'checkout', '-q', '-b', 'failing', 'main');
  commitFiles(work, { 'src/orders.ts': 'export const order = 1;\n' }, 'rename');
  git(work, 'push', '-q', 'origin', 'failing');
  return { remote, base };
}

/** What CI's checkout does with the whole history, and holdfast where `npx holdfast` finds it (the project's devDependency). */
function checkout(remote: string, branch: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'holdfast-ci-job-'));
  git(folder, 'clone', '-q', '--branch', branch, remote, '.');
  mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(folder, 'node_modules', 'holdfast'));
  symlinkSync(join('..', 'holdfast', 'bin', 'holdfast.js'), join(folder, 'node_modules', '.bin', 'holdfast'));
  return folder;
}

function runStep(command: string, cwd: string, env: NodeJS.ProcessEnv) {
  const result = spawnSync('/bin/sh', ['-c', command], { cwd, env: gitTestEnv({ ...env, npm_config_offline: 'true' }), encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function githubVerifyStep(): string {
  const workflow = parse(readFileSync(join(ROOT, 'examples', 'ci', 'github-actions.yml'), 'utf8'));
  expect(Object.keys(workflow.on)).toEqual(['pull_request']);
  const steps: { uses?: string; with?: Record<string, unknown>; run?: string }[] = workflow.jobs.verify.steps;
  expect(steps.find((step) => step.uses?.startsWith('actions/checkout@'))?.with?.['fetch-depth']).toBe(0);
  expect(steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(20);
  const upload = steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'));
  expect(upload?.with?.sarif_file).toBe('holdfast.sarif');
  const verify = steps.find((step) => step.run?.includes('holdfast verify'))?.run;
  expect(verify).toBeDefined();
  return verify as string;
}

function gitlabVerifyLine(): { line: string; job: { variables: Record<string, unknown>; rules: { if: string }[]; artifacts: { reports: { junit: string } } } } {
  const pipeline = parse(readFileSync(join(ROOT, 'examples', 'ci', 'gitlab-ci.yml'), 'utf8'));
  const job = pipeline['holdfast-verify'];
  const line = (job.script as string[]).find((each) => each.includes('holdfast verify'));
  expect(line).toBeDefined();
  return { line: line as string, job };
}

describe('examples/ci: the verify step as written, against a real bare remote', () => {
  it('github-actions.yml: a clean pull request passes (exit 0), a violating one fails (exit 1) and its SARIF names the rule', () => {
    const step = githubVerifyStep();
    const { remote, base } = remoteWithBranches();
    const command = step.replaceAll('${{ github.event.pull_request.base.sha }}', base);
    expect(command).not.toMatch(/\$\{\{/);

    const clean = checkout(remote, 'clean');
    const passed = runStep(command, clean, {});
    expect(passed.err).toBe('');
    expect(passed.code).toBe(0);
    expect(JSON.parse(readFileSync(join(clean, 'holdfast.sarif'), 'utf8')).runs[0].results).toEqual([]);

    const violating = checkout(remote, 'violating');
    const failed = runStep(command, violating, {});
    expect(failed.code).toBe(1);
    const sarif = JSON.parse(readFileSync(join(violating, 'holdfast.sarif'), 'utf8'));
    const rules = sarif.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id);
    expect(rules).toContain('R4');
    const ids = sarif.runs[0].results.map((result: { ruleId: string }) => result.ruleId);
    expect(ids).toEqual(['R4', 'R4']);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'src/orders.ts', uriBaseId: '%SRCROOT%' },
      region: { startLine: 2 },
    });

    // No rule of the diff is broken, but the project's tests fail on the head: R6, from --run-required.
    const failing = checkout(remote, 'failing');
    expect(runStep(command, failing, {}).code).toBe(1);
    const tested = JSON.parse(readFileSync(join(failing, 'holdfast.sarif'), 'utf8'));
    expect(tested.runs[0].results.map((result: { ruleId: string }) => result.ruleId)).toEqual(['R6']);
    expect(tested.runs[0].results[0].message.text).toMatch(/`npm test` does not pass on the head tree/);
  });

  it('gitlab-ci.yml: runs on merge requests with the whole history; clean passes, violating fails with the rule in the JUnit report', () => {
    const { line, job } = gitlabVerifyLine();
    expect(job.rules[0]?.if).toMatch(/CI_PIPELINE_SOURCE == "merge_request_event"/);
    expect(job.variables.GIT_DEPTH).toBe(0);
    const { remote, base } = remoteWithBranches();
    const env = { CI_MERGE_REQUEST_DIFF_BASE_SHA: base };

    const clean = checkout(remote, 'clean');
    expect(runStep(line, clean, env).code).toBe(0);
    expect(existsSync(join(clean, job.artifacts.reports.junit))).toBe(true);

    const violating = checkout(remote, 'violating');
    const failed = runStep(line, violating, env);
    expect(failed.code).toBe(1);
    const junit = readFileSync(join(violating, job.artifacts.reports.junit), 'utf8');
    expect(junit).toMatch(/<testcase classname="commit [0-9a-f]{12} debug output" name="R4 NOLOG">\n {6}<failure /);
    // a branch without the base's rulebook path is refused with what to do, not passed
    expect(runStep(line, violating, { CI_MERGE_REQUEST_DIFF_BASE_SHA: 'not-a-commit' }).code).toBe(2);
  });
});
