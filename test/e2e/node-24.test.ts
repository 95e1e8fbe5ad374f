import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureNodeLine } from '@holdfast/lab/harness';
import { runScenario } from '@holdfast/lab/test-support';
import { gitStatus, holdfastOn, makeGitRepo, readIfExists } from '@holdfast/lab/test-support';
import type { ModelTurn } from '@holdfast/lab/test-support';

// Node 24 (the active LTS) and Node 22 (maintenance LTS), obtained from the npm registry into the agent
// cache by the global setup: Node 24 runs the bundled hook and a gate end to end with the real Gemini CLI,
// Node 22 the bundled hook on a recorded Copilot CLI event and a CLI verb; the rest of the suite runs on
// the node that runs vitest (Node 20).
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

  it('gates the real Gemini CLI with the hook on Node 24: the write is denied, nothing lands', async () => {
    const node = await ensureNodeLine('node-24');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    holdfastOn(node, repo, 'install', 'gemini-cli');
    // The settings name no node; this clone's record of the installing holdfast does.
    expect(readFileSync(join(repo, '.holdfast', 'hook-location'), 'utf8').split('\n')[0]).toBe(node);
    const steps = [
      { writeFile: { path: 'src/debug.ts', content: "console.log('debug');\n" } },
      (turn: ModelTurn) => ({ text: turn.allToolResults.some((result) => /R4 NOLOG/.test(result.text)) ? 'I was refused.' : 'Done.' }),
    ];
    const result = await runScenario({ client: 'gemini-cli', repo, steps, node, timeoutMs: 280_000 });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.turns[1]?.allToolResults[0], result.explain()).toMatchObject({ isError: true, text: expect.stringMatching(/R4 NOLOG/) });
    expect(readIfExists(repo, 'src/debug.ts')).toBeUndefined();
    expect(gitStatus(repo).filter((line) => line.includes('src/'))).toEqual([]);
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
