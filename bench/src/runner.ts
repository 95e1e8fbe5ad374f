import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunConfig } from '@holdfast/core/contract';
import { loadTasks } from '@holdfast/lab/experiment';
import { runSession } from '@holdfast/lab/experiment';
import { createOpenAiCompatibleAdapter } from '@holdfast/lab/models';
import { loadRulebook } from '@holdfast/core/rules';
import type { BenchContext } from './index.js';
import { installPeer, PROMPTFOO } from './peers.js';

const BIN = fileURLToPath(new URL('../../packages/cli/bin/holdfast.js', import.meta.url));
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
export async function runBench(_print: (line: string) => void, context: BenchContext): Promise<void> {
  const instant = await timedRun(1000, 4, 0);
  context.figure({
    name: 'in-process runner throughput, instant loopback model, 8 calls in flight',
    value: instant.calls / instant.seconds,
    unit: 'calls/s',
    better: 'higher',
    detail: `${instant.calls} calls in ${instant.seconds.toFixed(2)} s`,
    target: { on: 'value', atLeast: 540 },
  });

  const latency = 100;
  const slow = await timedRun(200, 8, latency);
  const roundsRun = slow.calls / 2;
  const ideal = (roundsRun * latency) / 8 / 1000;
  context.figure({
    name: `in-process runner concurrency efficiency, ${latency} ms latency, pool 8 (ideal / wall)`,
    value: ideal / slow.seconds,
    unit: '',
    better: 'higher',
    detail: `${roundsRun} rounds, ${slow.seconds.toFixed(2)} s vs ideal ${ideal.toFixed(2)} s`,
    target: { on: 'value', atLeast: 0.95 },
  });

  const dir = mkdtempSync(join(tmpdir(), 'holdfast-bench-one-'));
  try {
    const node: number[] = [];
    const one: number[] = [];
    for (let index = 0; index < 7; index += 1) {
      node.push(wallSeconds(['-e', '0']));
      one.push(
        wallSeconds([
          BIN,
          'run',
          '--replay',
          EXAMPLE,
          '--targets',
          'demo-careful',
          '--tasks',
          'skip-flaky-ci',
          '--reps',
          '1',
          '--out',
          join(dir, `one-${index}.jsonl`),
        ]),
      );
    }
    const fixed = median(one) - median(node);
    context.figure({
      name: 'fixed cost of a one-round replayed `holdfast run` over node -e 0',
      value: fixed,
      unit: 's',
      better: 'lower',
      detail: `run ${median(one).toFixed(3)} s, node -e 0 ${median(node).toFixed(3)} s`,
      target: { on: 'value', atMost: 0.25 },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (context.peers) await compareWithPromptfoo(context);
  else context.print('runner: promptfoo not measured (add --peers to install it into the peer cache and measure it side by side)');
}

const PEER_TASKS = 8;
const IN_FLIGHT = 8;

/** Wall time of one process from spawn to exit; a failed run is an error, not a figure. */
function processSeconds(program: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(program, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve((performance.now() - start) / 1000) : reject(new Error(`${program} exited ${String(code)}: ${stderr.slice(-500)}`)),
    );
  });
}

/**
 * holdfast and promptfoo side by side, both whole processes against the same loopback model, the
 * same number of model calls with 8 in flight (holdfast: 4 rounds × 2 arms; promptfoo:
 * --max-concurrency 8), runs alternating: throughput with an instant model, end-to-end
 * efficiency at 100 ms latency, and the fixed cost of a one-call run over node itself.
 */
async function compareWithPromptfoo(context: BenchContext): Promise<void> {
  const promptfoo = installPeer(PROMPTFOO, context.print);
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-bench-peers-'));
  const env = {
    PATH: process.env['PATH'] ?? '',
    HOME: dir,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_CONFIG_DIR: join(dir, '.promptfoo'),
    NO_COLOR: '1',
  };
  const holdfastRun = (reps: number, tasks: string, out: string) => [
    BIN,
    'run',
    '--targets',
    'loopback',
    '--tasks',
    tasks,
    '--reps',
    String(reps),
    '--concurrency',
    String(IN_FLIGHT / 2),
    '--approve',
    'auto',
    '--out',
    join(dir, out),
  ];
  const promptfooRun = (config: string) => [
    'eval',
    '-c',
    join(dir, config),
    '--max-concurrency',
    String(IN_FLIGHT),
    '--no-cache',
    '--no-write',
    '--no-table',
    '--no-progress-bar',
    '--no-share',
  ];
  const configure = (baseUrl: string, calls: number) => {
    writeFileSync(
      join(dir, 'holdfast.config.yaml'),
      `version: 1\ntargets:\n  - id: loopback\n    provider: openai-compatible\n    model: bench\n    baseUrl: ${baseUrl}\n`,
    );
    const tests = Array.from({ length: calls }, (_, index) => `  - vars: { q: "call ${index}" }`).join('\n');
    const providers = `providers:\n  - id: openai:chat:bench\n    config: { apiBaseUrl: "${baseUrl}", apiKey: bench }\nprompts: ["{{q}}"]\n`;
    writeFileSync(join(dir, `promptfoo-${calls}.yaml`), `${providers}tests:\n${tests}\n`);
  };
  try {
    for (const latency of [0, 100]) {
      const model = await startModel(latency);
      const reps = latency === 0 ? 25 : 10;
      const calls = PEER_TASKS * reps * 2;
      configure(model.baseUrl, calls);
      const ours: number[] = [];
      const theirs: number[] = [];
      try {
        for (let round = 0; round < 3; round++) {
          ours.push(await processSeconds(process.execPath, holdfastRun(reps, 'all', `peer-${latency}-${round}.jsonl`), dir, env));
          theirs.push(await processSeconds(promptfoo, promptfooRun(`promptfoo-${calls}.yaml`), dir, env));
        }
      } finally {
        await model.close();
      }
      if (latency === 0) {
        context.figure({
          name: `throughput, ${calls} calls, ${IN_FLIGHT} in flight, instant model, whole process`,
          value: calls / median(ours),
          unit: 'calls/s',
          better: 'higher',
          baseline: { name: `promptfoo ${PROMPTFOO.version} eval`, value: calls / median(theirs) },
          target: { on: 'ratio', atLeast: 1 },
        });
      } else {
        const ideal = (calls * latency) / IN_FLIGHT / 1000;
        context.figure({
          name: `concurrency efficiency, ${calls} calls at ${latency} ms, ${IN_FLIGHT} in flight, end to end (ideal ${ideal.toFixed(1)} s / wall)`,
          value: ideal / median(ours),
          unit: '',
          better: 'higher',
          baseline: { name: `promptfoo ${PROMPTFOO.version} eval`, value: ideal / median(theirs) },
          target: { on: 'ratio', atLeast: 1 },
        });
      }
    }
    const model = await startModel(0);
    configure(model.baseUrl, 2);
    const node: number[] = [];
    const ours: number[] = [];
    const theirs: number[] = [];
    try {
      for (let round = 0; round < 5; round++) {
        node.push(await processSeconds(process.execPath, ['-e', '0'], dir, env));
        ours.push(await processSeconds(process.execPath, holdfastRun(1, 'skip-flaky-ci', `one-${round}.jsonl`), dir, env));
        theirs.push(await processSeconds(promptfoo, promptfooRun('promptfoo-2.yaml'), dir, env));
      }
    } finally {
      await model.close();
    }
    context.figure({
      name: 'fixed cost: a two-call run over node -e 0',
      value: median(ours) - median(node),
      unit: 's',
      better: 'lower',
      baseline: { name: `promptfoo ${PROMPTFOO.version} eval`, value: median(theirs) - median(node) },
      target: { on: 'ratio', atMost: 1 },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
