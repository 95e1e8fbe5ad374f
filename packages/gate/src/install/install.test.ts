import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateMain as main } from '../test-support/gate-main.js';
import { memoryIo } from '@holdfast/core/test-support';
import { defaultRulebookPath } from '@holdfast/core/rules';
import { HOOK_LOCATION_FILE, PROJECT_HOOK_ENTRY, agentHookCommand, gitHookLines, readInstalledHook } from './hook-command.js';
import { readOpenCodePluginCommand } from './opencode-plugin.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'holdfast-install-'));
}

function gitRepo(): string {
  const root = tempDir();
  execFileSync('git', ['init', '-q'], { cwd: root });
  return root;
}

/** The shipped rulebook, named as a project names its own rulebook: install never falls back to it. */
async function cli(cwd: string, ...args: string[]) {
  const io = memoryIo({ cwd, env: { PATH: process.env.PATH ?? '', HOLDFAST_RULEBOOK: defaultRulebookPath() } });
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('the installed hook command', () => {
  const target = { node: '/opt/node dir/bin/node', entry: `/srv/it's "here"/dist/hook-bundle/hook.cjs`, rulebook: 'rules $x.yaml' };

  it('names no path of the installing machine, and reads back agent, deadline, rulebook and mode, whatever the quoting', () => {
    const command = agentHookCommand('codex', target);
    expect(command).not.toContain(target.node);
    expect(command).not.toContain('/srv/');
    expect(readInstalledHook(command)).toEqual({
      node: undefined,
      entry: undefined,
      agent: 'codex',
      deadlineMs: 24000,
      rulebook: target.rulebook,
      observe: false,
    });
    expect(readInstalledHook(agentHookCommand('claude-code', { ...target, observe: true }))).toMatchObject({ agent: 'claude-code', observe: true });
    // The git hooks live in .git/hooks, never committed: they keep naming node and entry by path.
    expect(readInstalledHook(gitHookLines({ ...target, observe: true }))).toEqual({
      node: target.node,
      entry: target.entry,
      agent: 'git',
      deadlineMs: undefined,
      rulebook: target.rulebook,
      observe: false,
    });
    // An agent command of an older holdfast named both; doctor reads them to ask for a reinstall.
    const legacy = `/bin/sh -c ': holdfast gate v1; holdfast_node="/usr/bin/node"; holdfast_entry="/x/hook.cjs";if [ -x "$holdfast_node" ] && [ -f "$holdfast_entry" ]; then "$holdfast_node" "$holdfast_entry" "claude-code" "--deadline-ms" "24000"; fi'`;
    expect(readInstalledHook(legacy)).toMatchObject({ node: '/usr/bin/node', entry: '/x/hook.cjs', agent: 'claude-code' });
  });

  /** A hook entry that prints its arguments and a tag, written at `path` (`node` stands in for the hook). */
  function fakeEntry(path: string, tag: string): string {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `process.stdout.write(JSON.stringify([${JSON.stringify(tag)}, ...process.argv.slice(2)]));\n`);
    return path;
  }

  const run = (command: string, cwd: string, env: NodeJS.ProcessEnv = {}, input = '') =>
    spawnSync('/bin/sh', ['-c', command], { cwd, input, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } });

  it("finds holdfast in the project's node_modules with node from PATH, and runs it with its arguments verbatim under /bin/sh", () => {
    const root = tempDir();
    fakeEntry(join(root, PROJECT_HOOK_ENTRY), 'project');
    const result = run(agentHookCommand('codex', { rulebook: "rules 'x'.yaml" }), root);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(['project', 'codex', '--deadline-ms', '24000', '--rulebook', "rules 'x'.yaml"]);
    // Claude Code: the project root is CLAUDE_PROJECT_DIR, wherever the hook runs; a holdfast planted in a
    // subfolder the agent made is not looked at.
    const sub = join(root, 'sub');
    fakeEntry(join(sub, PROJECT_HOOK_ENTRY), 'planted');
    expect(JSON.parse(run(agentHookCommand('claude-code', { rulebook: undefined }), sub, { CLAUDE_PROJECT_DIR: root }).stdout)[0]).toBe('project');
  });

  it("takes this clone's .holdfast/hook-location before the project's node_modules; the environment's entry only under exec's mount", () => {
    const root = tempDir();
    fakeEntry(join(root, PROJECT_HOOK_ENTRY), 'planted');
    const recorded = fakeEntry(join(tempDir(), `it's "a" $dir`, 'hook.cjs'), 'recorded');
    mkdirSync(join(root, '.holdfast'));
    writeFileSync(join(root, HOOK_LOCATION_FILE), `${process.execPath}\n${recorded}\n`);
    const command = agentHookCommand('gemini-cli', { rulebook: undefined });
    expect(JSON.parse(run(command, root).stdout)[0]).toBe('recorded');
    const exec = fakeEntry(join(tempDir(), 'hook.cjs'), 'exec');
    // Outside exec (no read-only broker mount here) a variable a login profile could set is not believed.
    expect(JSON.parse(run(command, root, { HOLDFAST_HOOK_ENTRY: exec, HOLDFAST_HOOK_NODE: process.execPath }).stdout)[0]).toBe('recorded');
    // A recorded holdfast that is gone refuses: it never falls back to what node_modules holds.
    writeFileSync(join(root, HOOK_LOCATION_FILE), `${process.execPath}\n/gone/hook.cjs\n`);
    const gone = run(command, root);
    expect(gone.status).toBe(2);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toMatch(/cannot run the hook: no holdfast for this project \(hook entry \/gone\/hook.cjs/);
  });

  it('refuses every call (exit 2) when it finds no holdfast, naming what to install or run; lets Stop through', () => {
    const root = tempDir();
    for (const agent of ['claude-code', 'codex', 'gemini-cli', 'qwen-code'] as const) {
      const command = agentHookCommand(agent, { rulebook: undefined });
      const refused = run(command, root, {}, '{"hook_event_name":"PreToolUse"}');
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`hook entry ${join(root, PROJECT_HOOK_ENTRY)}`);
      expect(refused.stderr).toContain('so this call is refused');
      expect(refused.stderr).toContain('`npm install --save-dev holdfast`');
      expect(refused.stderr).toContain(`\`npx holdfast install ${agent}\``);
      expect(refused.stderr).not.toMatch(/HOLDFAST_GATE|bypass|switch off|disable/i);
      const stop = run(command, root, {}, `{"hook_event_name":"${agent === 'gemini-cli' ? 'AfterAgent' : 'Stop'}"}`);
      expect(stop.status).toBe(0);
      expect(stop.stderr).toMatch(/every tool call is refused until it is there/);
    }
    // No node on PATH: the same refusal, naming it.
    fakeEntry(join(root, PROJECT_HOOK_ENTRY), 'project');
    const noNode = spawnSync('/bin/sh', ['-c', agentHookCommand('codex', { rulebook: undefined })], {
      cwd: root,
      input: '',
      encoding: 'utf8',
      env: { PATH: '/nonexistent' },
    });
    expect(noNode.status).toBe(2);
    expect(noNode.stderr).toMatch(/node not on PATH/);
  });

  it.each([
    ['exit 3', 'exit status 3 instead of deciding'],
    ['process.kill(process.pid, "SIGKILL")', 'exit status 137 instead of deciding'],
  ])('turns a hook that does %s into a block (exit 2) with a message', (body, message) => {
    const root = tempDir();
    const entry = join(root, 'hook.mjs');
    writeFileSync(entry, body.startsWith('exit') ? `process.exit(${body.slice(5)});\n` : `${body};\n`);
    mkdirSync(join(root, '.holdfast'));
    writeFileSync(join(root, HOOK_LOCATION_FILE), `${process.execPath}\n${entry}\n`);
    const result = run(agentHookCommand('codex', { rulebook: undefined }), root);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/HOLDFAST_GATE|bypass|switch off|disable/i);
  });
});

