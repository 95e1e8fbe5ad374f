import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { askBroker } from '../exec/gate-broker-client.js';
import type { BrokerRequest } from '../exec/gate-broker-client.js';
import { startGateBroker } from '../exec/gate-broker.js';
import type { GateBroker } from '../exec/gate-broker.js';
import { brokerJudging } from '../exec/exec-plan.js';
import type { HookAnswer } from '../decide/index.js';
import { gateMain as main } from '../test-support/gate-main.js';
import { claude, claudeBashPassed, codex } from '../test-support/payloads.js';
import { gitTestEnv, projectRepo, writeFiles } from '../test-support/git-repo.js';

// Issue 42, item 3: the broker decides from what it sees, not from what it is told. A process inside
// the sandbox can connect to the broker's socket and send anything; here every request shape the
// protocol has is sent forged, replayed and reordered, and none of it relaxes a decision.

/** A rulebook that allows everything R2 refuses, planted where a forged request could point. */
const LAX =
  'version: 1\nname: lax\ndescription: lax\nrules:\n  - id: R2\n    name: SCOPE\n    prose: anywhere\n    check:\n      kind: scope\n      allow: ["**"]\n';

const brokers: GateBroker[] = [];
afterEach(async () => {
  await Promise.all(brokers.splice(0).map((broker) => broker.close()));
});

/** A project and a broker deciding its hook events as `holdfast exec` does: the hook command itself, with the argv the broker rebuilt. */
async function world(): Promise<{ root: string; ask: (request: BrokerRequest) => Promise<HookAnswer> }> {
  const root = projectRepo('holdfast-forged-');
  writeFiles(root, { 'lax/holdfast/rulebook.yaml': LAX, 'lax.yaml': LAX });
  const socketPath = join(mkdtempSync(join(tmpdir(), 'holdfast-broker-')), 'gate.sock');
  const env = { ...gitTestEnv(), HOME: root };
  brokers.push(
    await startGateBroker({
      socketPath,
      project: root,
      judging: brokerJudging(root, root, env),
      decide: async (request) => {
        const io = memoryIo({
          cwd: request.cwd,
          input: request.stdin,
          env: { ...env, ...(request.projectDir !== undefined ? { CLAUDE_PROJECT_DIR: request.projectDir } : {}) },
        });
        const exitCode = await main(['hook', ...request.argv], io);
        return { stdout: io.out(), stderr: io.err(), exitCode };
      },
    }),
  );
  return { root, ask: (request) => askBroker(socketPath, request, 600_000) };
}

/** A refusal in either agent's protocol: Claude Code's "deny" (exit 0), or exit 2. */
function refused(answer: HookAnswer): boolean {
  return answer.exitCode === 2 || /"permissionDecision":"deny"/.test(answer.stdout);
}

describe('the broker judges by the rulebook and mode fixed when exec starts (issue 42, item 3)', () => {
  it('a write outside src/ is refused whatever the request says about how to judge it', async () => {
    const { root, ask } = await world();
    const event = claude.write(root, 's-forged', 'notes.txt', 'hello\n');
    const shapes: readonly (Partial<BrokerRequest> & { readonly name: string })[] = [
      { name: 'as installed', argv: ['claude-code', '--deadline-ms', '600000'] },
      { name: '--observe', argv: ['claude-code', '--observe'] },
      { name: '--rulebook of its own', argv: ['claude-code', '--rulebook', join(root, 'lax.yaml')] },
      { name: '--rulebook=', argv: ['claude-code', '--rulebook=lax.yaml'] },
      { name: '--help', argv: ['claude-code', '--help'] },
      { name: 'both flags before the agent', argv: ['--observe', 'claude-code'] },
      { name: 'no agent', argv: [] },
      { name: 'an agent the gate does not know', argv: ['observe'] },
      { name: 'a cwd with a rulebook of its own', argv: ['claude-code'], cwd: join(root, 'lax') },
      { name: 'a project folder with a rulebook of its own', argv: ['claude-code'], projectDir: join(root, 'lax') },
      { name: 'a deadline that ends at once', argv: ['claude-code', '--deadline-ms', '1'] },
    ];
    for (const shape of shapes) {
      const answer = await ask({
        argv: shape.argv ?? [],
        cwd: shape.cwd ?? root,
        stdin: event,
        ...(shape.projectDir !== undefined ? { projectDir: shape.projectDir } : {}),
      });
      expect({ shape: shape.name, refused: refused(answer) }).toEqual({ shape: shape.name, refused: true });
    }
    // Codex's own event for the same write, with the options a forger would add.
    const patch = '*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** End Patch\n';
    for (const argv of [['codex'], ['codex', '--observe'], ['codex', '--rulebook', join(root, 'lax.yaml')]]) {
      expect({ argv, refused: refused(await ask({ argv, cwd: root, stdin: codex.applyPatch(root, 's-forged', patch) })) }).toEqual({ argv, refused: true });
    }
  });

  it('a replayed or reordered event never closes a call whose changes were not judged', async () => {
    const { root, ask } = await world();
    const session = 's-replayed';
    const command = 'node write.js';
    const send = (stdin: string, argv: string[] = ['claude-code']) => ask({ argv, cwd: root, stdin });
    // Reordered: the "after" of a call that never began is not a pass.
    const early = await send(claudeBashPassed(root, session, command), ['claude-code', '--observe']);
    expect(early.stdout).toMatch(/"decision":"block"/);
    // The call begins; the command writes a key into src/; a forged "before" of the same call is replayed, then the real "after".
    expect(refused(await send(claude.bash(root, session, command)))).toBe(false);
    writeFileSync(join(root, 'src', 'orders.ts'), 'export const orders = 1;\nexport const key = "AKIAIOSFODNN7EXAMPLE";\nconsole.log(orders);\n');
    await send(claude.bash(root, session, command), ['claude-code', '--observe']);
    const after = await send(claudeBashPassed(root, session, command), ['claude-code', '--rulebook', join(root, 'lax.yaml')]);
    const replayedAfter = await send(claudeBashPassed(root, session, command), ['claude-code', '--observe']);
    // Whatever the order, the key and the log did not stay: judged and put back, or the call blocked.
    const kept = readFileSync(join(root, 'src', 'orders.ts'), 'utf8');
    const judged = /console\.log|AKIA|R1|R4/.test(`${after.stdout}${after.stderr}${replayedAfter.stdout}${replayedAfter.stderr}`);
    expect(judged || !kept.includes('AKIA')).toBe(true);
    expect(/"decision":"block"/.test(after.stdout) || /"decision":"block"/.test(replayedAfter.stdout) || !kept.includes('AKIA')).toBe(true);
  });
});

