import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonOrUndefined } from '@holdfast/core/contract';
import { ensureAgentClient } from './agent-clients.js';
import { runAgentProcess, tail } from './agent-process.js';
import type { AgentReport, AgentRun, RunAgentOptions } from './agent-run.js';

/** A key of the right shape and no value: the model server is ours. */
export const FAKE_GEMINI_KEY = 'holdfast-scripted-model-not-a-real-key';

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Reads the JSON object `gemini -p --output-format json` prints: `response`, `stats.models` (requests
 * and tokens per model), `stats.tools`, and `error` when the run failed.
 */
export function readGeminiReport(stdout: string): AgentReport | undefined {
  const start = stdout.indexOf('{');
  const parsed = start < 0 ? undefined : record(jsonOrUndefined(stdout.slice(start)));
  if (parsed === undefined || Object.keys(parsed).length === 0) return undefined;
  const models = Object.values(record(record(parsed.stats).models)).map(record);
  const sum = (read: (model: Record<string, unknown>) => unknown) =>
    models.reduce<number | undefined>((total, model) => {
      const value = numberOr(read(model));
      return value === undefined ? total : (total ?? 0) + value;
    }, undefined);
  return {
    turns: sum((model) => record(model.api).totalRequests),
    inputTokens: sum((model) => record(model.tokens).prompt),
    outputTokens: sum((model) => record(model.tokens).candidates),
    costUsd: undefined,
    deniedCalls: undefined,
    finalText: typeof parsed.response === 'string' ? parsed.response : undefined,
    isError: parsed.error !== undefined,
  };
}

/**
 * Runs Gemini CLI headless in `cwd`: `-p PROMPT --yolo --output-format json` (every tool call
 * approved: the hook is what refuses), the Gemini API at GOOGLE_GEMINI_BASE_URL with a fake key, an
 * isolated HOME whose settings pick API-key auth, and the project trusted
 * (GEMINI_CLI_TRUST_WORKSPACE): Gemini CLI runs a project's hooks only in a trusted folder.
 */
export interface GeminiRunOptions extends RunAgentOptions {
  /** The node that runs Gemini CLI (a bundled script): the one running this process by default. */
  readonly node?: string;
}

export async function runGeminiCli(options: GeminiRunOptions): Promise<AgentRun> {
  const bin = options.bin ?? (await ensureAgentClient('gemini-cli'));
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'holdfast-gemini-home-'));
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } })}\n`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GEMINI_API_KEY: FAKE_GEMINI_KEY,
    GOOGLE_GEMINI_BASE_URL: options.baseUrl,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    ...options.env,
  };
  const args = [bin, '-p', options.prompt, '--yolo', '--output-format', 'json', ...(options.args ?? [])];
  const outcome = await runAgentProcess({ command: options.node ?? process.execPath, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs });
  return {
    client: 'gemini-cli',
    ...outcome,
    report: readGeminiReport(outcome.stdout),
    stdoutTail: tail(outcome.stdout),
    stderrTail: tail(outcome.stderr),
    home,
  };
}