describe('holdfast install / uninstall claude-code', () => {
  it('registers one command for PreToolUse, PostToolUse and Stop, merges, is idempotent, and uninstall removes only its entries', async () => {
    const root = gitRepo();
    mkdirSync(join(root, '.claude'));
    const theirs = { model: 'opus', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh' }] }], SessionStart: [] } };
    writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify(theirs));
    const first = await cli(root, 'install', 'claude-code', '--rulebook', 'rules.yaml');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/claude-code: updated .claude\/settings.json/);
    expect(first.out).toMatch(/git: created .git\/hooks\/pre-commit/);
    expect(first.out).toMatch(/exclude: (created|updated) .git\/info\/exclude/);
    const settings = readJson(join(root, '.claude', 'settings.json'));
    expect(settings.model).toBe('opus');
    expect(settings.hooks.PreToolUse).toHaveLength(2);
    // Every tool but the read-only ones (tool-kinds.test.ts tests which names each matcher sends).
    expect(settings.hooks.PreToolUse[1].matcher).toMatch(/^\^\(\?!\(\?:Read\|/);
    expect(settings.hooks.PostToolUse[0].matcher).toMatch(/\|Write\|Edit\|MultiEdit\|NotebookEdit\)\$\)\.\*$/);
    expect(settings.hooks.PostToolUseFailure[0].matcher).toBe(settings.hooks.PostToolUse[0].matcher);
    expect(settings.hooks.Stop[0].matcher).toBeUndefined();
    const commands = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop'].map((event) => settings.hooks[event].at(-1).hooks[0]);
    expect(new Set(commands.map((hook: { command: string }) => hook.command)).size).toBe(1);
    expect(commands.every((hook: { timeout: number }) => hook.timeout === 30)).toBe(true);
    expect(readInstalledHook(commands[0].command)).toMatchObject({ node: undefined, agent: 'claude-code', deadlineMs: 24000 });
    expect(commands[0].command).toMatch(/"--rulebook" "rules\.yaml"/);
    expect((await cli(root, 'install', 'claude-code', '--rulebook', 'rules.yaml')).out).not.toMatch(/created|updated/);
    expect(readJson(join(root, '.claude', 'settings.json'))).toEqual(settings);
    expect(spawnSync('git', ['check-ignore', '-q', '.holdfast/audit.jsonl'], { cwd: root }).status).toBe(0);

    const removed = await cli(root, 'uninstall', 'claude-code');
    expect(removed.out).toMatch(/claude-code: updated/);
    expect(removed.out).toMatch(/git: removed/);
    expect(readJson(join(root, '.claude', 'settings.json'))).toEqual(theirs);
    expect(existsSync(join(root, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(spawnSync('git', ['check-ignore', '-q', '.holdfast/audit.jsonl'], { cwd: root }).status).toBe(1);
  });

  it('uninstall leaves the repository as install found it: no .holdfast/, no empty .claude/, nothing for git to show', async () => {
    const root = gitRepo();
    const status = () => spawnSync('git', ['status', '--porcelain', '--ignored', '--untracked-files=all'], { cwd: root, encoding: 'utf8' }).stdout;
    const before = status();
    expect((await cli(root, 'install', 'claude-code')).code).toBe(0);
    // What a session leaves behind in the clone.
    mkdirSync(join(root, '.holdfast', 'sessions'), { recursive: true });
    writeFileSync(join(root, '.holdfast', 'audit.jsonl'), '{}\n');
    const removed = await cli(root, 'uninstall', 'claude-code');
    expect(removed.out).toMatch(/claude-code: removed .claude\/settings.json .*\.claude\/ held nothing else and is removed too/);
    expect(removed.out).toMatch(/state: removed .holdfast\//);
    expect(existsSync(join(root, '.claude'))).toBe(false);
    expect(existsSync(join(root, '.holdfast'))).toBe(false);
    expect(status()).toBe(before);
  });

  it('with --no-git installs only the agent gate, even outside a git repository', async () => {
    const root = tempDir();
    const result = await cli(root, 'install', 'claude-code', '--no-git');
    expect(result.code).toBe(0);
    expect(result.out).not.toMatch(/^git:/m);
    expect(existsSync(join(root, '.claude', 'settings.json'))).toBe(true);
  });

  it('refuses an agent gate with the git gate outside a git repository, saying how to proceed', async () => {
    const result = await cli(tempDir(), 'install', 'claude-code');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/not a git repository; run `git init` first.*--no-git/);
  });

  it('refuses to overwrite settings that are not JSON', async () => {
    const root = gitRepo();
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.json'), '{ nope');
    const result = await cli(root, 'install', 'claude-code');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/not valid JSON/);
  });

  it('replaces a hook an older holdfast installed instead of adding a second one', async () => {
    const root = gitRepo();
    mkdirSync(join(root, '.claude'));
    const old = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash',
            hooks: [{ type: 'command', command: '/usr/bin/node /x/bin/holdfast.js hook claude-code', timeout: 30 }],
          },
        ],
      },
    };
    writeFileSync(join(root, '.claude', 'settings.json'), JSON.stringify(old));
    await cli(root, 'install', 'claude-code');
    const settings = readJson(join(root, '.claude', 'settings.json'));
    expect(settings.hooks.PreToolUse).toHaveLength(1);
    expect(readInstalledHook(settings.hooks.PreToolUse[0].hooks[0].command)).toBeDefined();
  });
});

