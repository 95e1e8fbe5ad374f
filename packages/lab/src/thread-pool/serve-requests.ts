import { parentPort } from 'node:worker_threads';
import type { WorkerAnswer, WorkerRequest } from './worker-pool.js';

/** The worker side of a pool: answers each request with `handle`, in order of arrival. */
export function serveRequests<Q, A>(handle: (request: Q) => Promise<A>): void {
  parentPort?.on('message', ({ id, request }: WorkerRequest<Q>) => {
    handle(request).then(
      (value) => parentPort?.postMessage({ id, ok: true, value } satisfies WorkerAnswer<A>),
      (error: unknown) => parentPort?.postMessage({ id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies WorkerAnswer<A>),
    );
  });
}
