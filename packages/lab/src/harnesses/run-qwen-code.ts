import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { ensureAgentClient, ensureNodeLine } from './agent-clients.js';
import { runAgentProcess, tail } from './agent-process.js';
import type { AgentReport, AgentRun, RunAgentOptions } from './agent-run.js';

/** A key of the right shape and no value: the model server is ours. */
export const FAKE_QWEN_OPENAI_KEY = 'sk-holdfast-scripted-model-not-a-real-key';
/** Any name: Qwen Code sends it to the OpenAI-compatible endpoint as `model`. */
export const QWEN_MODEL = 'holdfast-scripted';

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Reads what `qwen -p --output-format json` prints: one JSON array of messages (Claude Code's
 * stream-json shapes) whose last is the `result` (`result`, `num_turns`, `usage`, `is_error`,
 * `permission_denials`).
 */
export function readQwenReport(stdout: string): AgentReport | undefined {
  const start = stdout.indexOf('[');
  const parsed = start < 0 ? undefined : jsonOrUndefined(stdout.slice(start));
  if (!Array.isArray(parsed)) return undefined;
  const result = [...parsed]
    .reverse()
    .map(record)
    .find((message) => message.type === 'result');
  if (result === undefined) return undefined;
  const usage = record(result.usage);
  return {
    turns: numberOr(result.num_turns),
    inputTokens: numberOr(usage.input_tokens),
    outputTokens: numberOr(usage.output_tokens),
    costUsd: undefined,
    deniedCalls: Array.isArray(result.permission_denials) ? result.permission_denials.length : undefined,
    finalText: typeof result.result === 'string' ? result.result : undefined,
    isError: result.is_error === true,
  };
}

export interface QwenRunOptions extends RunAgentOptions {
  /** The node that runs Qwen Code (it needs Node 22 or newer): the agent cache's Node 24 by default. */
  readonly node?: string;
}

/**
 * Runs Qwen Code headless in `cwd`: `-p PROMPT --yolo --auth-type openai --output-format json`
 * (every tool call approved: the hook is what refuses), the OpenAI-compatible endpoint at
 * OPENAI_BASE_URL with a fake key, and an isolated HOME whose settings turn off update checks,
 * usage statistics and telemetry. Qwen Code runs a project's .qwen/settings.json hooks without a
 * trust step.
 */
export async function runQwenCode(options: QwenRunOptions): Promise<AgentRun> {
  const bin = options.bin ?? (await ensureAgentClient('qwen-code'));
  const node = options.node ?? (await ensureNodeLine('node-24'));
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'holdfast-qwen-home-'));
  mkdirSync(join(home, '.qwen'), { recursive: true });
  const settings = { general: { enableAutoUpdate: false }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } };
  writeFileSync(join(home, '.qwen', 'settings.json'), `${JSON.stringify(settings)}\n`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    OPENAI_API_KEY: FAKE_QWEN_OPENAI_KEY,
    OPENAI_BASE_URL: options.baseUrl,
    OPENAI_MODEL: QWEN_MODEL,
    QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    ...options.env,
  };
  const args = [bin, '-p', options.prompt, '--yolo', '--auth-type', 'openai', '--output-format', 'json', ...(options.args ?? [])];
  const outcome = await runAgentProcess({ command: node, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs });
  return {
    client: 'qwen-code',
    ...outcome,
    report: readQwenReport(outcome.stdout),
    stdoutTail: tail(outcome.stdout),
    stderrTail: tail(outcome.stderr),
    home,
  };
}