describe('holdfast install codex', () => {
  it('writes .codex/hooks.json for the three events, explains trust, and removes the file again when it held only holdfast', async () => {
    const root = gitRepo();
    const installed = await cli(root, 'install', 'codex');
    expect(installed.out).toMatch(/codex: created .codex\/hooks.json/);
    expect(installed.out).toMatch(/Codex runs project hooks only after you trust them/);
    expect(installed.out).toMatch(/holdfast install codex --trust/);
    expect(installed.out).not.toMatch(/codex_hooks/);
    const hooks = readJson(join(root, '.codex', 'hooks.json'));
    expect(hooks.hooks.PreToolUse.map((group: { matcher: string }) => group.matcher)).toEqual(['Bash|shell|exec_command|apply_patch', '^mcp__.*']);
    expect(hooks.hooks.PostToolUse.map((group: { matcher: string }) => group.matcher)).toEqual(['Bash|shell|exec_command', '^mcp__.*']);
    expect(hooks.hooks.Stop[0].hooks[0].command).toBe(hooks.hooks.PreToolUse[0].hooks[0].command);
    expect((await cli(root, 'uninstall', 'codex')).out).toMatch(/codex: removed/);
    expect(existsSync(join(root, '.codex', 'hooks.json'))).toBe(false);
    expect(existsSync(join(root, '.codex'))).toBe(false);
  });

  it('--trust needs a codex binary and says how to name one', async () => {
    const result = await cli(gitRepo(), 'install', 'codex', '--trust', '--codex', '/nonexistent/codex');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/\/nonexistent\/codex is not an executable; pass --codex PATH/);
  });
});

