import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { gitStatus, holdfastOn, installedHookNode, makeGitRepo, nodeOfLine, readIfExists } from '@holdfast/lab/test-support';
import { RED_TEAM_CLIENTS, redTeamCases } from './agent-redteam-routes.js';

// The real OpenCode 1.18.33 (its native binary) against a scripted OpenAI-compatible server (chat
// completions) on 127.0.0.1, gated by holdfast's plugin in .opencode/plugin/; holdfast from the built dist/.
// Issue 44: holdfast and the hook the plugin runs (and the `node` first on OpenCode's PATH) are on the Node
// line each title names: held on Node 20 and Node 24, each a deny, a put-back and a clean call let through.
const GREET = 'export const greet = () => "hi";\n';

// One client start for every assertion: a run takes tens of seconds, more on a loaded 2-core box.
describe('OpenCode, real binary', { timeout: 300_000 }, () => {
  // OpenCode cannot hold the turn (the layer table): what a process wrote after the last call stays in the tree, never in a commit.
  redTeamCases(RED_TEAM_CLIENTS['opencode'], { held: 'node-24', told: 'node-20' }, ['src/b1/late.ts', 'src/b2/late.ts']);

  it('held on Node 20: a denied write never lands, a shell write is put back, a clean edit lands', async () => {
    const node = await nodeOfLine('node-20');
    const repo = makeGitRepo({ 'src/greet.ts': GREET });
    holdfastOn(node, repo, 'install', 'opencode');
    expect(installedHookNode(repo)).toBe(node);
    const steps = [
      { writeFile: { path: 'src/debug.ts', content: "console.log('debug');\n" } },
      // A command whose writes the shell analysis cannot read before it runs: judged after it, and put back.
      { shell: `node -e "require('fs').writeFileSync('src/shell.ts', 'console.log(1);\\n')"` },
      { editFile: { path: 'src/greet.ts', oldText: '"hi"', newText: '"hello"' } },
      { text: 'Done.' },
    ];
    const result = await runScenario({ client: 'opencode', repo, steps, node, timeoutMs: 280_000 });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.problems, result.explain()).toEqual([]);
    // The plugin's thrown Error is what the model reads for the refused call.
    expect(result.turns[1]?.toolResults[0]?.text, result.explain()).toMatch(/R4 NOLOG/);
    expect(result.turns[2]?.toolResults[0]?.text, result.explain()).toMatch(/put those changes back/);
    expect(readIfExists(repo, 'src/debug.ts'), result.explain()).toBeUndefined();
    expect(readIfExists(repo, 'src/shell.ts'), result.explain()).toBeUndefined();
    expect(readIfExists(repo, 'src/greet.ts'), result.explain()).toBe(GREET.replace('"hi"', '"hello"'));
    expect(gitStatus(repo).filter((line) => line.includes('src/'))).toEqual([' M src/greet.ts']);
    expect(result.run.report).toMatchObject({ finalMessage: 'Done.', ending: 'success' });
    expect(result.run.report.deniedCalls, result.explain()).toBe(1);
    expect(result.run.report.inputTokens, result.explain()).toBeGreaterThan(0);
  });
});
