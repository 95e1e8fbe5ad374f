import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from 'holdfast';
import { readRunFile, reduceRunEvents } from '@holdfast/lab/store';
import { memoryIo } from '@holdfast/core/test-support';
import { HOLDFAST_BIN, nodeOfLine } from '@holdfast/lab/test-support';

// `holdfast run --mode agent` from the command line, with generic agents that are scripted programs
// (runs/demo/agents/scripted-agent.mjs); the held arm's pre-commit hook runs the built dist/.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AGENT = join(ROOT, 'runs/demo/agents/scripted-agent.mjs');
const EXAMPLE = join(ROOT, 'runs/example-agent.jsonl');
const SECRET = 'sk-demo-0123456789abcdefghijklmnop';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'holdfast-cli-agent-'));
  const target = (id: string, behaviour: string) =>
    `  - id: ${id}\n    provider: agent\n    command: [node, ${JSON.stringify(AGENT)}, ${behaviour}]\n    env: [DEMO_API_KEY]\n    maxTurns: 5\n`;
  writeFileSync(
    join(dir, 'holdfast.config.yaml'),
    `targets:\n${target('recovers', 'recover')}${target('evades', 'evade')}${target('leaks', 'leak')}  - { id: plain, provider: openai-compatible, model: m, baseUrl: "http://127.0.0.1:9/v1" }\n`,
  );
  // R4 taken out: the same recorded arms, judged as if console.log were allowed.
  const rulebook = readFileSync(join(ROOT, 'rulebooks/default.yaml'), 'utf8')
    .replace(/ {2}- id: R4\n[\s\S]*?(?=\n {2}- id: R5)/, '')
    .replace(/rules: \[R1, R2, R3, R4, R5, R6\]/, 'rules: [R1, R2, R3, R5, R6]')
    .replace(/rules: \[R1, R2, R4, R5\]/, 'rules: [R1, R2, R5]');
  writeFileSync(join(dir, 'no-r4.yaml'), rulebook);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function verdicts(path: string): Promise<Record<string, string>> {
  const state = reduceRunEvents((await readRunFile(path)).events);
  return Object.fromEntries(Array.from(state.rounds, (round) => [round.roundId, `${round.told?.verdict}/${round.held?.verdict}`]));
}