describe('holdfast install gemini-cli', () => {
  it('writes .gemini/settings.json for BeforeTool, AfterTool and AfterAgent with the timeout in milliseconds, keeps other settings, doctor reads it, uninstall removes only its entries', async () => {
    const root = gitRepo();
    mkdirSync(join(root, '.gemini'));
    writeFileSync(join(root, '.gemini', 'settings.json'), `${JSON.stringify({ general: { vimMode: true } })}\n`);
    expect((await cli(root, 'install', 'gemini-cli')).out).toMatch(/gemini-cli: updated .gemini\/settings.json/);
    const settings = readJson(join(root, '.gemini', 'settings.json'));
    expect(Object.keys(settings.hooks)).toEqual(['BeforeTool', 'AfterTool', 'AfterAgent']);
    const handler = settings.hooks.BeforeTool[0].hooks[0];
    expect(handler.timeout).toBe(30_000);
    expect(readInstalledHook(handler.command)).toMatchObject({ agent: 'gemini-cli', deadlineMs: 24000 });
    expect(new RegExp(settings.hooks.BeforeTool[0].matcher).test('write_file')).toBe(true);
    expect(new RegExp(settings.hooks.BeforeTool[0].matcher).test('read_file')).toBe(false);
    expect(new RegExp(settings.hooks.AfterTool[0].matcher).test('run_shell_command')).toBe(true);
    expect(new RegExp(settings.hooks.AfterTool[0].matcher).test('write_file')).toBe(false);
    expect((await cli(root, 'install', 'gemini-cli')).out).toMatch(/unchanged/);
    const doctor = await cli(root, 'doctor');
    expect(doctor.out).toMatch(/timeout 30 s, internal deadline 24000 ms/);
    expect(doctor.out).toMatch(/hook registered for AfterAgent/);
    expect((await cli(root, 'uninstall', 'gemini-cli')).out).toMatch(/gemini-cli: updated/);
    expect(readJson(join(root, '.gemini', 'settings.json'))).toEqual({ general: { vimMode: true } });
  });
});

