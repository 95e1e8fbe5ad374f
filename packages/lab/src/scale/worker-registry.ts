import { z } from 'zod';
import { QUEUE_PREFIX } from './round-queues.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

/**
 * Workers say what they can run in one Redis hash, refreshed by a heartbeat: the targets they hold a
 * definition (and key) for, the agent harnesses found on their machine, whether model-written
 * commands are isolated there, and the queues they therefore listen to. Routing itself is by queue;
 * this is what the coordinator shows, and how it warns about a target no live worker can play.
 */
export const WORKERS_KEY = `${QUEUE_PREFIX}.workers`;
export const HEARTBEAT_MS = 5_000;

export const WorkerCapabilitiesSchema = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number().int(),
  targets: z.array(z.string()),
  /** Harness labels found on the worker's machine (e.g. `claude-code 2.1.197`). */
  agents: z.array(z.string()),
  isolation: z.enum(['bubblewrap', 'none']),
  /** Started with --unsafe-no-isolation: takes command-running rounds without isolation. */
  unsafe: z.boolean(),
  queues: z.array(z.string()),
  concurrency: z.number().int().positive(),
  seenAt: z.number(),
});
export type WorkerCapabilities = z.infer<typeof WorkerCapabilitiesSchema>;

interface HashStore {
  hset(key: string, field: string, value: string): Promise<unknown>;
  hdel(key: string, field: string): Promise<unknown>;
  hgetall(key: string): Promise<Record<string, string>>;
}

export async function advertiseWorker(store: HashStore, capabilities: WorkerCapabilities): Promise<void> {
  await store.hset(WORKERS_KEY, capabilities.id, JSON.stringify(capabilities));
}

export async function withdrawWorker(store: HashStore, id: string): Promise<void> {
  await store.hdel(WORKERS_KEY, id);
}

/** A worker silent this long is stale: its rounds go back to the queue after the stall timeout. */
export const STALE_AFTER_MS = 3 * HEARTBEAT_MS;

/** Every readable entry of the registry, live or not; unreadable ones are left out. */
async function registeredWorkers(store: HashStore): Promise<WorkerCapabilities[]> {
  const entries = await store.hgetall(WORKERS_KEY);
  const workers: WorkerCapabilities[] = [];
  for (const text of Object.values(entries)) {
    const parsed = WorkerCapabilitiesSchema.safeParse(jsonOrUndefined(text));
    if (parsed.success) workers.push(parsed.data);
  }
  return workers.sort((left, right) => left.id.localeCompare(right.id));
}

/** Workers heard from within three heartbeats of `now`; stale or unreadable entries are left out. */
export async function liveWorkers(store: HashStore, now: number): Promise<WorkerCapabilities[]> {
  return (await registeredWorkers(store)).filter((worker) => now - worker.seenAt <= STALE_AFTER_MS);
}

/** A registered worker and whether it still beats: what a coordinator shows of each worker of its run. */
export interface WorkerBeat {
  readonly id: string;
  readonly host: string;
  readonly seenAt: number;
  readonly stale: boolean;
}

/**
 * The workers that listen to any of `queues`, live or stale. A worker killed never leaves the
 * registry, so one silent for longer than `forgetAfterMs` is no longer shown.
 */
export async function workerBeats(store: HashStore, now: number, queues: ReadonlySet<string>, forgetAfterMs: number): Promise<WorkerBeat[]> {
  return (await registeredWorkers(store))
    .filter((worker) => worker.queues.some((queue) => queues.has(queue)) && now - worker.seenAt <= forgetAfterMs)
    .map((worker) => ({ id: worker.id, host: worker.host, seenAt: worker.seenAt, stale: now - worker.seenAt > STALE_AFTER_MS }));
}
