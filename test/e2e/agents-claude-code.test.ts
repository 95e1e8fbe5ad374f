import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { gitStatus, makeGitRepo, readIfExists } from '@holdfast/lab/test-support';
import { SHIPPED_RULEBOOK, holdfastOn, installedHookNode, nodeOfLine } from '@holdfast/lab/test-support';
import type { ModelTurn } from '@holdfast/lab/test-support';

// The real Claude Code 2.1.197 against a scripted model on 127.0.0.1; holdfast from the built dist/.
// Issue 44: holdfast, the installed hook and the `node` first on Claude Code's PATH (a native binary) are on
// the Node line each title names; gate-guarantee-claude-code.test.ts splits its sessions between the lines too.
const DEBUG_TEST = 'src/debug.test.ts';
const DEBUG_CONTENT = "console.log('debug');\n";

/** The model writes a file with a console.log, then reports what it was told. */
const writesAConsoleLog = [
  { writeFile: { path: DEBUG_TEST, content: DEBUG_CONTENT } },
  (turn: ModelTurn) => ({ text: turn.toolResults[0]?.isError === true ? 'I was refused.' : 'Done.' }),
];

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });

/** holdfast's gate package in this workspace: what `npm install --save-dev holdfast` puts at node_modules/@holdfast/gate. */
const GATE_PACKAGE = realpathSync(fileURLToPath(new URL('../../packages/gate', import.meta.url)));

/**
 * A team's repository with its rulebook, the gate installed and the settings committed, cloned by a colleague
 * into another folder (a real `git clone`: no .holdfast/, no git hooks, nothing of the first machine but what
 * was committed). With `withHoldfast`, the clone has holdfast installed as npm links a package folder.
 */
function teamClone(withHoldfast: boolean, node: string): { origin: string; clone: string } {
  const origin = makeGitRepo({
    'src/greet.ts': 'export const greet = () => "hi";\n',
    'holdfast/rulebook.yaml': readFileSync(SHIPPED_RULEBOOK, 'utf8'),
    '.gitignore': 'node_modules/\n',
  });
  holdfastOn(node, origin, 'install', 'claude-code', '--rulebook', 'holdfast/rulebook.yaml');
  expect(installedHookNode(origin)).toBe(node);
  git(origin, 'add', '.claude/settings.json');
  git(origin, 'commit', '-q', '-m', 'holdfast gate');
  const clone = join(mkdtempSync(join(tmpdir(), 'holdfast-colleague-')), 'checkout');
  git(dirname(clone), 'clone', '-q', origin, clone);
  if (withHoldfast) {
    mkdirSync(join(clone, 'node_modules', '@holdfast'), { recursive: true });
    symlinkSync(GATE_PACKAGE, join(clone, 'node_modules', '@holdfast', 'gate'));
  }
  return { origin, clone };
}

// A client run takes a few seconds; a loaded 2-core box can make it many more.
describe('Claude Code, real binary', () => {
  it("held on Node 20, in a colleague's clone at another path: the committed settings name no path of the installing machine, and the gate denies a Write with a console.log, the model is told why, nothing lands", async () => {
    // The clone's hook finds holdfast in its node_modules and runs the first node on Claude Code's PATH: Node 20's.
    const node = await nodeOfLine('node-20');
    const { origin, clone: repo } = teamClone(true, node);
    const settings = readFileSync(join(repo, '.claude', 'settings.json'), 'utf8');
    // The one fixed path the command names is exec's broker mount, the same on every machine.
    const machineSpecific = settings.replaceAll(' /tmp/holdfast-gate ro', '');
    for (const machinePath of [origin, realpathSync(origin), process.execPath, GATE_PACKAGE, tmpdir()]) expect(machineSpecific).not.toContain(machinePath);
    expect(settings).toContain('\\"--rulebook\\" \\"holdfast/rulebook.yaml\\"');
    const result = await runScenario({ client: 'claude-code', repo, steps: writesAConsoleLog, node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.turns, result.explain()).toHaveLength(2);
    const told = result.turns[1]?.toolResults[0];
    expect(told, result.explain()).toMatchObject({ isError: true, text: expect.stringMatching(/R4 NOLOG/) });
    expect(readIfExists(repo, DEBUG_TEST), result.explain()).toBeUndefined();
    expect(gitStatus(repo).filter((line) => line.includes('src/'))).toEqual([]);
    expect(result.run.report).toMatchObject({ finalMessage: 'I was refused.', deniedCalls: 1 });
  });

  it('told on Node 24: with no gate installed the same Write lands', async () => {
    const node = await nodeOfLine('node-24');
    const repo = makeGitRepo({ 'src/greet.ts': 'export const greet = () => "hi";\n' });
    const result = await runScenario({ client: 'claude-code', repo, steps: writesAConsoleLog, node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(result.turns[1]?.toolResults[0]?.isError, result.explain()).toBe(false);
    expect(readIfExists(repo, DEBUG_TEST)).toBe(DEBUG_CONTENT);
    expect(gitStatus(repo)).toEqual([`?? ${DEBUG_TEST}`]);
    expect(result.run.report).toMatchObject({ turns: 2, finalMessage: 'Done.', ending: 'success', deniedCalls: 0 });
  });

  it('a clone without holdfast, installed and run on Node 24: the gate refuses the Write and tells the model what to install, nothing lands', async () => {
    const node = await nodeOfLine('node-24');
    const { clone: repo } = teamClone(false, node);
    const result = await runScenario({ client: 'claude-code', repo, steps: writesAConsoleLog, node });
    expect(result.run.exitCode, result.explain()).toBe(0);
    const told = result.turns[1]?.toolResults[0];
    expect(told, result.explain()).toMatchObject({ isError: true, text: expect.stringContaining('no holdfast for this project') });
    expect(told?.text).toContain('`npm install --save-dev holdfast`');
    expect(told?.text).toContain('`npx holdfast install claude-code`');
    expect(readIfExists(repo, DEBUG_TEST), result.explain()).toBeUndefined();
  });
});