describe('holdfast install qwen-code', () => {
  it('writes .qwen/settings.json for PreToolUse, PostToolUse, PostToolUseFailure and Stop with the timeout in seconds, keeps other settings, doctor reads it, uninstall removes only its entries', async () => {
    const root = gitRepo();
    mkdirSync(join(root, '.qwen'));
    writeFileSync(join(root, '.qwen', 'settings.json'), `${JSON.stringify({ general: { vimMode: true } })}\n`);
    expect((await cli(root, 'install', 'qwen-code')).out).toMatch(/qwen-code: updated .qwen\/settings.json/);
    const settings = readJson(join(root, '.qwen', 'settings.json'));
    expect(Object.keys(settings.hooks)).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop']);
    // Qwen Code's settings version, which it would otherwise write into the file itself when it starts.
    expect(settings.$version).toBe(4);
    const handler = settings.hooks.PreToolUse[0].hooks[0];
    expect(handler.timeout).toBe(30);
    expect(readInstalledHook(handler.command)).toMatchObject({ agent: 'qwen-code', deadlineMs: 24000 });
    expect(new RegExp(settings.hooks.PreToolUse[0].matcher).test('write_file')).toBe(true);
    expect(new RegExp(settings.hooks.PreToolUse[0].matcher).test('agent')).toBe(true);
    expect(new RegExp(settings.hooks.PreToolUse[0].matcher).test('read_file')).toBe(false);
    expect(new RegExp(settings.hooks.PostToolUseFailure[0].matcher).test('run_shell_command')).toBe(true);
    expect(new RegExp(settings.hooks.PostToolUse[0].matcher).test('edit')).toBe(false);
    expect((await cli(root, 'install', 'qwen-code')).out).toMatch(/unchanged/);
    const doctor = await cli(root, 'doctor');
    expect(doctor.out).toMatch(/timeout 30 s, internal deadline 24000 ms/);
    expect(doctor.out).toMatch(/hook registered for Stop/);
    expect((await cli(root, 'uninstall', 'qwen-code')).out).toMatch(/qwen-code: updated/);
    // The version stays: Qwen Code writes it itself, so removing it would only change the file again at its next start.
    expect(readJson(join(root, '.qwen', 'settings.json'))).toEqual({ general: { vimMode: true }, $version: 4 });
    // A file install made holds nothing else: uninstall removes it and the folder.
    const fresh = gitRepo();
    await cli(fresh, 'install', 'qwen-code');
    expect(readJson(join(fresh, '.qwen', 'settings.json')).$version).toBe(4);
    expect((await cli(fresh, 'uninstall', 'qwen-code')).out).toMatch(/qwen-code: removed/);
    expect(existsSync(join(fresh, '.qwen'))).toBe(false);
  });
});

describe('holdfast install opencode', () => {
  it('writes .opencode/plugin/holdfast-gate.js with the hook command, refuses a file it did not write, doctor reads it, uninstall removes it and the folders it made', async () => {
    const root = gitRepo();
    expect((await cli(root, 'install', 'opencode')).out).toMatch(/opencode: created .opencode\/plugin\/holdfast-gate.js/);
    const plugin = readFileSync(join(root, '.opencode', 'plugin', 'holdfast-gate.js'), 'utf8');
    const command = readOpenCodePluginCommand(plugin);
    expect(command === undefined ? undefined : readInstalledHook(command)).toMatchObject({ agent: 'opencode', deadlineMs: 24000 });
    expect((await cli(root, 'install', 'opencode')).out).toMatch(/opencode: unchanged/);
    const doctor = await cli(root, 'doctor');
    expect(doctor.out).toMatch(/timeout 30 s, internal deadline 24000 ms/);
    expect(doctor.out).toMatch(/the hook command starts and answers/);
    expect((await cli(root, 'uninstall', 'opencode')).out).toMatch(/opencode: removed/);
    expect(existsSync(join(root, '.opencode'))).toBe(false);
    mkdirSync(join(root, '.opencode', 'plugin'), { recursive: true });
    writeFileSync(join(root, '.opencode', 'plugin', 'holdfast-gate.js'), 'export const Mine = async () => ({});\n');
    const refused = await cli(root, 'install', 'opencode');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/holdfast did not write it/);
  });
});

