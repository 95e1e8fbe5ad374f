import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { RunConfig } from '@holdfast/core/contract';
import { runSession } from '@holdfast/lab/experiment';
import type { RunSessionResult } from '@holdfast/lab/experiment';
import { loadTasks } from '@holdfast/lab/experiment';
import type { ExperimentTarget } from '@holdfast/lab/experiment';
import { createOpenAiCompatibleAdapter } from '@holdfast/lab/models';
import { loadRulebook } from '@holdfast/core/rules';
import type { BenchContext } from './index.js';
import { PeakRss } from './peak-rss.js';

const MB = 1024 * 1024;

const REPLY = JSON.stringify({
  reasoning: 'Small, tested change.',
  actions: [
    { type: 'write', path: 'src/features/health.ts', content: 'export function health(): string {\n  console.log("ok");\n  return "ok";\n}\n' },
    { type: 'write', path: 'src/features/health.test.ts', content: 'import { health } from "./health";\n' },
    { type: 'run', cmd: 'npm test' },
    { type: 'commit', message: 'Add health check' },
  ],
});

/** What one measuring process answers. */
interface Measured {
  readonly calls: number;
  /** The highest RSS of the measuring process while the session ran (PeakRss: its own, not its parent's). */
  readonly peakRssMb: number;
  readonly peakSource: string;
  readonly startRssMb: number;
  readonly rssAfterGcMb: number;
  readonly heapAfterGcMb: number;
  readonly seconds: number;
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

async function session(out: string, rounds: number, target: ExperimentTarget, concurrency: number): Promise<RunSessionResult> {
  const rulebook = await loadRulebook();
  const tasks = await loadTasks(undefined, { rulebook });
  const config: RunConfig = {
    targets: [target.info.id],
    tasks: tasks.map((task) => task.id),
    reps: Math.ceil(rounds / tasks.length),
    concurrency,
    approve: 'auto',
    approvalTimeoutMs: 90_000,
    temperature: 0,
    sandbox: false,
  };
  const result = await runSession({ runId: 'bench-memory', out, config, rulebook, tasks, targets: [target] });
  if (result.outcome.status !== 'completed') throw new Error(`the bench run ended ${result.outcome.status}`);
  return result;
}

/** A scripted in-process model answering every call with the same small reply; `made()` counts its calls. */
function smallTarget(): ExperimentTarget & { made: () => number } {
  let made = 0;
  return {
    info: { id: 'scripted', provider: 'replay' },
    model: {
      generate: async () => {
        made += 1;
        return { text: REPLY, usage: { inputTokens: 1000, outputTokens: 100 }, latencyMs: 0, attempts: 1 };
      },
    },
    made: () => made,
  };
}

/** Runs in the measuring process: `calls` model calls against a scripted in-process model. */
async function measureCalls(calls: number): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-bench-memory-'));
  const target = smallTarget();
  try {
    collect();
    const startRssMb = process.memoryUsage().rss / MB;
    const peak = PeakRss.start();
    const started = performance.now();
    const result = await session(join(dir, 'run.jsonl'), calls / 2, target, 4);
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = peak.stop();
    // Measured while the session's result is still held: what the run kept, not what it let go.
    collect();
    const usage = process.memoryUsage();
    if (result.outcome.roundsRun === 0) throw new Error('the bench run played no round');
    return {
      calls: target.made(),
      peakRssMb,
      peakSource: peak.source,
      startRssMb,
      rssAfterGcMb: usage.rss / MB,
      heapAfterGcMb: usage.heapUsed / MB,
      seconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A loopback model in a process of its own that answers every call with `bytes` of content, sent in 64 KB pieces. */
async function startHugeModel(bytes: number): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const script = `
    const { createServer } = require('node:http');
    const piece = 'x'.repeat(65536);
    createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"choices":[{"message":{"content":"');
      let left = ${bytes};
      const pump = () => {
        while (left > 0 && !response.destroyed) {
          left -= piece.length;
          if (!response.write(piece)) return response.once('drain', pump);
        }
        if (!response.destroyed) response.end('"},"finish_reason":"stop"}]}');
      };
      pump();
    }).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}

/** Runs in the measuring process: one round whose two replies are `bytes` long, through the real adapter and its default cap. */
async function measureHugeReply(bytes: number, maxReplyBytes?: number): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-bench-memory-'));
  const model = await startHugeModel(bytes);
  try {
    const adapter = createOpenAiCompatibleAdapter({
      id: 'huge',
      model: 'huge',
      baseUrl: model.baseUrl,
      ...(maxReplyBytes !== undefined ? { maxReplyBytes } : {}),
    });
    // One small round first, so the modules a round loads on first use (reading replies, the checks) are
    // not charged to the reply.
    await session(join(dir, 'warm.jsonl'), 1, smallTarget(), 1);
    collect();
    const startRssMb = process.memoryUsage().rss / MB;
    const peak = PeakRss.start();
    const started = performance.now();
    await session(join(dir, 'run.jsonl'), 1, { info: adapter.target, model: adapter }, 1);
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = peak.stop();
    collect();
    const usage = process.memoryUsage();
    return {
      calls: 2,
      peakRssMb,
      peakSource: peak.source,
      startRssMb,
      rssAfterGcMb: usage.rss / MB,
      heapAfterGcMb: usage.heapUsed / MB,
      seconds,
    };
  } finally {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function apart(mode: 'calls' | 'reply', size: number, maxReplyBytes?: number): Promise<Measured> {
  const args = ['--expose-gc', fileURLToPath(import.meta.url), mode, String(size), ...(maxReplyBytes !== undefined ? [String(maxReplyBytes)] : [])];
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as Measured;
}

/**
 * Memory of the runner, each size in a process of its own: peak RSS over a run of 1,000 and of
 * 20,000 calls against a scripted in-process model (flat means the larger run costs about what the
 * small one does), and what one round of two 50 MB replies costs through the real adapter (the
 * reply is cut off at its 1 MB cap and the arms are unparseable, too large), after a small warm-up
 * round so modules loaded on first use are not charged to the reply. Peaks are the measuring
 * process's own (PeakRss), never `resourceUsage().maxRSS`, which Linux carries over from the bench
 * process that spawned it.
 */
export async function runBench(_print: (line: string) => void, context: BenchContext): Promise<void> {
  const small = await apart('calls', 1_000);
  const large = await apart('calls', 20_000);
  const describe = (measured: Measured) =>
    `${measured.calls} calls in ${measured.seconds.toFixed(1)} s: peak RSS ${measured.peakRssMb.toFixed(0)} MB (${measured.peakSource}), after GC ${measured.rssAfterGcMb.toFixed(0)} MB RSS, heap ${measured.heapAfterGcMb.toFixed(1)} MB`;
  context.figure({
    name: 'runner peak RSS, 20,000 calls vs 1,000 calls (scripted in-process model)',
    value: large.peakRssMb,
    unit: 'MB',
    better: 'lower',
    baseline: { name: '1,000 calls', value: small.peakRssMb },
    detail: `${describe(small)}; ${describe(large)}`,
  });
  // What the run retains (its result still held): peak RSS also holds garbage the collector had not reached yet.
  context.figure({
    name: 'runner heap after GC, 20,000 calls vs 1,000 calls, the session result held',
    value: large.heapAfterGcMb,
    unit: 'MB',
    better: 'lower',
    baseline: { name: '1,000 calls', value: small.heapAfterGcMb },
    target: { on: 'ratio', atMost: 1.25 },
  });
  const huge = await apart('reply', 50 * MB);
  context.figure({
    name: 'RSS one round of two 50 MB replies costs (peak over the start)',
    value: huge.peakRssMb - huge.startRssMb,
    unit: 'MB',
    better: 'lower',
    detail: `peak ${huge.peakRssMb.toFixed(0)} MB (${huge.peakSource}), at start ${huge.startRssMb.toFixed(0)} MB, after GC ${huge.rssAfterGcMb.toFixed(0)} MB, ${huge.seconds.toFixed(2)} s`,
    target: { on: 'value', atMost: 100 },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, size, maxReplyBytes] = process.argv.slice(2);
  const measured =
    mode === 'reply' ? await measureHugeReply(Number(size), maxReplyBytes !== undefined ? Number(maxReplyBytes) : undefined) : await measureCalls(Number(size));
  process.stdout.write(JSON.stringify(measured));
}
