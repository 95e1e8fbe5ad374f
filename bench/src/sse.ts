import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArmEndEvent, RunEvent } from '@holdfast/core/contract';
import { createServer, LiveRun } from '@holdfast/app';
import type { HoldfastServer } from '@holdfast/app';
import { createSseReader } from '@holdfast/app';

const EVENTS = 10_000;
const SUBSCRIBERS = 10;
const BATCH = 100;
const TIME = '2025-01-01T00:00:00.000Z';

function armEnd(seq: number): ArmEndEvent {
  const path = `src/features/f${seq}/index.ts`;
  return {
    seq,
    time: TIME,
    runId: 'bench',
    type: 'arm-end',
    roundId: `round-${seq}`,
    target: 'model-a',
    task: `task-${seq % 25}`,
    rep: 0,
    result: {
      arm: seq % 2 === 0 ? 'told' : 'held',
      verdict: 'clean',
      reason: 'no check failed',
      parse: { kind: 'actions', method: 'json' },
      actions: [
        { index: 0, action: { type: 'write', path, content: 'export function feature() {\n  return 1;\n}\n'.repeat(6) }, status: 'applied', violations: [] },
      ],
      checks: ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'].map((rule) => ({ rule, name: rule, actionIndex: 0, ok: true, detail: `${rule} passed on ${path}` })),
      generation: { raw: '{"actions":[…]}', usage: { inputTokens: 900, outputTokens: 300 }, latencyMs: 1200, attempts: 1 },
    },
  };
}

interface Subscriber {
  readonly connected: Promise<void>;
  readonly finished: Promise<number>;
}

/** Reads a run's stream over a real socket, as EventSource would, counting `run` messages. */
function subscribe(url: string): Subscriber {
  let connected!: () => void;
  const connectedPromise = new Promise<void>((resolve) => (connected = resolve));
  const finished = new Promise<number>((resolve, reject) => {
    let received = 0;
    const reader = createSseReader((message) => {
      if (message.event === 'session') connected();
      else if (message.event === 'run') received += 1;
    });
    const outgoing = request(url, { headers: { accept: 'text/event-stream' } }, (incoming) => {
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => reader.push(chunk));
      incoming.on('end', () => resolve(received));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
  return { connected: connectedPromise, finished };
}

async function deliver(server: HoldfastServer, runId: string, subscribers: number, events: readonly RunEvent[]): Promise<{ ms: number; received: number[] }> {
  const run = server.runs.add(new LiveRun({ runId, name: `${runId}.jsonl`, token: 'bench', controller: new AbortController() }));
  const streams = Array.from({ length: subscribers }, () => subscribe(`${server.url}/api/run/${runId}/stream`));
  await Promise.all(streams.map((stream) => stream.connected));
  const start = process.hrtime.bigint();
  // A run emits events over time, not in one synchronous burst: yield between batches.
  for (let from = 0; from < events.length; from += BATCH) {
    for (const event of events.slice(from, from + BATCH)) run.push(event);
    await new Promise((resolve) => setImmediate(resolve));
  }
  run.finish();
  const received = await Promise.all(streams.map((stream) => stream.finished));
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, received };
}

/**
 * SSE delivery on loopback: 10,000 events to 10 concurrent subscribers of one live run, against
 * one subscriber measured in the same run as the baseline.
 */
export async function runBench(print: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'holdfast-bench-sse-'));
  const server = await createServer({ cwd: dir, runsDir: dir, env: {}, host: '127.0.0.1', port: 0, dev: false, assetsDir: join(dir, 'web'), log: () => {} });
  try {
    const events = Array.from({ length: EVENTS }, (_, seq) => armEnd(seq));
    const bytes = Buffer.byteLength(JSON.stringify(events[0]));
    await deliver(server, 'warmup', 2, events.slice(0, 1_000));
    const single = await deliver(server, 'single', 1, events);
    const many = await deliver(server, 'many', SUBSCRIBERS, events);
    for (const result of [single, many]) {
      if (result.received.some((count) => count !== EVENTS)) throw new Error(`a subscriber missed events: ${result.received.join(', ')}`);
    }
    const rate = (result: { ms: number }, subscribers: number) => Math.round((EVENTS * subscribers) / (result.ms / 1000));
    print(`SSE delivery, ${EVENTS.toLocaleString('en')} events (~${bytes} B of JSON each) on 127.0.0.1`);
    print(`  1 subscriber:   ${single.ms.toFixed(0)} ms total, ${rate(single, 1).toLocaleString('en')} events/s delivered`);
    print(
      `  ${SUBSCRIBERS} subscribers: ${many.ms.toFixed(0)} ms total until all ${SUBSCRIBERS} have every event, ${rate(many, SUBSCRIBERS).toLocaleString('en')} events/s delivered in all`,
    );
    print(`  ${SUBSCRIBERS}× the subscribers took ${(many.ms / single.ms).toFixed(2)}× the time of one`);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
