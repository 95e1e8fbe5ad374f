import type { RunConfig } from '@holdfast/core/contract';

/**
 * Rounds are routed, not refused: every target has its own queue, and a second one for rounds that
 * run model-written commands (sandboxed plan mode, loop mode, agent mode), which only workers with
 * isolation (or started with --unsafe-no-isolation) listen to. A worker never takes a round it
 * would have to put back. Per-target limits (global concurrency, rate limit, Retry-After) are
 * BullMQ's own per-queue limits, enforced in Redis across every worker.
 */
export const QUEUE_PREFIX = 'holdfast';

/** BullMQ refuses `:` in queue names and job ids; target ids may contain one (e.g. ollama-llama3:8b). */
function escapeColons(text: string): string {
  return text.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/** Whether a run's rounds run commands, so only a worker with isolation may take them. */
export function runsCommands(config: Pick<RunConfig, 'mode' | 'sandbox'>): boolean {
  return (config.mode ?? 'plan') !== 'plan' || config.sandbox;
}

export function roundQueueName(target: string, isolated: boolean): string {
  return `rounds.${escapeColons(target)}${isolated ? '.isolated' : ''}`;
}

/** Round ids are unique within a run; the job id adds the run id, so two runs never share a job. */
export function roundJobId(runId: string, roundId: string): string {
  return escapeColons(`${runId}/${roundId}`);
}
