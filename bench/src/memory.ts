import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
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
  /** CPU of the measuring process over the measured stretch (user + system, every thread), in seconds. */
  readonly cpuSeconds: number;
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

/** A session of about `rounds` rounds over the shipped tasks (exactly one round, of the first task, when `rounds` is 1). */
async function session(out: string, rounds: number, target: ExperimentTarget, concurrency: number): Promise<RunSessionResult> {
  const rulebook = await loadRulebook();
  const tasks = (await loadTasks(undefined, { rulebook })).slice(0, rounds === 1 ? 1 : undefined);
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
    const cpuAtStart = process.cpuUsage();
    const result = await session(join(dir, 'run.jsonl'), calls / 2, target, 4);
    const cpuSeconds = cpuSecondsSince(cpuAtStart);
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
      cpuSeconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
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
    let calls = 0;
    const counted: ExperimentTarget['model'] = {
      generate: (request) => {
        calls += 1;
        return adapter.generate(request);
      },
    };
    collect();
    const startRssMb = process.memoryUsage().rss / MB;
    const peak = PeakRss.start();
    const started = performance.now();
    const cpuAtStart = process.cpuUsage();
    await session(join(dir, 'run.jsonl'), 1, { info: adapter.target, model: counted }, 1);
    const cpuSeconds = cpuSecondsSince(cpuAtStart);
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = peak.stop();
    collect();
    const usage = process.memoryUsage();
    return {
      calls,
      peakRssMb,
      peakSource: peak.source,
      startRssMb,
      rssAfterGcMb: usage.rss / MB,
      heapAfterGcMb: usage.heapUsed / MB,
      seconds,
      cpuSeconds,
    };
  } finally {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The peer for a reply let through whole: the same two bodies read at once with node:http and
 * `JSON.parse`d, their texts held, nothing else — what any JavaScript client pays to hold them.
 */
async function measureFloor(bytes: number): Promise<Measured> {
  const model = await startHugeModel(bytes);
  // The warm-up reads a small body, like the holdfast case's small round: nothing large is freed before the start.
  const small = await startHugeModel(1024);
  try {
    const read = (from = model) =>
      new Promise<string>((resolve, reject) => {
        const request = httpRequest(`${from.baseUrl}/chat/completions`, { method: 'POST' }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { choices: { message: { content: string } }[] };
            resolve(body.choices[0]!.message.content);
          });
        });
        request.on('error', reject);
        request.end('{}');
      });
    await read(small);
    collect();
    const startRssMb = process.memoryUsage().rss / MB;
    const peak = PeakRss.start();
    const started = performance.now();
    const cpuAtStart = process.cpuUsage();
    const texts = await Promise.all([read(), read()]);
    const cpuSeconds = cpuSecondsSince(cpuAtStart);
    const seconds = (performance.now() - started) / 1000;
    const peakRssMb = peak.stop();
    if (texts.some((text) => text.length < bytes)) throw new Error('the peer read a short body');
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
      cpuSeconds,
    };
  } finally {
    await Promise.all([model.close(), small.close()]);
  }
}

type Mode = 'calls' | 'reply' | 'floor';

async function apart(mode: Mode, size: number, maxReplyBytes?: number): Promise<Measured> {
  const args = ['--expose-gc', fileURLToPath(import.meta.url), mode, String(size), ...(maxReplyBytes !== undefined ? [String(maxReplyBytes)] : [])];
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as Measured;
}

function describe(measured: Measured): string {
  return `${measured.calls} calls in ${measured.seconds.toFixed(1)} s (CPU ${measured.cpuSeconds.toFixed(2)} s): peak RSS ${measured.peakRssMb.toFixed(0)} MB (${measured.peakSource}), after GC ${measured.rssAfterGcMb.toFixed(0)} MB RSS, heap ${measured.heapAfterGcMb.toFixed(1)} MB`;
}

function overStart(measured: Measured): number {
  return measured.peakRssMb - measured.startRssMb;
}

