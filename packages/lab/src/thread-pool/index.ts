export { canUseWorkers, createWorkerPool } from './worker-pool.js';
export type { PoolOutcome, WorkerAnswer, WorkerPool, WorkerPoolOptions, WorkerRequest } from './worker-pool.js';
export { serveRequests } from './serve-requests.js';
