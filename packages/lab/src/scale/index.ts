export { APPROVAL_CHANNEL, openApprovalRelay, publishApproval } from './approval-relay.js';
export type { ApprovalRelay } from './approval-relay.js';
export { DEFAULT_RECONCILE_MS, runQueuedSession } from './coordinator.js';
export type { QueuedSessionOptions, QueuedSessionResult, TargetLimits } from './coordinator.js';
export { parseQueueUrl, redisOptions } from './queue-url.js';
export type { QueueConnection } from './queue-url.js';
export {
  QueueMessageError,
  RoundJobSchema,
  RoundOutcomeSchema,
  RoundProgressSchema,
  parseRoundJob,
  parseRoundOutcome,
  safeParseRoundProgress,
} from './round-job.js';
export type { RoundJob, RoundOutcome, RoundProgress } from './round-job.js';
export { withReplyDelay } from './reply-delay.js';
export { roundJobId, roundQueueName, runsCommands } from './round-queues.js';
export { DEFAULT_STALL_TIMEOUT_MS, startRoundWorker } from './round-worker.js';
export type { RoundWorker, RoundWorkerOptions } from './round-worker.js';
export { HEARTBEAT_MS, STALE_AFTER_MS, WorkerCapabilitiesSchema, advertiseWorker, liveWorkers, workerBeats } from './worker-registry.js';
export type { WorkerBeat, WorkerCapabilities } from './worker-registry.js';
