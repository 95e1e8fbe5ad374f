import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { NODE_LINES, agentCacheRoot, agentClientFolder, ensureAgentClient } from '@holdfast/lab/harness';
import { SHIPPED_RULEBOOK } from '@holdfast/lab/test-support';
import { claude, codex } from '@holdfast/gate/test-support';

// Runs the built CLI (npm test builds dist/ first), exactly as an agent's hook runner would.
const BIN = fileURLToPath(new URL('../../packages/cli/bin/holdfast.js', import.meta.url));
const ENTRY = fileURLToPath(new URL('../../packages/gate/dist/hook-bundle/hook.cjs', import.meta.url));

/**
 * The Node lines the hook runs on here: the one running the tests (Node 20 in CI) and Node 24 from the
 * agent cache (the global setup obtains it from the npm registry, as it does the agents). The blocks
 * that run the CLI and the installed hook as real processes run once per line.
 */
const NODES: readonly (readonly [string, string])[] = [
  [`Node ${process.versions.node.split('.')[0] ?? '?'}`, process.execPath],
  ['Node 24', join(agentClientFolder(NODE_LINES['node-24'], agentCacheRoot()), NODE_LINES['node-24'].bin)],
];
/** The node of the block running now (set by its beforeAll). */
let hookNode = process.execPath;

function spawnHook(agent: string, input: string, cwd: string, flags: string[] = []) {
  const result = spawnSync(hookNode, [BIN, 'hook', agent, ...flags], {
    input,
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOLDFAST_RULEBOOK: SHIPPED_RULEBOOK },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'holdfast-e2e-gate-'));
  mkdirSync(join(root, 'src'));
  return root;
}

describe.each(NODES)('the gate as a real process on %s', (_line, node) => {
  beforeAll(() => {
    hookNode = node;
  });

  it('claude-code: refuses a console.log and a write outside src/ with a JSON deny, allows a clean write silently', () => {
    const root = project();
    const log = spawnHook('claude-code', claude.write(root, 's', 'src/a.test.ts', 'console.log(1);\n'), root);
    expect(log.code).toBe(0);
    expect(JSON.parse(log.out).hookSpecificOutput).toMatchObject({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(/R4 NOLOG/),
    });
    const outside = spawnHook('claude-code', claude.write(root, 's', 'README.md', '# hi\n'), root);
    expect(JSON.parse(outside.out).hookSpecificOutput.permissionDecisionReason).toMatch(/R2 SCOPE/);
    expect(spawnHook('claude-code', claude.write(root, 's', 'src/a.test.ts', 'export {};\n'), root)).toEqual({ code: 0, out: '', err: '' });
    const audit = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { decision: string; rule: string | null });
    expect(audit.map((entry) => [entry.decision, entry.rule])).toEqual([
      ['deny', 'R4'],
      ['deny', 'R2'],
      ['allow', null],
    ]);
  });

  it('codex: refuses with exit 2 and a reason on stderr', () => {
    const root = project();
    const result = spawnHook('codex', codex.applyPatch(root, 's', '*** Begin Patch\n*** Add File: lib/a.ts\n+export {};\n*** End Patch\n'), root);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/R2 SCOPE/);
  });

  it('claude-code: a module written before its test lands; the Stop event sends the agent back until the test exists', () => {
    const root = project();
    const stop = JSON.stringify({
      session_id: 't',
      transcript_path: null,
      cwd: root,
      permission_mode: 'acceptEdits',
      hook_event_name: 'Stop',
      stop_hook_active: false,
    });
    expect(spawnHook('claude-code', claude.write(root, 't', 'src/a.ts', 'export const a = 1;\n'), root)).toEqual({ code: 0, out: '', err: '' });
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    const blocked = spawnHook('claude-code', stop, root);
    expect(blocked.code).toBe(0);
    expect(JSON.parse(blocked.out)).toEqual({ decision: 'block', reason: expect.stringMatching(/R3 TESTS: write to "src\/a\.ts".*"src\/a\.test\.ts"/s) });
    expect(spawnHook('claude-code', claude.write(root, 't', 'src/a.test.ts', 'import "./a";\n'), root).out).toBe('');
    expect(spawnHook('claude-code', stop, root)).toEqual({ code: 0, out: '', err: '' });
  });

  it('--observe never blocks and records what the gate would have done', () => {
    const root = project();
    expect(
      spawnHook('codex', codex.applyPatch(root, 's', '*** Begin Patch\n*** Add File: lib/a.ts\n+console.log(1);\n*** End Patch\n'), root, ['--observe']),
    ).toEqual({ code: 0, out: '', err: '' });
    const [entry] = readFileSync(join(root, '.holdfast', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { decision: string; verdict: string });
    expect(entry).toMatchObject({ decision: 'observed', verdict: 'deny' });
  });

  it('fails closed on garbage input', () => {
    const root = project();
    expect(JSON.parse(spawnHook('claude-code', '\u0000garbage', root).out).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(spawnHook('codex', '', root).code).toBe(2);
  });
});