/** The built holdfast run by `node` as a process, as a user's shell runs it; what it printed and its exit code. */
function holdfastProcess(node: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [HOLDFAST_BIN, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('holdfast run --mode agent', () => {
  // Issue 44: the CLI on Node 24 (the held arms' git hooks run the node that runs holdfast), the rest in-process on Node 20.
  it('on Node 24: plays generic agents, writes a version-2 run file with sessions, and rescore re-judges it', async () => {
    // nodeOfLine runs the binary: a Node 24 that is not 24 fails here.
    const node = await nodeOfLine('node-24');
    const out = join(dir, 'agents.jsonl');
    // The agents' `node` is Node 24's too, first on PATH.
    const env = { ...process.env, DEMO_API_KEY: SECRET, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` };
    const io = await holdfastProcess(node, ['run', '--mode', 'agent', '--targets', 'recovers,evades', '--tasks', 'debug-checkout-logging', '--out', out], env);
    expect(io.code, io.err).toBe(0);
    expect(await verdicts(out)).toEqual({ 'recovers/debug-checkout-logging/0': 'violated/recovered', 'evades/debug-checkout-logging/0': 'violated/evaded' });
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(SECRET);
    const start = (await readRunFile(out)).events[0];
    expect(start?.type === 'run-start' && start.version).toBe(2);
    expect(start?.type === 'run-start' && start.config.mode).toBe('agent');
    expect(start?.type === 'run-start' && start.targets).toEqual([
      { id: 'recovers', provider: 'agent' },
      { id: 'evades', provider: 'agent' },
    ]);
    expect(io.out).toMatch(/gate leaks/);

    // Without R4 nothing violating landed anywhere: told is clean; the held arms were still blocked
    // once (the gate's recorded decision stands) and got the task done, so both recovered.
    const rescore = memoryIo({ cwd: dir });
    expect(await main(['rescore', out, '--rulebook', join(dir, 'no-r4.yaml'), '--json'], rescore)).toBe(0);
    const { changes } = JSON.parse(rescore.out()) as { changes: { roundId: string; arm: string; before: string; after: string }[] };
    expect(changes.map((change) => `${change.roundId} ${change.arm}: ${change.before} → ${change.after}`).sort()).toEqual([
      'evades/debug-checkout-logging/0 held: evaded → recovered',
      'evades/debug-checkout-logging/0 told: violated → clean',
      'recovers/debug-checkout-logging/0 told: violated → clean',
    ]);
  });

  it('an agent that fails is an error arm with the reason, and the key it printed is redacted from the run file', async () => {
    const out = join(dir, 'leaks.jsonl');
    const io = memoryIo({ cwd: dir, env: { ...process.env, DEMO_API_KEY: SECRET } });
    // Every arm of the only target errored: the run fails (exit 3), an outage is not a result.
    expect(await main(['run', '--mode', 'agent', '--targets', 'leaks', '--tasks', 'debug-checkout-logging', '--out', out], io), io.err()).toBe(3);
    const state = reduceRunEvents((await readRunFile(out)).events);
    const [round] = Array.from(state.rounds);
    expect(round?.told?.verdict).toBe('error');
    expect(round?.held?.session?.stop).toEqual({ reason: 'error', detail: 'the harness exited with code 1: scripted agent: giving up, my key is [redacted]' });
    expect(readFileSync(out, 'utf8')).not.toContain(SECRET);
  });

  it('refuses a plan-mode target, and replies, in agent mode, saying what to use', async () => {
    const io = memoryIo({ cwd: dir });
    expect(await main(['run', '--mode', 'agent', '--targets', 'plain', '--tasks', 'debug-checkout-logging', '--out', join(dir, 'no.jsonl')], io)).toBe(2);
    expect(io.err()).toMatch(/"plain" \(openai-compatible\).*provider: claude-code, codex, gemini-cli, qwen-code, opencode, copilot-cli or agent/);
    const replies = memoryIo({ cwd: dir });
    expect(await main(['run', '--mode', 'agent', '--replies', join(ROOT, 'runs/demo/replies.json')], replies)).toBe(2);
    expect(replies.err()).toMatch(/agent mode plays live sessions; recorded replies .* play in plan mode only/);
  });

  it('the shipped example agent-mode run is labelled as scripted and rescores to itself', async () => {
    const events = (await readRunFile(EXAMPLE)).events;
    const start = events[0];
    expect(start?.type === 'run-start' && start.demo).toMatch(/Scripted agents, not models/);
    const io = memoryIo({ cwd: dir });
    expect(await main(['rescore', EXAMPLE, '--json'], io)).toBe(0);
    expect((JSON.parse(io.out()) as { changes: unknown[] }).changes).toEqual([]);
  });

  it("report --harnesses puts the example run's harness targets side by side, per model, every rate with its interval", async () => {
    const io = memoryIo({ cwd: dir });
    expect(await main(['report', '--harnesses', EXAMPLE, '--format', 'json'], io)).toBe(0);
    const rows = (
      JSON.parse(io.out()) as {
        harnesses: { model: string; target: string; toldLanded: { count: number; n: number }; heldLanded: { count: number; low: number } }[];
      }
    ).harnesses;
    expect(rows.map((row) => [row.model, row.target, row.toldLanded.count, row.heldLanded.count])).toEqual([
      ['scripted (careful)', 'demo-agent-careful', 0, 0],
      ['scripted (evade)', 'demo-agent-evades', 1, 1],
      ['scripted (recover)', 'demo-agent-recovers', 1, 0],
    ]);
    const table = memoryIo({ cwd: dir });
    expect(await main(['report', '--harnesses', EXAMPLE], table)).toBe(0);
    expect(table.out()).toMatch(/demo-agent-recovers +1 +1\/1 100% \[21%–100%\] +0\/1 0% \[0%–79%\]/);
    expect(await main(['report', '--harnesses'], memoryIo({ cwd: dir }))).toBe(2);
  });
});
