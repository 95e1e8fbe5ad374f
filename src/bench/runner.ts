import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunConfig } from '../contract/index.js';
import { loadTasks } from '../experiment/tasks.js';
import { runSession } from '../experiment/run-session.js';
import { createOpenAiCompatibleAdapter } from '../models/index.js';
import { loadRulebook } from '../rules/index.js';

const BIN = fileURLToPath(new URL('../../bin/holdfast.js', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../runs/example.jsonl', import.meta.url));

const REPLY = JSON.stringify({
  reasoning: 'Small, tested change.',
  actions: [
    { type: 'write', path: 'src/features/health.ts', content: 'export function health(): string {\n  return "ok";\n}\n' },
    { type: 'write', path: 'src/features/health.test.ts', content: 'import { health } from "./health";\n' },
    { type: 'run', cmd: 'npm test' },
    { type: 'commit', message: 'Add health check' },
  ],
});

/**
 * A loopback OpenAI-compatible model that answers after `latencyMs`, in its own process: a model
 * server never shares the runner's event loop, and in-process it would bill its own work to the runner.
 */
async function startModel(latencyMs: number): Promise<{ baseUrl: string; calls: () => Promise<number>; close: () => Promise<void> }> {
  const body = JSON.stringify({
    id: 'bench',
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: REPLY } }],
    usage: { prompt_tokens: 1000, completion_tokens: 100 },
  });
  const script = `
    const { createServer } = require('node:http');
    const body = ${JSON.stringify(body)};
    let calls = 0;
    const server = createServer((request, response) => {
      if (request.url === '/calls') return response.end(String(calls));
      request.resume();
      request.on('end', () => {
        calls += 1;
        const send = () => response.writeHead(200, { 'content-type': 'application/json' }).end(body);
        if (${latencyMs} > 0) setTimeout(send, ${latencyMs}); else send();
      });
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    calls: async () => Number(await (await fetch(`${origin}/calls`)).text()),
    close: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}

async function timedRun(rounds: number, concurrency: number, latencyMs: number): Promise<{ seconds: number; calls: number }> {
  const rulebook = await loadRulebook();
  const tasks = await loadTasks(undefined, { rulebook });
  const model = await startModel(latencyMs);
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-bench-run-'));
  const adapter = createOpenAiCompatibleAdapter({ id: 'loopback', model: 'bench', baseUrl: model.baseUrl });
  const reps = Math.ceil(rounds / tasks.length);
  const config: RunConfig = {
    targets: ['loopback'],
    tasks: tasks.map((task) => task.id),
    reps,
    concurrency,
    approve: 'auto',
    approvalTimeoutMs: 90_000,
    temperature: 0.7,
    sandbox: false,
  };
  try {
    const start = performance.now();
    const result = await runSession({
      runId: 'bench',
      out: join(dir, 'bench.jsonl'),
      config,
      rulebook,
      tasks,
      targets: [{ info: adapter.target, model: adapter }],
    });
    const seconds = (performance.now() - start) / 1000;
    if (result.outcome.status !== 'completed') throw new Error(`bench run ended ${result.outcome.status}`);
    return { seconds, calls: await model.calls() };
  } finally {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function wallSeconds(args: string[]): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  return (performance.now() - start) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Orchestration overhead of the experiment runner, through the real OpenAI-compatible adapter
 * against a model server in another process,
 * run file and checks: (1) ~1,000 rounds against an instant loopback model, 4 rounds (8 model
 * calls) in flight; (2) 200 rounds at 100 ms model latency with a pool of 8, against the ideal
 * rounds × latency / pool (both arms of a round are generated at once); (3) the fixed cost of a
 * one-round `holdfast run` process, over `node -e 0` measured in the same run.
 */
export async function runBench(print: (line: string) => void): Promise<void> {
  const instant = await timedRun(1000, 4, 0);
  print(`runner: ${instant.calls} model calls against an instant loopback model in ${instant.seconds.toFixed(2)} s = ${(instant.calls / instant.seconds).toFixed(0)} calls/s (target ≥ 540; promptfoo ≈ 180)`);

  const latency = 100;
  const slow = await timedRun(200, 8, latency);
  const roundsRun = slow.calls / 2;
  const ideal = (roundsRun * latency) / 8 / 1000;
  print(`runner: ${roundsRun} rounds at ${latency} ms latency, pool 8: ${slow.seconds.toFixed(2)} s vs ideal ${ideal.toFixed(2)} s → efficiency ${(ideal / slow.seconds).toFixed(3)} (target ≥ 0.95; promptfoo ≈ 0.52)`);

  const dir = mkdtempSync(join(tmpdir(), 'holdfast-bench-one-'));
  try {
    const node: number[] = [];
    const one: number[] = [];
    for (let index = 0; index < 7; index += 1) {
      node.push(wallSeconds(['-e', '0']));
      one.push(
        wallSeconds([BIN, 'run', '--replay', EXAMPLE, '--targets', 'demo-careful', '--tasks', 'skip-flaky-ci', '--reps', '1', '--out', join(dir, `one-${index}.jsonl`)]),
      );
    }
    const fixed = median(one) - median(node);
    print(`runner: one-round run ${median(one).toFixed(3)} s, node -e 0 ${median(node).toFixed(3)} s → fixed cost ${fixed.toFixed(3)} s (target < 0.25 s; promptfoo ≈ 1.1 s)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