describe('holdfast install copilot-cli', () => {
  it("writes .github/hooks/holdfast.json in Copilot CLI's own format (flat entries, bash, timeoutSec), doctor reads it, uninstall removes the file and the folders it made", async () => {
    const root = gitRepo();
    mkdirSync(join(root, '.github', 'workflows'), { recursive: true });
    expect((await cli(root, 'install', 'copilot-cli')).out).toMatch(/copilot-cli: created .github\/hooks\/holdfast.json/);
    const settings = readJson(join(root, '.github', 'hooks', 'holdfast.json'));
    expect(settings.version).toBe(1);
    expect(Object.keys(settings.hooks)).toEqual(['preToolUse', 'postToolUse', 'postToolUseFailure', 'agentStop']);
    const [entry] = settings.hooks.preToolUse;
    expect(entry).toMatchObject({ type: 'command', timeoutSec: 30 });
    expect(entry.matcher).toBeUndefined();
    expect(readInstalledHook(entry.bash)).toMatchObject({ agent: 'copilot-cli', deadlineMs: 24000 });
    expect((await cli(root, 'install', 'copilot-cli')).out).toMatch(/unchanged/);
    const doctor = await cli(root, 'doctor');
    expect(doctor.out).toMatch(/timeout 30 s, internal deadline 24000 ms/);
    expect(doctor.out).toMatch(/hook registered for agentStop/);
    expect(doctor.out).toMatch(/the hook command starts and answers/);
    // Someone else's hook in the same file stays; then the file holds only that.
    const theirs = { type: 'command', bash: './audit.sh', timeoutSec: 5 };
    writeFileSync(join(root, '.github', 'hooks', 'holdfast.json'), JSON.stringify({ ...settings, hooks: { ...settings.hooks, sessionStart: [theirs] } }));
    expect((await cli(root, 'uninstall', 'copilot-cli')).out).toMatch(/copilot-cli: updated/);
    expect(readJson(join(root, '.github', 'hooks', 'holdfast.json'))).toEqual({ version: 1, hooks: { sessionStart: [theirs] } });
    expect((await cli(root, 'install', 'copilot-cli')).out).toMatch(/copilot-cli: updated/);
    writeFileSync(join(root, '.github', 'hooks', 'holdfast.json'), JSON.stringify(settings));
    expect((await cli(root, 'uninstall', 'copilot-cli')).out).toMatch(/copilot-cli: removed .*held nothing else/);
    expect(existsSync(join(root, '.github', 'hooks'))).toBe(false);
    expect(existsSync(join(root, '.github', 'workflows'))).toBe(true);
  });

  it('the command it installs lets agentStop through when holdfast is gone, and refuses a tool call whose arguments name a stopReason', () => {
    const command = agentHookCommand('copilot-cli', { rulebook: undefined });
    // A clone with no holdfast of its own and none recorded: the command finds nothing.
    const clone = gitRepo();
    const env = { PATH: process.env.PATH ?? '' };
    const run = (payload: object) => spawnSync('/bin/sh', ['-c', command], { cwd: clone, env, input: JSON.stringify(payload), encoding: 'utf8' }).status;
    expect(run({ sessionId: 's', timestamp: 1, cwd: '/p', transcriptPath: '/t', stopReason: 'end_turn', stop_hook_active: false })).toBe(0);
    expect(run({ sessionId: 's', timestamp: 1, cwd: '/p', toolName: 'bash', toolArgs: { stopReason: 'end_turn', command: 'ls' } })).toBe(2);
    expect(run({ sessionId: 's', timestamp: 1, cwd: '/p', toolName: 'create', toolArgs: { path: '/p/a', file_text: '"stopReason": 1' } })).toBe(2);
  });
});

describe('holdfast install git', () => {
  it('adds a block after the shebang of an existing hook, idempotently, and uninstall keeps the rest', async () => {
    const root = gitRepo();
    const hookPath = join(root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hookPath, '#!/bin/sh\nexec ./their-check.sh\n');
    expect((await cli(root, 'install', 'git')).out).toMatch(/git: updated/);
    const installed = readFileSync(hookPath, 'utf8');
    expect(installed.indexOf('holdfast gate')).toBeLessThan(installed.indexOf('exec ./their-check.sh'));
    expect(statSync(hookPath).mode & 0o111).not.toBe(0);
    expect((await cli(root, 'install', 'git')).out).toMatch(/git: unchanged/);
    await cli(root, 'uninstall', 'git');
    expect(readFileSync(hookPath, 'utf8')).toBe('#!/bin/sh\nexec ./their-check.sh\n');
  });

  it('refuses outside a git repository', async () => {
    expect((await cli(tempDir(), 'install', 'git')).code).toBe(2);
  });
});