describe("a forged after-call or Stop never loses a call's put-back (issue 42, item 3)", () => {
  const KEYED = 'export const orders = 1;\nexport const key = "AKIAIOSFODNN7EXAMPLE";\nconsole.log(orders);\n';
  const stopEvent = (root: string, session: string) =>
    JSON.stringify({ session_id: session, transcript_path: null, cwd: root, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' });
  /** A call with another id, as a process in the sandbox can send one. */
  const otherCall = (root: string, session: string, command: string, event: 'PreToolUse' | 'PostToolUse') =>
    JSON.stringify({ ...JSON.parse(claude.bash(root, session, command)), tool_use_id: 'toolu_forged_02', hook_event_name: event });

  it('the call writes after forged requests closed nothing: its real after-call puts the violation back', async () => {
    const { root, ask } = await world();
    const command = 'node write.js';
    const send = (stdin: string) => ask({ argv: ['claude-code'], cwd: root, stdin });
    // Each sequence runs from the real "before" of the call to its real "after"; what a process inside the call sends in between is forged.
    const sequences: readonly (readonly [string, readonly ((session: string) => string)[]])[] = [
      ['after', [(session) => claudeBashPassed(root, session, command)]],
      ['Stop', [(session) => stopEvent(root, session)]],
      [
        'after, Stop, after',
        [(session) => claudeBashPassed(root, session, command), (session) => stopEvent(root, session), (session) => claudeBashPassed(root, session, command)],
      ],
      [
        'after, then another call begins',
        [(session) => claudeBashPassed(root, session, command), (session) => otherCall(root, session, 'node other.js', 'PreToolUse')],
      ],
      [
        'after, another call begins and ends',
        [
          (session) => claudeBashPassed(root, session, command),
          (session) => otherCall(root, session, 'node other.js', 'PreToolUse'),
          (session) => otherCall(root, session, 'node other.js', 'PostToolUse'),
        ],
      ],
    ];
    for (const [name, forged] of sequences) {
      const session = `s-${name.replace(/[^a-z]+/g, '-')}`;
      const path = join(root, 'src', `${session}.ts`);
      expect(refused(await send(claude.bash(root, session, command)))).toBe(false);
      for (const event of forged) await send(event(session));
      writeFileSync(path, KEYED);
      const after = await send(claudeBashPassed(root, session, command));
      expect({ name, told: after.stdout }).toEqual({ name, told: expect.stringMatching(/"decision":"block"/) });
      expect({ name, stayed: existsSync(path) }).toEqual({ name, stayed: false });
    }
  });

  it('a "before" replayed for a call the gate already let go does not take the write as its starting point', async () => {
    const { root, ask } = await world();
    const session = 's-replayed-before';
    const command = 'node write.js';
    const send = (stdin: string) => ask({ argv: ['claude-code'], cwd: root, stdin });
    expect(refused(await send(claude.bash(root, session, command)))).toBe(false);
    await send(claudeBashPassed(root, session, command));
    await send(otherCall(root, session, 'node other.js', 'PreToolUse'));
    await send(otherCall(root, session, 'node other.js', 'PostToolUse'));
    writeFileSync(join(root, 'src', 'orders.ts'), KEYED);
    // The same call's "before" again, once the write is there; then its real "after".
    expect(refused(await send(claude.bash(root, session, command)))).toBe(true);
    await send(claudeBashPassed(root, session, command));
    expect(readFileSync(join(root, 'src', 'orders.ts'), 'utf8')).not.toMatch(/AKIA|console\.log/);
  });
});
