import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Rulebook } from '@holdfast/core/contract';
import { checkActions, loadRulebook } from '@holdfast/core/rules';
import { putBackGuardedAtTurnEnd } from './guarded-baseline.js';
import { checkChangesWith } from '../decide/check-changes.js';
import { answerPostToolUse } from '../hook/post-tool.js';
import { saveSessionState, sessionStatePath } from './session-state.js';
import { beforeShellCall } from './snapshot.js';
import { git, projectRepo } from '../test-support/git-repo.js';
import { claude } from '../test-support/payloads.js';
import { loadRulesEngine } from '../decide/rules-engine.js';
import { answerAgentHook } from '../hook/run-hook.js';

const NOW = () => new Date('2026-12-01T12:00:00Z');
const SETTINGS = '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"holdfast hook claude-code"}]}]}}\n';
const HOOK = '#!/bin/sh\nholdfast hook git\n';

let rulebook: Rulebook;
beforeAll(async () => {
  rulebook = await loadRulebook();
});

function gated(): { root: string; hook: string } {
  const root = projectRepo('holdfast-between-');
  mkdirSync(join(root, '.claude'), { recursive: true });
  writeFileSync(join(root, '.claude', 'settings.json'), SETTINGS);
  const hook = join(root, '.git', 'hooks', 'pre-commit');
  writeFileSync(hook, HOOK);
  chmodSync(hook, 0o755);
  return { root, hook };
}

/** One checked shell call that changes nothing: the check leaves the baseline the next call compares with. */
async function checkedCall(root: string, id: string): Promise<string> {
  beforeShellCall(root, 's1', id, NOW);
  return postCall(root, id);
}

async function postCall(root: string, id: string): Promise<string> {
  const event = JSON.stringify({
    session_id: 's1',
    cwd: root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'npm run build' },
    tool_response: { stdout: '', stderr: '' },
    tool_use_id: id,
  });
  const judge = checkChangesWith({ rulebook, checkActions, replay: () => ({ actions: [{ type: 'run', cmd: 'npm test' }], observed: new Map() }) });
  return (await answerPostToolUse('claude-code', event, { env: {}, now: NOW, judge })).stdout;
}

describe('guarded files changed between calls', () => {
  it('are put back before the next shell call, which names them', async () => {
    const { root, hook } = gated();
    expect(await checkedCall(root, 'toolu_1')).toBe('');
    // A process that outlived its call: the pre-commit hook switched off, the agent hooks emptied.
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    writeFileSync(join(root, '.claude', 'settings.json'), '{}\n');
    mkdirSync(join(root, '.codex'), { recursive: true });
    writeFileSync(join(root, '.codex', 'hooks.json'), '{}\n');
    const record = beforeShellCall(root, 's1', 'toolu_2', NOW);
    expect(record.betweenCalls).toEqual(['.claude/settings.json', '.codex/hooks.json', '.git/hooks/pre-commit']);
    expect(readFileSync(hook, 'utf8')).toBe(HOOK);
    expect(execFileSync('sh', ['-c', `test -x '${hook}' && echo executable`]).toString()).toBe('executable\n');
    expect(readFileSync(join(root, '.claude', 'settings.json'), 'utf8')).toBe(SETTINGS);
    expect(existsSync(join(root, '.codex', 'hooks.json'))).toBe(false);
    // The call's own check then compares with what was put back: nothing more to say.
    expect(record.guarded['.git/hooks/pre-commit']).toBeDefined();
  });

  it('are put back at the end of the turn; ordinary git config and granted permissions are left alone', async () => {
    const { root, hook } = gated();
    expect(await checkedCall(root, 'toolu_1')).toBe('');
    git(root, 'config', 'branch.main.remote', 'origin');
    writeFileSync(join(root, '.claude', 'settings.local.json'), '{"permissions":{"allow":["Bash(ls)"]}}\n');
    expect(putBackGuardedAtTurnEnd(root, NOW(), false)).toEqual([]);
    git(root, 'config', 'core.hooksPath', '/dev/null');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    expect(putBackGuardedAtTurnEnd(root, NOW(), true)).toEqual(['.git/config', '.git/hooks/pre-commit']);
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(putBackGuardedAtTurnEnd(root, NOW(), false)).toEqual(['.git/config', '.git/hooks/pre-commit']);
    expect(readFileSync(hook, 'utf8')).toBe(HOOK);
    expect(spawnSync('git', ['config', '--get', 'core.hooksPath'], { cwd: root }).status).toBe(1);
    expect(git(root, 'config', 'branch.main.remote')).toBe('origin');
  });

  it('a command that forges the session record is told, and the record is put back from its mirror', async () => {
    const { root } = gated();
    saveSessionState(root, 's1', { version: 1, created: ['src/new.ts'], runs: [] });
    const sealed = readFileSync(sessionStatePath(root, 's1'), 'utf8');
    beforeShellCall(root, 's1', 'toolu_1', NOW);
    writeFileSync(sessionStatePath(root, 's1'), JSON.stringify({ version: 1, created: [], runs: [{ cmd: 'npm test' }] }));
    const said = await postCall(root, 'toolu_1');
    expect(said).toMatch(/GATE TAMPER: the session record .*s1\.json was changed outside the gate and is put back/);
    expect(readFileSync(sessionStatePath(root, 's1'), 'utf8')).toBe(sealed);
  });

  it('are put back before a read-only shell call and before a file-editing tool, which are refused with the reason', async () => {
    const { root, hook } = gated();
    expect(await checkedCall(root, 'toolu_1')).toBe('');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    const readOnly = await preToolUse(claude.bash(root, 's1', 'ls src'));
    expect(readOnly).toMatch(/GATE TAMPER: \.git\/hooks\/pre-commit changed while no tool call was running .*This call was not run/);
    expect(readFileSync(hook, 'utf8')).toBe(HOOK);
    writeFileSync(join(root, '.claude', 'settings.json'), '{}\n');
    const write = await preToolUse(claude.write(root, 's1', 'src/a.ts', 'export const a = 1;\n'));
    expect(write).toMatch(/GATE TAMPER: \.claude\/settings\.json changed while no tool call was running/);
    expect(readFileSync(join(root, '.claude', 'settings.json'), 'utf8')).toBe(SETTINGS);
    // The same content under a new identity (touched, copied over) is no change: the call goes on.
    writeFileSync(hook, HOOK);
    expect(await preToolUse(claude.bash(root, 's1', 'ls src'))).toBe('');
    expect(await preToolUse(claude.write(root, 's1', 'src/a.ts', 'export const a = 1;\n'))).toBe('');
  });
});

async function preToolUse(event: string): Promise<string> {
  const answer = await answerAgentHook('claude-code', event, {
    env: {},
    now: NOW,
    rulebookFile: undefined,
    loadEngine: loadRulesEngine,
    caseInsensitive: false,
  });
  return answer.stdout;
}
