import type { AgentClientName } from '../clients.js';
import type { ModelTurn, ScriptStep } from './script.js';
import { runScriptedClient } from './scripted-run.js';
import type { ScriptedRun, ScriptedRunOptions } from './scripted-run.js';
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
  /** The client's HOME (see ScriptedRunOptions.home). */
  readonly home?: string;
  /** Codex only (see ScriptedRunOptions). */
  readonly hookTrust?: ScriptedRunOptions['hookTrust'];
  readonly sandbox?: ScriptedRunOptions['sandbox'];
  /** The Node line the client runs on and finds first on its PATH, from nodeOfLine (see ScriptedRunOptions.node). */
  readonly node?: string;
}

export interface ScenarioResult {
  readonly run: ScriptedRun;
  /** Every request the client sent to the model server. */
  readonly requests: readonly RecordedRequest[];
  /** The main-loop turns, each with the tool results the client sent back. */
  readonly turns: readonly ModelTurn[];
  readonly problems: readonly string[];
  /** A readable account of the run for a failed assertion: exit, report, turns and what they carried, stderr. */
  explain(): string;
}

/** The last lines of an output. */
function tail(text: string, lines = 30): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function clip(text: string, length = 600): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

function explainScenario(
  client: AgentClientName,
  run: ScriptedRun,
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
    tail(run.stderr) || '(empty)',
    '--- stdout (tail) ---',
    clip(tail(run.stdout), 3000) || '(empty)',
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
    const run = await runScriptedClient(options.client, {
      ...common,
      // An OpenAI-style base URL names the API's version (Codex, Qwen Code, Copilot CLI); Claude Code and Gemini CLI add their own paths.
      baseUrl: options.client === 'claude-code' || options.client === 'gemini-cli' ? server.origin : `${server.origin}/v1`,
      ...(options.hookTrust !== undefined ? { hookTrust: options.hookTrust } : {}),
      ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
      ...(options.node !== undefined ? { node: options.node } : {}),
    });
    const requests = [...server.requests];
    const turns = [...server.turns];
    const problems = [...server.problems];
    return { run, requests, turns, problems, explain: () => explainScenario(options.client, run, turns, requests, problems) };
  } finally {
    await server.close();
  }
}
