import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { gitStatus, holdfastOn, installedHookNode, makeGitRepo, nodeOfLine, readIfExists } from '@holdfast/lab/test-support';
import type { ModelTurn } from '@holdfast/lab/test-support';
import { RED_TEAM_CLIENTS, redTeamCases } from './agent-redteam-routes.js';

// The real GitHub Copilot CLI 1.0.102 offline (COPILOT_OFFLINE, a custom provider on OpenAI chat
// completions, no GitHub login) against a scripted model server on 127.0.0.1; holdfast from the built dist/.
// Issue 44: holdfast and the installed hook (and the `node` first on Copilot CLI's PATH) are on the Node line
// each title names: held on Node 20 and Node 24, each a deny, a put-back and a clean call let through.
const SUM = 'export const sum = (a: number, b: number) => a + b;\n';
const SUM_TEST = "import { sum } from './sum';\nexport const checked = sum(1, 2);\n";

/** What the last message of a request says (Copilot CLI sends an agentStop hook's reason as the next user message). */
function lastMessage(turn: ModelTurn): string {
  const messages = Array.isArray(turn.body.messages) ? (turn.body.messages as unknown[]) : [];
  return JSON.stringify(messages.at(-1) ?? '');
}

describe('Copilot CLI, real binary', () => {
  // Issue 44's red team: every route in one session, held and told (test/e2e/agent-redteam-routes.ts).
  redTeamCases(RED_TEAM_CLIENTS['copilot-cli'], { held: 'node-24', told: 'node-20' });

  it('held on Node 20: a denied create never lands, a bash write is put back, agentStop holds the turn until the new module has its test', async () => {
    const node = await nodeOfLine('node-20');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    holdfastOn(node, repo, 'install', 'copilot-cli');
    expect(installedHookNode(repo)).toBe(node);
    const steps = [
      { writeFile: { path: 'src/debug.ts', content: "console.log('debug');\n" } },
      // A command whose writes the shell analysis cannot read before it runs: judged after it, and put back.
      { shell: `node -e "require('fs').writeFileSync('src/shell.ts', 'console.log(1);\\n')"` },
      { writeFile: { path: 'src/sum.ts', content: SUM } },
      { text: 'Done.' },
      // The agentStop hook's reason comes back as the next user message: the model writes the test it names.
      (turn: ModelTurn) => (/src\/sum\.ts/.test(lastMessage(turn)) ? { writeFile: { path: 'src/sum.test.ts', content: SUM_TEST } } : { text: 'not held' }),
      { text: 'Done, with its test.' },
    ];
    const result = await runScenario({ client: 'copilot', repo, steps, node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.problems, result.explain()).toEqual([]);
    expect(result.turns[1]?.toolResults[0]?.text, result.explain()).toMatch(/Denied by preToolUse hook: .*R4 NOLOG/s);
    expect(result.turns[2]?.toolResults[0]?.text, result.explain()).toMatch(/Tool result blocked: .*put those changes back/s);
    expect(lastMessage(result.turns[4] as ModelTurn), result.explain()).toMatch(/src\/sum\.ts/);
    expect(readIfExists(repo, 'src/debug.ts'), result.explain()).toBeUndefined();
    expect(readIfExists(repo, 'src/shell.ts'), result.explain()).toBeUndefined();
    expect(readIfExists(repo, 'src/sum.ts')).toBe(SUM);
    expect(readIfExists(repo, 'src/sum.test.ts')).toBe(SUM_TEST);
    expect(gitStatus(repo).filter((line) => line.includes('src/'))).toEqual(['?? src/sum.test.ts', '?? src/sum.ts']);
  });

  it('fails closed on Node 24: with holdfast moved away after install, a clean create is refused and does not land', async () => {
    const node = await nodeOfLine('node-24');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    holdfastOn(node, repo, 'install', 'copilot-cli');
    // The settings name no path; where this clone's hook finds holdfast is .holdfast/hook-location: moved away there.
    const location = join(repo, '.holdfast', 'hook-location');
    expect(installedHookNode(repo)).toBe(node);
    writeFileSync(location, `${node}\n${join(tmpdir(), 'holdfast-moved-away', 'hook.cjs')}\n`);
    const steps = [{ writeFile: { path: 'src/clean.ts', content: 'export const clean = 1;\n' } }, { text: 'I was refused.' }];
    const result = await runScenario({ client: 'copilot', repo, steps, node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    // Copilot CLI denies on the command's exit 2 and shows the model only that, not the command's stderr.
    expect(result.turns[1]?.toolResults[0]?.text, result.explain()).toBe('Denied by preToolUse hook: hook exited with code 2');
    expect(readIfExists(repo, 'src/clean.ts'), result.explain()).toBeUndefined();
  });
});