function gitProject(): string {
  const root = project();
  spawnSync('git', ['init', '-q'], { cwd: root });
  spawnSync('git', ['config', 'user.email', 'e2e@example.com'], { cwd: root });
  spawnSync('git', ['config', 'user.name', 'e2e'], { cwd: root });
  return root;
}

function holdfast(root: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  const result = spawnSync(hookNode, [BIN, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOLDFAST_RULEBOOK: SHIPPED_RULEBOOK, ...env },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** The command an installed agent config runs for PreToolUse. */
function installedCommand(root: string, file: string): string {
  return JSON.parse(readFileSync(join(root, file), 'utf8')).hooks.PreToolUse.at(-1).hooks[0].command as string;
}

/** As if holdfast had moved after install: the installed command names an entry that is gone. */
function moveHoldfast(text: string): string {
  return text.split(ENTRY).join(join(tmpdir(), 'holdfast-moved-away', 'dist', 'hook-bundle', 'hook.mjs'));
}

/** Claude Code runs a hook command with /bin/sh -c; Codex with $SHELL -lc. */
function runAs(agent: 'claude-code' | 'codex', command: string, input: string, cwd: string) {
  const result = spawnSync(agent === 'codex' ? '/bin/bash' : '/bin/sh', [agent === 'codex' ? '-lc' : '-c', command], {
    input,
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

const FORBIDDEN_ADVICE = /HOLDFAST_GATE|bypass|switch (it )?off|disable the gate/i;

describe.each(NODES)('the installed gate fails closed on %s', (_line, node) => {
  beforeAll(() => {
    hookNode = node;
  });

  it('claude-code and codex: the installed command decides through the hook entry, and a moved holdfast blocks (exit 2) saying how to reinstall', () => {
    const root = gitProject();
    expect(holdfast(root, {}, 'install', 'claude-code', 'codex').code).toBe(0);
    const clean = claude.write(root, 's', 'src/a.test.ts', 'export {};\n');
    const claudeCommand = installedCommand(root, '.claude/settings.json');
    expect(runAs('claude-code', claudeCommand, clean, root)).toEqual({ code: 0, out: '', err: '' });
    const denied = runAs('claude-code', claudeCommand, claude.write(root, 's', 'src/b.test.ts', 'console.log(1);\n'), root);
    expect(JSON.parse(denied.out).hookSpecificOutput.permissionDecisionReason).toMatch(/R4 NOLOG/);
    // The project has no holdfast of its own: this clone records where the installing one is.
    const location = join(root, '.holdfast', 'hook-location');
    expect(readFileSync(location, 'utf8').split('\n')[1]).toBe(ENTRY);
    // The record is the gate's own: the agent cannot point it at a holdfast of its own.
    const redirect = runAs('claude-code', claudeCommand, claude.write(root, 's', '.holdfast/hook-location', `${hookNode}\n/tmp/mine.cjs\n`), root);
    expect(JSON.parse(redirect.out).hookSpecificOutput.permissionDecisionReason).toMatch(/GATE TAMPER: write to "\.holdfast\/hook-location"/);
    writeFileSync(location, moveHoldfast(readFileSync(location, 'utf8')));

    for (const [agent, file, event] of [
      ['claude-code', '.claude/settings.json', clean],
      ['codex', '.codex/hooks.json', codex.applyPatch(root, 's', '*** Begin Patch\n*** Add File: src/c.ts\n+export {};\n*** End Patch\n')],
    ] as const) {
      expect(installedCommand(root, file)).not.toContain(root);
      const moved = runAs(agent, installedCommand(root, file), event, root);
      expect(moved.code).toBe(2);
      expect(moved.err).toMatch(
        /holdfast gate: cannot run the hook: no holdfast for this project \(hook entry .*holdfast-moved-away.*\), so this call is refused/,
      );
      expect(moved.err).toContain(`npx holdfast install ${agent}`);
      expect(moved.err).not.toMatch(FORBIDDEN_ADVICE);
      // Stop is let through (exit 0): a blocked Stop sends the agent back, and Codex loops on it forever.
      const stop = JSON.stringify({ session_id: 's', cwd: root, hook_event_name: 'Stop', stop_hook_active: false });
      const stopped = runAs(agent, installedCommand(root, file), stop, root);
      expect(stopped.code).toBe(0);
      expect(stopped.err).toMatch(
        /holdfast gate: cannot run the hook: no holdfast for this project \(hook entry .*holdfast-moved-away.*\); every tool call is refused/,
      );
    }
  });

  it('git: a moved holdfast refuses the commit with the same message', () => {
    const root = gitProject();
    expect(holdfast(root, {}, 'install', 'git').code).toBe(0);
    const hookPath = join(root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hookPath, moveHoldfast(readFileSync(hookPath, 'utf8')));
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    spawnSync('git', ['add', '-A'], { cwd: root });
    const commit = spawnSync('git', ['commit', '-qm', 'x'], { cwd: root, encoding: 'utf8' });
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toMatch(/cannot run the pre-commit gate: .* is missing, so the commit is refused/);
    expect(commit.stderr).not.toMatch(FORBIDDEN_ADVICE);
    expect(spawnSync('git', ['rev-parse', '--verify', 'HEAD'], { cwd: root }).status).not.toBe(0);
  });

  it('a decision that has not finished at its deadline is a deny (exit 2)', async () => {
    const root = project();
    // The event never ends (stdin stays open), so only the deadline can end the call.
    const child = spawn(hookNode, [ENTRY, 'codex', '--deadline-ms', '200'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.stdin.write('{"session_id":');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.destroy();
    expect(code).toBe(2);
    expect(err).toMatch(/did not finish within its deadline of 200 ms/);
  });
});

describe('holdfast doctor', () => {
  beforeAll(() => {
    hookNode = process.execPath;
  });

  it('exits 0 on a good install and 1 naming the missing hook entry after holdfast moved', () => {
    const root = gitProject();
    expect(holdfast(root, {}, 'install', 'claude-code').code).toBe(0);
    const good = holdfast(root, {}, 'doctor');
    expect(good.out).toMatch(/All good/);
    expect(good.code).toBe(0);
    const location = join(root, '.holdfast', 'hook-location');
    writeFileSync(location, moveHoldfast(readFileSync(location, 'utf8')));
    const moved = holdfast(root, {}, 'doctor', '--json');
    expect(moved.code).toBe(1);
    const failed = (JSON.parse(moved.out) as { checks: { ok: boolean; what: string; fix?: string }[] }).checks.filter((check) => !check.ok);
    expect(failed).toEqual([
      expect.objectContaining({
        what: expect.stringMatching(/the hook finds no holdfast: .*holdfast-moved-away.* \(from this clone's \.holdfast\/hook-location\) is missing/),
        fix: expect.stringMatching(/holdfast install claude-code/),
      }),
    ]);
  });

  it('exits 1 for an install from before MCP tools were judged, naming the events whose matchers are missing', () => {
    const root = gitProject();
    expect(holdfast(root, {}, 'install', 'claude-code').code).toBe(0);
    const settings = join(root, '.claude', 'settings.json');
    const config = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, { matcher?: string }[]> };
    // What holdfast installed before: the file tools and Bash before a call, Bash after it.
    const old: Record<string, string> = { PreToolUse: 'Write|Edit|MultiEdit|NotebookEdit|Bash', PostToolUse: 'Bash', PostToolUseFailure: 'Bash' };
    for (const [event, matcher] of Object.entries(old)) for (const group of config.hooks[event] ?? []) group.matcher = matcher;
    writeFileSync(settings, JSON.stringify(config));
    const result = holdfast(root, {}, 'doctor', '--json');
    expect(result.code).toBe(1);
    const failed = (JSON.parse(result.out) as { checks: { ok: boolean; what: string; fix?: string }[] }).checks.filter((check) => !check.ok);
    expect(failed.map((check) => check.what)).toEqual([
      'no holdfast hook for PreToolUse (every tool but the read-only ones)',
      'no holdfast hook for PostToolUse (Bash, MCP and other tools)',
      'no holdfast hook for PostToolUseFailure (Bash, MCP and other tools)',
    ]);
    expect(failed[0]?.fix).toMatch(/holdfast install claude-code/);
  });

  it('exits 1 when no gate is installed', () => {
    const result = holdfast(gitProject(), {}, 'doctor');
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/no holdfast gate is installed/);
  });

  // Codex itself is asked (codex app-server): the real binary, from the agent cache the tests fill.
  it('codex: says the hook is untrusted (exit 1) until `install codex --trust`, then all good', async () => {
    const codexBin = await ensureAgentClient('codex');
    const root = gitProject();
    const home = mkdtempSync(join(tmpdir(), 'holdfast-e2e-home-'));
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), `[projects.${JSON.stringify(root)}]\ntrust_level = "trusted"\n`);
    const env = { HOME: home };
    expect(holdfast(root, env, 'install', 'codex').code).toBe(0);
    const untrusted = holdfast(root, env, 'doctor', '--codex', codexBin);
    expect(untrusted.code).toBe(1);
    expect(untrusted.out).toMatch(/FAIL {2}Codex does not trust the hook .*preToolUse untrusted/);
    expect(untrusted.out).toMatch(/holdfast install codex --trust/);
    const trusted = holdfast(root, env, 'install', 'codex', '--trust', '--codex', codexBin);
    expect(trusted.out).toMatch(/codex: preToolUse hook trusted/);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toMatch(
      /\[hooks\.state\."[^"]*hooks\.json:pre_tool_use:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/,
    );
    const doctor = holdfast(root, env, 'doctor', '--codex', codexBin);
    expect(doctor.out).toMatch(/All good/);
    expect(doctor.code).toBe(0);
  });
});
