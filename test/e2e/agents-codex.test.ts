import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureAgentClient } from '@holdfast/lab/harness';
import { trustCodexHooks } from '@holdfast/lab/harness';
import { readCodexView } from '@holdfast/gate';
import { codexConfig, runScenario } from '@holdfast/lab/test-support';
import { gitStatus, makeGitRepo, readIfExists } from '@holdfast/lab/test-support';
import { holdfast, holdfastOn, installedHookNode, nodeOfLine } from '@holdfast/lab/test-support';
import type { ModelTurn } from '@holdfast/lab/test-support';

// The real Codex 0.171.0 against a scripted model on 127.0.0.1; holdfast from the built dist/.
// Issue 44: holdfast, the installed hook and Codex's node launcher are on the Node line each title names;
// gate-guarantee-codex.test.ts splits its sessions between the lines too.
const DEBUG_TEST = 'src/debug.test.ts';
const DEBUG_CONTENT = "console.log('debug');\n";

function install(repo: string, agent: string, node: string): void {
  holdfastOn(node, repo, 'install', agent);
  expect(installedHookNode(repo)).toBe(node);
}

/** The model adds a file with a console.log through apply_patch, then reports what it was told (Codex has no error flag on tool outputs). */
const writesAConsoleLog = [
  { writeFile: { path: DEBUG_TEST, content: DEBUG_CONTENT } },
  (turn: ModelTurn) => ({ text: /R4 NOLOG/.test(turn.toolResults[0]?.text ?? '') ? 'I was refused.' : 'Done.' }),
];

// A client run takes a few seconds; a loaded 2-core box can make it many more.
describe('Codex, real binary', () => {
  it('held on Node 24: the gate denies an apply_patch that adds a console.log, the model is told why, nothing lands', async () => {
    const node = await nodeOfLine('node-24');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    install(repo, 'codex', node);
    const result = await runScenario({ client: 'codex', repo, steps: writesAConsoleLog, node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.turns, result.explain()).toHaveLength(2);
    const told = result.turns[1]?.toolResults[0];
    expect(told?.text, result.explain()).toMatch(/R4 NOLOG/);
    expect(readIfExists(repo, DEBUG_TEST), result.explain()).toBeUndefined();
    expect(gitStatus(repo).filter((line) => line.includes('src/'))).toEqual([]);
    expect(result.run.report.finalMessage).toBe('I was refused.');
  });

  it('told on Node 20: with no gate installed the same apply_patch lands', async () => {
    const node = await nodeOfLine('node-20');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    const result = await runScenario({ client: 'codex', repo, steps: writesAConsoleLog, node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.turns[1]?.toolResults[0]?.text, result.explain()).toMatch(/Success/);
    expect(readIfExists(repo, DEBUG_TEST)).toBe(DEBUG_CONTENT);
    expect(gitStatus(repo)).toEqual([`?? ${DEBUG_TEST}`]);
    expect(result.run.report).toMatchObject({ turns: 2, finalMessage: 'Done.', ending: 'turn.completed' });
  });

  it('untrusted, on Node 20: the installed hook never runs until a person trusts it, and the write lands', async () => {
    const node = await nodeOfLine('node-20');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    install(repo, 'codex', node);
    const result = await runScenario({ client: 'codex', repo, steps: writesAConsoleLog, hookTrust: 'none', node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(readIfExists(repo, DEBUG_TEST), result.explain()).toBe(DEBUG_CONTENT);
    expect(result.run.report.finalMessage).toBe('Done.');
  });

  it('trust is recorded as Codex records a review: hooks.state."<key>".trusted_hash, void once the hook changes', async () => {
    const repo = makeGitRepo();
    holdfast(repo, 'install', 'codex');
    const home = mkdtempSync(join(tmpdir(), 'holdfast-codex-trust-'));
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), codexConfig({ baseUrl: 'http://127.0.0.1:9/v1', cwd: repo }));
    const options = { bin: await ensureAgentClient('codex'), cwd: repo, env: { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: join(home, '.codex') } };
    const trusted = await trustCodexHooks(options);
    // install registers the one hook command for every event it judges: before a call and after it (the shells and
    // apply_patch in one group, MCP tools in a second), and at the end of the turn.
    const key = `${repo}/.codex/hooks.json:pre_tool_use:0:0`;
    const groups = ['pre_tool_use:0', 'pre_tool_use:1', 'post_tool_use:0', 'post_tool_use:1', 'stop:0'];
    expect(trusted.map((hook) => [hook.key, hook.trustStatus])).toEqual(groups.map((group) => [`${repo}/.codex/hooks.json:${group}:0`, 'trusted']));
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toContain(
      `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = "${trusted[0]?.currentHash}"`,
    );
    const hooksFile = join(repo, '.codex', 'hooks.json');
    writeFileSync(hooksFile, readFileSync(hooksFile, 'utf8').replace('"timeout": 30', '"timeout": 31'));
    const after = (await readCodexView(options.bin, repo, options.env)).hooks;
    // Only the edited entry (the first) loses its trust; the others keep theirs.
    expect(after.map((hook) => hook.trustStatus)).toEqual(['modified', 'trusted', 'trusted', 'trusted', 'trusted']);
  });

  it("told inside Codex's own workspace-write sandbox, on Node 24: the shell and apply_patch both write", async () => {
    const node = await nodeOfLine('node-24');
    const repo = makeGitRepo();
    const steps = [{ shell: 'echo hi > notes.txt' }, { writeFile: { path: DEBUG_TEST, content: DEBUG_CONTENT } }, { text: 'Done.' }];
    const result = await runScenario({ client: 'codex', repo, steps, sandbox: 'workspace-write', node });
    rmSync(result.run.home, { recursive: true, force: true });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(readIfExists(repo, 'notes.txt'), result.explain()).toBe('hi\n');
    expect(readIfExists(repo, DEBUG_TEST), result.explain()).toBe(DEBUG_CONTENT);
  });
});