/**
 * Memory of the runner, each size in a process of its own. Calls: runs of 1,000, 5,000, 20,000 and
 * 50,000 calls against a scripted in-process model. What the run keeps is the heap after a forced
 * GC (flat: 20,000 calls about 1,000's); its peak RSS also holds garbage the collector has not
 * reached, chiefly the native memory of the syntax trees the checks parse (freed only when V8
 * collects their JavaScript handles, which die old), so the run asks for a full collection after each
 * 64 KiB of text parsed and its peak is flat too (20,000 calls within 10 % of 1,000's; 164 MB against
 * 113 MB before it did). Replies: one round of two 50 MB replies through the real
 * adapter, under the default 1 MB cap (cut there, unparseable "too large") and under a cap raised
 * to 64 MB (read and judged whole; the run file keeps the first STORED_REPLY_BYTES), beside the peer
 * that only reads the two bodies with node:http and parses them. Each after a small warm-up, so
 * modules loaded on first use are not charged. Peaks are the measuring process's own (PeakRss).
 */
export async function runBench(_print: (line: string) => void, context: BenchContext): Promise<void> {
  const [one, five, twenty, fifty] = [await apart('calls', 1_000), await apart('calls', 5_000), await apart('calls', 20_000), await apart('calls', 50_000)];
  const all = `${describe(one!)}; ${describe(five!)}; ${describe(twenty!)}; ${describe(fifty!)}`;
  context.figure({
    name: 'runner heap after GC, 20,000 calls vs 1,000 calls, the session result held',
    value: twenty!.heapAfterGcMb,
    unit: 'MB',
    better: 'lower',
    baseline: { name: '1,000 calls', value: one!.heapAfterGcMb },
    target: { on: 'ratio', atMost: 1.25 },
    detail: all,
  });
  context.figure({
    name: 'runner heap after GC, 50,000 calls vs 20,000 calls',
    value: fifty!.heapAfterGcMb,
    unit: 'MB',
    better: 'lower',
    baseline: { name: '20,000 calls', value: twenty!.heapAfterGcMb },
    target: { on: 'ratio', atMost: 1.1 },
  });
  context.figure({
    name: 'runner peak RSS, 20,000 calls vs 1,000 calls (garbage the collector had not reached included)',
    value: twenty!.peakRssMb,
    unit: 'MB',
    better: 'lower',
    baseline: { name: '1,000 calls', value: one!.peakRssMb },
    target: { on: 'ratio', atMost: 1.1 },
  });
  context.figure({
    name: 'runner peak RSS, 50,000 calls vs 20,000 calls',
    value: fifty!.peakRssMb,
    unit: 'MB',
    better: 'lower',
    baseline: { name: '20,000 calls', value: twenty!.peakRssMb },
    target: { on: 'ratio', atMost: 1.1 },
  });
  const capped = await apart('reply', 50 * MB);
  context.figure({
    name: 'RSS one round of two 50 MB replies costs under the default 1 MB cap (peak over the start)',
    value: overStart(capped),
    unit: 'MB',
    better: 'lower',
    detail: `peak ${capped.peakRssMb.toFixed(0)} MB (${capped.peakSource}), at start ${capped.startRssMb.toFixed(0)} MB, after GC ${capped.rssAfterGcMb.toFixed(0)} MB, ${capped.seconds.toFixed(2)} s, ${capped.calls} calls`,
    target: { on: 'value', atMost: 100 },
  });
  const whole = await apart('reply', 50 * MB, 64 * MB);
  const floor = await apart('floor', 50 * MB);
  context.figure({
    name: 'RSS one round of two 50 MB replies costs with the cap raised to 64 MB (read and judged whole) vs only reading and parsing the two bodies',
    value: overStart(whole),
    unit: 'MB',
    better: 'lower',
    baseline: { name: 'node:http + JSON.parse of the two bodies', value: overStart(floor) },
    detail: `holdfast: peak ${whole.peakRssMb.toFixed(0)} MB, at start ${whole.startRssMb.toFixed(0)} MB, after GC ${whole.rssAfterGcMb.toFixed(0)} MB, ${whole.seconds.toFixed(2)} s; the peer: peak ${floor.peakRssMb.toFixed(0)} MB, at start ${floor.startRssMb.toFixed(0)} MB, ${floor.seconds.toFixed(2)} s`,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, size, maxReplyBytes] = process.argv.slice(2);
  const measured =
    mode === 'reply'
      ? await measureHugeReply(Number(size), maxReplyBytes !== undefined ? Number(maxReplyBytes) : undefined)
      : mode === 'floor'
        ? await measureFloor(Number(size))
        : await measureCalls(Number(size));
  process.stdout.write(JSON.stringify(measured));
}
