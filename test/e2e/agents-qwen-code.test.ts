import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { gitStatus, holdfastOn, installedHookNode, makeGitRepo, nodeOfLine, readIfExists } from '@holdfast/lab/test-support';
import type { ModelTurn } from '@holdfast/lab/test-support';
import { RED_TEAM_CLIENTS, redTeamCases } from './agent-redteam-routes.js';

// The real Qwen Code 0.24.4 on the agent cache's Node 24 (it needs Node 22 or newer), against a scripted
// OpenAI-compatible server (chat completions) on 127.0.0.1; holdfast from the built dist/. Issue 44: holdfast
// and the installed hook run on the Node line each title names, Node 20 or Node 24 (each a deny, a put-back
// and a clean call let through).
const ENTRY = fileURLToPath(new URL('../../packages/gate/dist/hook-bundle/hook.cjs', import.meta.url));
const SUM = 'export const sum = (a: number, b: number) => a + b;\n';
const SUM_TEST = "import { sum } from './sum';\nexport const checked = sum(1, 2);\n";

/** What the last message of a request says (Qwen Code sends a Stop hook's reason as the next user message). */
function lastMessage(turn: ModelTurn): string {
  const messages = Array.isArray(turn.body.messages) ? (turn.body.messages as unknown[]) : [];
  return JSON.stringify(messages.at(-1) ?? '');
}

// A client run takes several seconds; a loaded 2-core box can make it a minute or more.
describe('Qwen Code, real binary', { timeout: 300_000 }, () => {
  // Issue 44's red team: every route in one session, held and told (test/e2e/agent-redteam-routes.ts).
  redTeamCases(RED_TEAM_CLIENTS['qwen-code'], { held: 'node-24', told: 'node-24' });

  it('held, the hook on Node 20 (the client on Node 24): a denied write_file never lands, a shell write is put back, Stop holds the turn until the new module has its test', async () => {
    const node = await nodeOfLine('node-20');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    holdfastOn(node, repo, 'install', 'qwen-code');
    expect(installedHookNode(repo)).toBe(node);
    const settings = readFileSync(join(repo, '.qwen', 'settings.json'), 'utf8');
    const steps = [
      { writeFile: { path: 'src/debug.ts', content: "console.log('debug');\n" } },
      // A command whose writes the shell analysis cannot read before it runs: judged after it, and put back.
      { shell: `node -e "require('fs').writeFileSync('src/shell.ts', 'console.log(1);\\n')"` },
      { writeFile: { path: 'src/sum.ts', content: SUM } },
      { text: 'Done.' },
      // The Stop hook's reason comes back as the next prompt: the model writes the test it names.
      (turn: ModelTurn) => (/src\/sum\.ts/.test(lastMessage(turn)) ? { writeFile: { path: 'src/sum.test.ts', content: SUM_TEST } } : { text: 'not held' }),
      { text: 'Done, with its test.' },
    ];
    const result = await runScenario({ client: 'qwen-code', repo, steps, timeoutMs: 280_000 });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.problems, result.explain()).toEqual([]);
    expect(result.turns[1]?.toolResults[0]?.text, result.explain()).toMatch(/R4 NOLOG/);
    expect(result.turns[2]?.toolResults[0]?.text, result.explain()).toMatch(/put those changes back/);
    expect(lastMessage(result.turns[4] as ModelTurn), result.explain()).toMatch(/src\/sum\.ts/);
    expect(readIfExists(repo, 'src/debug.ts'), result.explain()).toBeUndefined();
    expect(readIfExists(repo, 'src/shell.ts'), result.explain()).toBeUndefined();
    expect(readIfExists(repo, 'src/sum.ts')).toBe(SUM);
    expect(readIfExists(repo, 'src/sum.test.ts')).toBe(SUM_TEST);
    expect(gitStatus(repo).filter((line) => line.includes('src/'))).toEqual(['?? src/sum.test.ts', '?? src/sum.ts']);
    // Qwen Code leaves the settings install wrote as they are (it writes its settings version into a file without one).
    expect(readFileSync(join(repo, '.qwen', 'settings.json'), 'utf8')).toBe(settings);
    expect(result.run.report).toMatchObject({ finalMessage: 'Done, with its test.', ending: 'success' });
    // The room's reader: Qwen Code's own count of the hook's refusals (the first write), and its tokens.
    expect(result.run.report.deniedCalls, result.explain()).toBeGreaterThan(0);
    expect(result.run.report.inputTokens, result.explain()).toBeGreaterThan(0);
    expect(result.run.report.outputTokens, result.explain()).toBeGreaterThan(0);
  });

  it('fails closed on Node 24: with holdfast moved away after install, a clean write_file is refused and does not land', async () => {
    const node = await nodeOfLine('node-24');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    holdfastOn(node, repo, 'install', 'qwen-code');
    expect(installedHookNode(repo)).toBe(node);
    const location = join(repo, '.holdfast', 'hook-location');
    writeFileSync(
      location,
      readFileSync(location, 'utf8')
        .split(ENTRY)
        .join(join(tmpdir(), 'holdfast-moved-away', 'hook.cjs')),
    );
    const steps = [{ writeFile: { path: 'src/clean.ts', content: 'export const clean = 1;\n' } }, { text: 'I was refused.' }];
    const result = await runScenario({ client: 'qwen-code', repo, steps, node, timeoutMs: 280_000 });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.turns[1]?.toolResults[0]?.text, result.explain()).toMatch(
      /holdfast gate: cannot run the hook: no holdfast for this project \(hook entry .*holdfast-moved-away.*\), so this call is refused/,
    );
    expect(readIfExists(repo, 'src/clean.ts'), result.explain()).toBeUndefined();
  });
});
