import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentCacheRoot, ensureAgentClient } from './agent-clients.js';
import { runAgentProcess, tail } from './agent-process.js';
import type { AgentReport, AgentRun, RunAgentOptions } from './agent-run.js';
import { trustCodexHooks } from './codex-hook-trust.js';
import { jsonOrUndefined } from '@holdfast/core/contract';

export const FAKE_OPENAI_KEY = 'sk-holdfast-scripted-model-not-a-real-key';
const PROVIDER = 'holdfast-scripted';
const KEY_VARIABLE = 'HOLDFAST_SCRIPTED_API_KEY';

/**
 * A model slug from Codex's bundled catalog: with an unknown slug Codex falls back to generic
 * metadata and offers no apply_patch tool at all; with this one it declares apply_patch as a
 * freeform (`custom`) tool and the shell as `exec_command`, as it does for real users.
 */
export const CODEX_MODEL = 'gpt-5.5';

function tomlString(text: string): string {
  return JSON.stringify(text);
}

export interface CodexRunOptions extends RunAgentOptions {
  /**
   * How the project's hooks get to run. `persisted` (default): trust recorded in the user config
   * through Codex's app-server, as a person's /hooks review does (see trustCodexHooks). `flag`:
   * `--dangerously-bypass-hook-trust`, this invocation only. `none`: as a person who never reviewed
   * them; Codex then runs none of the project's hooks and says nothing.
   */
  readonly hookTrust?: 'persisted' | 'flag' | 'none';
  readonly sandbox?: CodexSandbox;
}

export type CodexSandbox = 'danger-full-access' | 'workspace-write' | 'read-only';

/**
 * The user config in CODEX_HOME: the scripted model as a custom provider on the Responses wire API,
 * the project trusted (Codex loads a project's .codex/ layer, hooks included, only for a trusted
 * project), no approval prompts, and hooks on. The sandbox comes on the command line.
 */
export function codexConfig(options: { baseUrl: string; cwd: string }): string {
  return [
    `model = ${tomlString(CODEX_MODEL)}`,
    `model_provider = ${tomlString(PROVIDER)}`,
    'approval_policy = "never"',
    'check_for_update_on_startup = false',
    '',
    `[model_providers.${PROVIDER}]`,
    'name = "holdfast scripted model"',
    `base_url = ${tomlString(options.baseUrl)}`,
    `env_key = ${tomlString(KEY_VARIABLE)}`,
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    `[projects.${tomlString(options.cwd)}]`,
    'trust_level = "trusted"',
    '',
    '[features]',
    'hooks = true',
    '',
  ].join('\n');
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Reads the JSONL events of `codex exec --json`: turn.completed usage, the last agent_message, errors. */
export function readCodexReport(stdout: string): AgentReport | undefined {
  const events: Record<string, unknown>[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    // A partial line from a killed run is left out: the events before it still count.
    const event = jsonOrUndefined(line);
    if (typeof event === 'object' && event !== null) events.push(event as Record<string, unknown>);
  }
  if (events.length === 0) return undefined;
  let turns = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let finalText: string | undefined;
  let isError = false;
  for (const event of events) {
    if (event.type === 'turn.completed') {
      turns += 1;
      const usage = (event.usage ?? {}) as Record<string, unknown>;
      inputTokens += numberOr(usage.input_tokens) ?? 0;
      outputTokens += numberOr(usage.output_tokens) ?? 0;
    }
    if (event.type === 'turn.failed' || event.type === 'error') isError = true;
    const item = (event.item ?? {}) as Record<string, unknown>;
    if (event.type === 'item.completed' && item.type === 'agent_message' && typeof item.text === 'string') finalText = item.text;
  }
  return { turns, inputTokens, outputTokens, costUsd: undefined, deniedCalls: undefined, finalText, isError };
}

/**
 * Where a fresh HOME goes. Codex refuses to create its helper binaries (codex-linux-sandbox, found by
 * bubblewrap on PATH) under a temporary directory, so its own sandbox works only with a CODEX_HOME
 * outside /tmp; with danger-full-access nothing needs them.
 */
function freshHome(sandbox: CodexSandbox): string {
  if (sandbox === 'danger-full-access') return mkdtempSync(join(tmpdir(), 'holdfast-codex-home-'));
  const homes = join(agentCacheRoot(), 'homes');
  mkdirSync(homes, { recursive: true });
  return mkdtempSync(join(homes, 'codex-'));
}

/**
 * Runs `codex exec --json` in `cwd` with an isolated HOME and CODEX_HOME whose config.toml points at
 * the scripted model. The sandbox is `danger-full-access` by default, so the gate is the only thing
 * between the model and the repo (Codex's workspace-write also works as root here, given a home
 * outside /tmp, but it would block some writes itself and hide what the gate does).
 */
export async function runCodex(options: CodexRunOptions): Promise<AgentRun> {
  const bin = options.bin ?? (await ensureAgentClient('codex'));
  const sandbox = options.sandbox ?? 'danger-full-access';
  const home = options.home ?? freshHome(sandbox);
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, 'config.toml'), codexConfig({ baseUrl: options.baseUrl, cwd: options.cwd }));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: codexHome,
    [KEY_VARIABLE]: FAKE_OPENAI_KEY,
    ...options.env,
  };
  const hookTrust = options.hookTrust ?? 'persisted';
  if (hookTrust === 'persisted') await trustCodexHooks({ bin, cwd: options.cwd, env });
  const trust = hookTrust === 'flag' ? ['--dangerously-bypass-hook-trust'] : [];
  const args = ['exec', '--json', '--skip-git-repo-check', '--sandbox', sandbox, ...trust, ...(options.args ?? []), options.prompt];
  const outcome = await runAgentProcess({ command: bin, args, cwd: options.cwd, env, timeoutMs: options.timeoutMs });
  return {
    client: 'codex',
    ...outcome,
    report: readCodexReport(outcome.stdout),
    stdoutTail: tail(outcome.stdout),
    stderrTail: tail(outcome.stderr),
    home,
  };
}
