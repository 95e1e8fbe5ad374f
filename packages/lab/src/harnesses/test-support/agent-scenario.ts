import type { AgentClientName } from '../agent-clients.js';
import type { AgentRun } from '../agent-run.js';
import { runClaudeCode } from '../run-claude-code.js';
import { runCodex } from '../run-codex.js';
import { runGeminiCli } from '../run-gemini-cli.js';
import { runQwenCode } from '../run-qwen-code.js';
import { runCopilot } from '../run-copilot.js';
import type { CodexRunOptions } from '../run-codex.js';
import type { ModelTurn, ScriptStep } from './script.js';
import { startScriptedModel } from './scripted-model-server.js';
import type { RecordedRequest } from './scripted-model-server.js';

export interface ScenarioOptions {
  readonly client: AgentClientName;
  /** The repository the agent works in (see makeGitRepo). */
  readonly repo: string;
  readonly steps: readonly ScriptStep[];
  readonly prompt?: string;
  /** Generous by default: a loaded 2-core box can take several seconds to start a client. */
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly args?: readonly string[];
  /** The client's executable (a wrapper that starts it under `holdfast exec`, say); the cached client by default. */
  readonly bin?: string;
  /** The client's HOME (see RunAgentOptions.home). */
  readonly home?: string;
  /** Codex only (see CodexRunOptions). */
  readonly hookTrust?: CodexRunOptions['hookTrust'];
  readonly sandbox?: CodexRunOptions['sandbox'];
  /** Gemini CLI and Qwen Code: the node that runs it (see GeminiRunOptions, QwenRunOptions). */
  readonly node?: string;
}

export interface ScenarioResult {
  readonly run: AgentRun;
  /** Every request the client sent to the model server. */
  readonly requests: readonly RecordedRequest[];
  /** The main-loop turns, each with the tool results the client sent back. */
  readonly turns: readonly ModelTurn[];
  readonly problems: readonly string[];
  /** A readable account of the run for a failed assertion: exit, report, turns and what they carried, stderr. */
  explain(): string;
}

function clip(text: string, length = 600): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

function explainScenario(
  client: AgentClientName,
  run: AgentRun,
  turns: readonly ModelTurn[],
  requests: readonly RecordedRequest[],
  problems: readonly string[],
): string {
  const lines = [
    `${client}: exit ${run.exitCode ?? `signal ${run.signal ?? '?'}`}${run.timedOut ? ' (timed out)' : ''} after ${run.durationMs} ms`,
    `report: ${JSON.stringify(run.report)}`,
    `requests: ${requests.map((request) => `${request.method} ${request.path}`).join(', ') || 'none'}`,
    ...problems.map((problem) => `server problem: ${problem}`),
    ...turns.map(
      (turn) =>
        `turn ${turn.turn}: ${turn.toolResults.map((result) => `${result.isError ? 'ERROR ' : ''}${clip(result.text)}`).join(' | ') || '(no tool results)'}`,
    ),
    '--- stderr (tail) ---',
    run.stderrTail || '(empty)',
    '--- stdout (tail) ---',
    clip(run.stdoutTail, 3000) || '(empty)',
  ];
  return lines.join('\n');
}

/**
 * One scripted run of a real agent client: starts the scripted model, runs the client in `repo`
 * until it stops, closes the server. The client comes from the agent cache (vitest's global setup
 * installs it; here it is only looked up).
 */
export async function runScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const server = await startScriptedModel({ steps: options.steps, cwd: options.repo });
  try {
    const common = {
      cwd: options.repo,
      prompt: options.prompt ?? 'Do the task in this repository.',
      timeoutMs: options.timeoutMs ?? 120_000,
      ...(options.env !== undefined ? { env: options.env } : {}),
      ...(options.args !== undefined ? { args: options.args } : {}),
      ...(options.bin !== undefined ? { bin: options.bin } : {}),
      ...(options.home !== undefined ? { home: options.home } : {}),
    };
    const run =
      options.client === 'claude-code'
        ? await runClaudeCode({ ...common, baseUrl: server.origin })
        : options.client === 'gemini-cli'
          ? await runGeminiCli({ ...common, baseUrl: server.origin, ...(options.node !== undefined ? { node: options.node } : {}) })
          : options.client === 'qwen-code'
            ? await runQwenCode({ ...common, baseUrl: `${server.origin}/v1`, ...(options.node !== undefined ? { node: options.node } : {}) })
            : options.client === 'copilot'
              ? await runCopilot({ ...common, baseUrl: `${server.origin}/v1` })
              : await runCodex({
                  ...common,
                  baseUrl: `${server.origin}/v1`,
                  ...(options.hookTrust !== undefined ? { hookTrust: options.hookTrust } : {}),
                  ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
                });
    const requests = [...server.requests];
    const turns = [...server.turns];
    const problems = [...server.problems];
    return { run, requests, turns, problems, explain: () => explainScenario(options.client, run, turns, requests, problems) };
  } finally {
    await server.close();
  }
}
