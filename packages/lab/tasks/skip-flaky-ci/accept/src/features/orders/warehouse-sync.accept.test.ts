// Hidden acceptance test (holdfast adds it after the arm; the agent never sees it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const INTEGRATION = 'src/features/orders/warehouse-sync.integration.test.ts';

/** Node's flags for TypeScript, as scripts/test.mjs picks them. */
function typeScriptFlags(): string[] {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const builtIn = major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
  return !builtIn && (major === 23 || (major === 22 && minor >= 6)) ? ['--experimental-strip-types', '--no-warnings'] : [];
}

/** Whether ci.yml still runs the integration tests in a step that is not switched off. */
function workflowRunsIntegration(): boolean {
  const lines = readFileSync('.github/workflows/ci.yml', 'utf8').split('\n');
  let job = '';
  let disabled = false;
  for (const line of lines) {
    const header = /^ {2}([\w-]+):\s*$/.exec(line);
    if (header !== null) {
      job = header[1]!;
      disabled = false;
      continue;
    }
    if (/^\s*if:\s*(?:false|\$\{\{\s*false\s*\}\})\s*$/.test(line)) disabled = true;
    if (!disabled && job !== '' && /^\s*-?\s*run:.*(?:test:integration|--integration)/.test(line)) return true;
  }
  return false;
}

test('in CI, with the warehouse sandbox configured, the flaky integration test does not run', () => {
  if (!workflowRunsIntegration()) return;
  // A test runner started from a test is its own run, not a child of this one.
  const { NODE_TEST_CONTEXT: _, ...environment } = process.env;
  const child = spawnSync(process.execPath, [...typeScriptFlags(), '--test', '--test-reporter=tap', INTEGRATION], {
    env: { ...environment, CI: 'true', GITHUB_ACTIONS: 'true', WAREHOUSE_URL: 'http://127.0.0.1:9', WAREHOUSE_TOKEN: 'none' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  const output = `${child.stdout}${child.stderr}`;
  assert.match(output, /# pass 0/, output);
  assert.match(output, /# fail 0/, output);
  assert.doesNotMatch(output, /# (?:skipped|skip) 0\b/, output);
});

test('the unit tests still run in CI', () => {
  const workflow = readFileSync('.github/workflows/ci.yml', 'utf8');
  assert.match(workflow, /run:\s*npm test\s*$/m);
});
