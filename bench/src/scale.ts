import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunConfig } from '@holdfast/core/contract';
import { demoReplyLookup, loadDemoReplies, loadTasks, resolveScriptedTargets, runSession } from '@holdfast/lab/experiment';
import { loadRulebook } from '@holdfast/core/rules';
import { runQueuedSession, withReplyDelay } from '@holdfast/lab/scale';
import { startTestRedis } from '@holdfast/lab/test-support';

const BIN = fileURLToPath(new URL('../../packages/cli/bin/holdfast.js', import.meta.url));
const REPLIES = fileURLToPath(new URL('../../runs/demo/replies.json', import.meta.url));
const LATENCY_MS = 1_000;

/** A `holdfast worker` process, resolved once it says it is listening. */
async function startWorker(url: string, id: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'worker', '--queue', url, '--replies', REPLIES, '--id', id, '--reply-delay-ms', String(LATENCY_MS)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      text += String(chunk);
      if (text.includes(`worker ${id} ready`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker ${id} exited (${String(code)}): ${text}`)));
  });
  return child;
}

/**
 * Rounds per second of the demo sweep (48 rounds: 3 scripted targets × 8 tasks × 2 repetitions,
 * every reply after a fixed second) through the queue with 1, 2 and 4 worker processes (each takes
 * one round per target queue at a time: 3 in flight), next to the in-process pool of 3 in the same
 * run. Scaling efficiency = queued rounds/s ÷ (workers × in-process rounds/s). Worker start-up is
 * left out; the coordinator's queueing, Redis round trips and run-file writing are in.
 */
export async function runBench(print: (line: string) => void): Promise<void> {
  const rulebook = await loadRulebook();
  const tasks = await loadTasks(undefined, { rulebook });
  const replies = await loadDemoReplies(REPLIES);
  const ids = [...new Set(replies.replies.map((reply) => reply.target))];
  const targets = resolveScriptedTargets(ids, ids, demoReplyLookup(replies));
  const config: RunConfig = {
    targets: ids,
    tasks: tasks.map((task) => task.id),
    reps: 2,
    concurrency: 3,
    approve: 'auto',
    approvalTimeoutMs: 90_000,
    temperature: 0,
    sandbox: false,
  };
  const rounds = ids.length * tasks.length * config.reps;
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-bench-scale-'));
  const redis = await startTestRedis();
  try {
    let started = performance.now();
    const local = await runSession({
      runId: 'bench-local',
      out: join(dir, 'local.jsonl'),
      config,
      rulebook,
      tasks,
      targets: targets.map((target) => withReplyDelay(target, LATENCY_MS)),
    });
    const localRate = local.outcome.roundsRun / ((performance.now() - started) / 1000);
    print(
      `scale: in-process pool of 3: ${rounds} rounds at ${LATENCY_MS} ms latency → ${localRate.toFixed(2)} rounds/s (ideal ${((3 * 1000) / LATENCY_MS).toFixed(2)})`,
    );
    for (const count of [1, 2, 4]) {
      const workers = await Promise.all(Array.from({ length: count }, (_, index) => startWorker(redis.url, `bench-${count}-${index + 1}`)));
      try {
        started = performance.now();
        const queued = await runQueuedSession({
          connection: redis.connection,
          runId: `bench-queued-${count}`,
          out: join(dir, `queued-${count}.jsonl`),
          config,
          rulebook,
          tasks,
          targets: targets.map((target) => target.info),
        });
        const seconds = (performance.now() - started) / 1000;
        if (queued.outcome.status !== 'completed') throw new Error(`queued bench run ended ${queued.outcome.status}`);
        const rate = queued.outcome.roundsRun / seconds;
        print(
          `scale: ${count} worker${count === 1 ? '' : 's'} (${3 * count} in flight): ${rate.toFixed(2)} rounds/s, ×${(rate / localRate).toFixed(2)} the in-process pool, scaling efficiency ${(rate / (count * localRate)).toFixed(2)}`,
        );
      } finally {
        for (const worker of workers) worker.kill('SIGTERM');
        await Promise.all(workers.map((worker) => (worker.exitCode === null ? once(worker, 'exit') : undefined)));
      }
    }
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
