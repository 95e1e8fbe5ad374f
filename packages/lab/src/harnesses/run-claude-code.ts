import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAgentClient } from './agent-clients.js';
import { runAgentProcess, tail } from './agent-process.js';
import type { AgentReport, AgentRun, RunAgentOptions } from './agent-run.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

/** A key of the right shape and no value: the model server is ours. */
export const FAKE_ANTHROPIC_KEY = 'sk-ant-api03-holdfast-scripted-model-not-a-real-key';

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Reads the single JSON object `claude -p --output-format json` prints. */
export function readClaudeReport(stdout: string): AgentReport | undefined {
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((candidate) => candidate.startsWith('{'));
  if (line === undefined) return undefined;
  const parsed = jsonOrUndefined(line) as Record<string, unknown> | undefined;
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const usage = (typeof parsed.usage === 'object' && parsed.usage !== null ? parsed.usage : {}) as Record<string, unknown>;
  return {
    turns: numberOr(parsed.num_turns),
    inputTokens: numberOr(usage.input_tokens),
    outputTokens: numberOr(usage.output_tokens),
    costUsd: numberOr(parsed.total_cost_usd),
    deniedCalls: Array.isArray(parsed.permission_denials) ? parsed.permission_denials.length : undefined,
    finalText: typeof parsed.result === 'string' ? parsed.result : undefined,
    isError: parsed.is_error === true,
  };
}

/**
 * Runs Claude Code headless in `cwd`, the way issue 10 prescribes: `-p PROMPT --permission-mode
 * acceptEdits --allowedTools Bash --output-format json`, the model at ANTHROPIC_BASE_URL with a fake
 * key, non-essential traffic off and an isolated HOME (so no user settings, hooks or login apply; the
 * project's .claude/settings.json does).
 */
export async function runClaudeCode(options: RunAgentOptions): Promise<AgentRun> {
  const bin = options.bin ?? (await ensureAgentClient('claude-code'));
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'holdfast-claude-home-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...options.env,
  };
  const args = ['-p', options.prompt, '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash', '--output-format', 'json', ...(options.args ?? [])];
  const outcome = await runAgentProcess({ command: bin, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs });
  return {
    client: 'claude-code',
    ...outcome,
    report: readClaudeReport(outcome.stdout),
    stdoutTail: tail(outcome.stdout),
    stderrTail: tail(outcome.stderr),
    home,
  };
}
