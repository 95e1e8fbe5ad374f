import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { gitStatus, makeGitRepo, readIfExists } from '@holdfast/lab/test-support';
import { holdfast } from '@holdfast/lab/test-support';
import type { ModelTurn } from '@holdfast/lab/test-support';

// The real Claude Code 2.1.197 against a scripted model on 127.0.0.1; holdfast from the built dist/.
const DEBUG_TEST = 'src/debug.test.ts';
const DEBUG_CONTENT = "console.log('debug');\n";

function install(repo: string, agent: string): void {
  holdfast(repo, 'install', agent);
}

/** The model writes a file with a console.log, then reports what it was told. */
const writesAConsoleLog = [
  { writeFile: { path: DEBUG_TEST, content: DEBUG_CONTENT } },
  (turn: ModelTurn) => ({ text: turn.toolResults[0]?.isError === true ? 'I was refused.' : 'Done.' }),
];

// A client run takes a few seconds; a loaded 2-core box can make it many more.
describe('Claude Code, real binary', () => {
  it('held: the gate denies a Write with a console.log, the model is told why, nothing lands', async () => {
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    install(repo, 'claude-code');
    const result = await runScenario({ client: 'claude-code', repo, steps: writesAConsoleLog });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.turns, result.explain()).toHaveLength(2);
    const told = result.turns[1]?.toolResults[0];
    expect(told, result.explain()).toMatchObject({ isError: true, text: expect.stringMatching(/R4 NOLOG/) });
    expect(readIfExists(repo, DEBUG_TEST), result.explain()).toBeUndefined();
    expect(gitStatus(repo).filter((line) => line.includes('src/'))).toEqual([]);
    expect(result.run.report).toMatchObject({ finalMessage: 'I was refused.', deniedCalls: 1 });
  });

  it('told: with no gate installed the same Write lands', async () => {
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    const result = await runScenario({ client: 'claude-code', repo, steps: writesAConsoleLog });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.turns[1]?.toolResults[0]?.isError, result.explain()).toBe(false);
    expect(readIfExists(repo, DEBUG_TEST)).toBe(DEBUG_CONTENT);
    expect(gitStatus(repo)).toEqual([`?? ${DEBUG_TEST}`]);
    expect(result.run.report).toMatchObject({ turns: 2, finalMessage: 'Done.', ending: 'success', deniedCalls: 0 });
  });
});
