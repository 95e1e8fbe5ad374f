import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { gitStatus, makeGitRepo, readIfExists } from '@holdfast/lab/test-support';
import { holdfastOn, installedHookNode, nodeOfLine } from '@holdfast/lab/test-support';
import type { ModelTurn } from '@holdfast/lab/test-support';
import { RED_TEAM_CLIENTS, redTeamCases } from './agent-redteam-routes.js';

// The real Gemini CLI 0.61.0 against a scripted Gemini API on 127.0.0.1; holdfast from the built dist/.
// Issue 44: each session runs holdfast, the installed hook and Gemini CLI on one Node line, named in its
// title: held on Node 20 and Node 24 (each a deny, a put-back and a clean call let through), told on both.
const DEBUG = 'src/debug.ts';
const DEBUG_CONTENT = "console.log('debug');\n";
const SHELL_WRITE = 'src/shell.ts';
const GREET = 'src/greet.ts';
// A clean change to a file that is there (a new module would need its test: AfterAgent would hold the turn).
const GREET_CHANGED = 'export const greet = () => "hello";\n';

/** The model writes a file with a console.log, then a program writes another, then it changes a file cleanly; then it reports what it was told. */
const writesConsoleLogs = [
  { writeFile: { path: DEBUG, content: DEBUG_CONTENT } },
  // A command whose writes the shell analysis cannot read before it runs: judged after it, and put back.
  { shell: `node -e "require('fs').writeFileSync('${SHELL_WRITE}', 'console.log(1);\\n')"` },
  { writeFile: { path: GREET, content: GREET_CHANGED } },
  (turn: ModelTurn) => ({ text: turn.allToolResults.some((result) => /R4 NOLOG/.test(result.text)) ? 'I was refused.' : 'Done.' }),
];

// A client run takes several seconds; a loaded 2-core box can make it a minute or more.
describe('Gemini CLI, real binary', { timeout: 300_000 }, () => {
  // Issue 44's red team: every route in one session, held and told (test/e2e/agent-redteam-routes.ts).
  redTeamCases(RED_TEAM_CLIENTS['gemini-cli'], { held: 'node-24', told: 'node-20' });

  it('held on Node 20: the gate denies the write_file with the rule, puts back what the shell wrote, lets the clean change land', async () => {
    const node = await nodeOfLine('node-20');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    holdfastOn(node, repo, 'install', 'gemini-cli');
    expect(installedHookNode(repo)).toBe(node);
    const result = await runScenario({ client: 'gemini-cli', repo, steps: writesConsoleLogs, node, timeoutMs: 280_000 });
    expect(result.run.exitCode, result.explain()).toBe(0);
    const denied = result.turns[1]?.allToolResults[0];
    expect(denied, result.explain()).toMatchObject({ isError: true, text: expect.stringMatching(/R4 NOLOG/) });
    const putBack = result.turns[2]?.allToolResults[1];
    expect(putBack?.text, result.explain()).toMatch(/put those changes back/);
    expect(result.turns[3]?.allToolResults.at(-1), result.explain()).toMatchObject({ isError: false });
    expect(readIfExists(repo, DEBUG), result.explain()).toBeUndefined();
    expect(readIfExists(repo, SHELL_WRITE), result.explain()).toBeUndefined();
    expect(readIfExists(repo, GREET), result.explain()).toBe(GREET_CHANGED);
    expect(gitStatus(repo).filter((line) => line.includes('src/'))).toEqual([` M ${GREET}`]);
    expect(result.run.report).toMatchObject({ finalMessage: 'I was refused.' });
  });

  it('told on Node 24: with no gate installed the same calls land', async () => {
    const node = await nodeOfLine('node-24');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    const result = await runScenario({ client: 'gemini-cli', repo, steps: writesConsoleLogs, node, timeoutMs: 280_000 });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(readIfExists(repo, DEBUG)).toBe(DEBUG_CONTENT);
    expect(readIfExists(repo, SHELL_WRITE)).toBe('console.log(1);\n');
    expect(readIfExists(repo, GREET)).toBe(GREET_CHANGED);
    expect(result.run.report).toMatchObject({ finalMessage: 'Done.', ending: 'success' });
    // The room's token rule: every input token the model read (Gemini CLI's prompt count), and what it wrote.
    expect(result.run.report.inputTokens, result.explain()).toBeGreaterThan(0);
    expect(result.run.report.outputTokens, result.explain()).toBeGreaterThan(0);
  });
});
