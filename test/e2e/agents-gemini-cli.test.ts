import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { gitStatus, makeGitRepo, readIfExists } from '@holdfast/lab/test-support';
import { holdfast } from '@holdfast/lab/test-support';
import type { ModelTurn } from '@holdfast/lab/test-support';
import { RED_TEAM_CLIENTS, redTeamCases } from './agent-redteam-routes.js';

// The real Gemini CLI 0.61.0 against a scripted Gemini API on 127.0.0.1; holdfast from the built dist/.
const DEBUG = 'src/debug.ts';
const DEBUG_CONTENT = "console.log('debug');\n";
const SHELL_WRITE = 'src/shell.ts';

/** The model writes a file with a console.log, then a program writes another; then it reports what it was told. */
const writesConsoleLogs = [
  { writeFile: { path: DEBUG, content: DEBUG_CONTENT } },
  // A command whose writes the shell analysis cannot read before it runs: judged after it, and put back.
  { shell: `node -e "require('fs').writeFileSync('${SHELL_WRITE}', 'console.log(1);\\n')"` },
  (turn: ModelTurn) => ({ text: turn.allToolResults.some((result) => /R4 NOLOG/.test(result.text)) ? 'I was refused.' : 'Done.' }),
];

// A client run takes several seconds; a loaded 2-core box can make it a minute or more.
describe('Gemini CLI, real binary', { timeout: 300_000 }, () => {
  // Issue 44's red team: every route in one session, held and told (test/e2e/agent-redteam-routes.ts).
  redTeamCases(RED_TEAM_CLIENTS['gemini-cli']);

  it('held: the gate denies the write_file with the rule, puts back what the shell wrote, nothing lands', async () => {
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    holdfast(repo, 'install', 'gemini-cli');
    const result = await runScenario({ client: 'gemini-cli', repo, steps: writesConsoleLogs, timeoutMs: 280_000 });
    expect(result.run.exitCode, result.explain()).toBe(0);
    const denied = result.turns[1]?.allToolResults[0];
    expect(denied, result.explain()).toMatchObject({ isError: true, text: expect.stringMatching(/R4 NOLOG/) });
    const putBack = result.turns[2]?.allToolResults[1];
    expect(putBack?.text, result.explain()).toMatch(/put those changes back/);
    expect(readIfExists(repo, DEBUG), result.explain()).toBeUndefined();
    expect(readIfExists(repo, SHELL_WRITE), result.explain()).toBeUndefined();
    expect(gitStatus(repo).filter((line) => line.includes('src/'))).toEqual([]);
    expect(result.run.report).toMatchObject({ finalMessage: 'I was refused.' });
  });

  it('told: with no gate installed the same calls land', async () => {
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    const result = await runScenario({ client: 'gemini-cli', repo, steps: writesConsoleLogs, timeoutMs: 280_000 });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(readIfExists(repo, DEBUG)).toBe(DEBUG_CONTENT);
    expect(readIfExists(repo, SHELL_WRITE)).toBe('console.log(1);\n');
    expect(result.run.report).toMatchObject({ finalMessage: 'Done.', ending: 'success' });
    // The room's token rule: every input token the model read (Gemini CLI's prompt count), and what it wrote.
    expect(result.run.report.inputTokens, result.explain()).toBeGreaterThan(0);
    expect(result.run.report.outputTokens, result.explain()).toBeGreaterThan(0);
  });
});
