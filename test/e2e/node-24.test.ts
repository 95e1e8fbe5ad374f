import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureNodeLine } from '@holdfast/lab/harness';

// Node 24 (the active LTS) and Node 22 (maintenance LTS), obtained from the npm registry into the agent
// cache by the global setup: here Node 24 runs the bundled hook on a recorded event, Node 22 the bundled
// hook on a recorded Copilot CLI event and a CLI verb. The real clients are gated end to end on Node 24
// (and on Node 20, the node that runs vitest) in their own files, each session on the line its title names
// (test/e2e/agents-*.test.ts, gate-guarantee-*.test.ts, nodeOfLine in @holdfast/lab/test-support).
const HOOK = fileURLToPath(new URL('../../packages/gate/dist/hook-bundle/hook.cjs', import.meta.url));
const SHIPPED_RULEBOOK = fileURLToPath(new URL('../../rulebooks/default.yaml', import.meta.url));
const RECORDED_COPILOT_CREATE = fileURLToPath(
  new URL('../../fixtures/traffic/copilot-1.0.102/create-bash-exit-status/hooks/01-pre-tool-use-create.json', import.meta.url),
);
const CLI = fileURLToPath(new URL('../../packages/cli/bin/holdfast.js', import.meta.url));
const CHECK_INPUT = fileURLToPath(new URL('../../examples/check-input.json', import.meta.url));
const RECORDED_WRITE = fileURLToPath(
  new URL('../../fixtures/traffic/gemini-cli-0.61.0/write-shell-exit-status/hooks/01-before-tool-write_file.json', import.meta.url),
);

describe('Node 24', { timeout: 300_000 }, () => {
  it('runs the bundled hook: a recorded Gemini CLI write with a console.log is denied with the rule, and the compile cache is kept', async () => {
    const node = await ensureNodeLine('node-24');
    expect(execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' })).toMatch(/^24\./);
    const root = mkdtempSync(join(tmpdir(), 'holdfast-node24-'));
    mkdirSync(join(root, 'src'));
    const event = { ...(JSON.parse(readFileSync(RECORDED_WRITE, 'utf8')) as Record<string, unknown>), cwd: root };
    const stdout = execFileSync(node, [HOOK, 'gemini-cli', '--deadline-ms', '24000'], {
      input: JSON.stringify(event),
      encoding: 'utf8',
      env: { ...process.env, HOLDFAST_RULEBOOK: SHIPPED_RULEBOOK },
    });
    expect(JSON.parse(stdout)).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/R4 NOLOG/) });
    // Node 22.1+ keeps V8's code for the bundle (module.enableCompileCache) beside it.
    const cache = join(HOOK, '..', '.compile-cache');
    expect(existsSync(cache) && readdirSync(cache).length > 0).toBe(true);
  });
});

describe('Node 22', () => {
  it('runs the bundled hook: a recorded Copilot CLI create with a console.log is denied with the rule', async () => {
    const node = await ensureNodeLine('node-22');
    expect(execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' })).toMatch(/^22\./);
    const root = mkdtempSync(join(tmpdir(), 'holdfast-node22-'));
    mkdirSync(join(root, 'src'));
    const recorded = JSON.parse(readFileSync(RECORDED_COPILOT_CREATE, 'utf8')) as Record<string, unknown>;
    const event = { ...recorded, cwd: root, toolArgs: { path: join(root, 'src', 'debug.ts'), file_text: "console.log('debug');\n" } };
    const stdout = execFileSync(node, [HOOK, 'copilot-cli', '--deadline-ms', '24000'], {
      input: JSON.stringify(event),
      encoding: 'utf8',
      env: { ...process.env, HOLDFAST_RULEBOOK: SHIPPED_RULEBOOK },
    });
    expect(JSON.parse(stdout)).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/R4 NOLOG/) });
  });

  it('runs the CLI: holdfast check judges the example action list with the six rules', async () => {
    const node = await ensureNodeLine('node-22');
    const result = spawnSync(node, [CLI, 'check', CHECK_INPUT, '--json'], { encoding: 'utf8' });
    const checks = (JSON.parse(result.stdout) as { checks: { rule: string; ok: boolean }[] }).checks;
    expect(checks.filter((check) => !check.ok).map((check) => check.rule)).toContain('R4');
    // The same answer, byte for byte and exit code, as on the node running the tests.
    const here = spawnSync(process.execPath, [CLI, 'check', CHECK_INPUT, '--json'], { encoding: 'utf8' });
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({ status: here.status, stdout: here.stdout, stderr: here.stderr });
  });
});
