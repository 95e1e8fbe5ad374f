import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { agentCacheRoot, ensureAgentClient, ensureNodeLine } from '../clients.js';
import type { AgentClientName } from '../clients.js';
import { readClaudeCodeResult } from '../claude-code/index.js';
import { createCodexEventReader, trustCodexHooks } from '../codex/index.js';
import { readGeminiResult } from '../gemini-cli/index.js';
import { readQwenCodeResult } from '../qwen-code/index.js';
import { readOpenCodeResult } from '../opencode/index.js';
import { runHarnessProcess } from '../process.js';
import type { HarnessReport } from '../report.js';

/** A key of the right shape and no value: the model server is ours. */
export const FAKE_ANTHROPIC_KEY = 'sk-ant-api03-holdfast-scripted-model-not-a-real-key';
export const FAKE_OPENAI_KEY = 'sk-holdfast-scripted-model-not-a-real-key';
export const FAKE_GEMINI_KEY = 'holdfast-scripted-model-not-a-real-key';
/** Any name: Qwen Code sends it to the OpenAI-compatible endpoint as `model`. */
const QWEN_MODEL = 'holdfast-scripted';
/** A model Copilot CLI knows (its limits and agent settings come from the name); the scripted server answers any. */
const COPILOT_MODEL = 'gpt-4.1';
/** Any name: OpenCode sends it to the OpenAI-compatible provider as `model`. */
const OPENCODE_MODEL = 'holdfast-scripted';

/**
 * A model slug from Codex's bundled catalog: with an unknown slug Codex falls back to generic
 * metadata and offers no apply_patch tool at all; with this one it declares apply_patch as a
 * freeform (`custom`) tool and the shell as `exec_command`, as it does for real users.
 */
export const CODEX_MODEL = 'gpt-5.5';

const PROVIDER = 'holdfast-scripted';
const KEY_VARIABLE = 'HOLDFAST_SCRIPTED_API_KEY';

/** How one scripted client run ended, with the harness's report read by the room's reader for that client. */
export interface ScriptedRun {
  readonly client: AgentClientName;
  readonly exitCode: number | undefined;
  readonly signal: string | undefined;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly report: HarnessReport;
  readonly stdout: string;
  readonly stderr: string;
  /** The isolated HOME the run used (and CODEX_HOME under it for Codex), kept for inspection. */
  readonly home: string;
}

export interface ScriptedRunOptions {
  /** The repository the agent works in. */
  readonly cwd: string;
  readonly prompt: string;
  /**
   * The model server: Claude Code's ANTHROPIC_BASE_URL, Gemini CLI's GOOGLE_GEMINI_BASE_URL; for Codex
   * the provider base_url, for Qwen Code OPENAI_BASE_URL, for Copilot CLI COPILOT_PROVIDER_BASE_URL (each ending in /v1).
   */
  readonly baseUrl: string;
  /** The client's executable; by default the one in the agent cache (installed there on first use). */
  readonly bin?: string;
  /** Added to the small environment built here; nothing of the caller's environment leaks in otherwise. */
  readonly env?: NodeJS.ProcessEnv;
  readonly args?: readonly string[];
  readonly timeoutMs: number;
  /** An isolated HOME to use; a fresh temporary one by default. */
  readonly home?: string;
  /**
   * Codex: how the project's hooks get to run. `persisted` (default): trust recorded in the user
   * config through Codex's app-server, as a person's /hooks review does (see trustCodexHooks). `flag`:
   * `--dangerously-bypass-hook-trust`, this invocation only. `none`: as a person who never reviewed
   * them; Codex then runs none of the project's hooks and says nothing.
   */
  readonly hookTrust?: 'persisted' | 'flag' | 'none';
  /** Codex's own sandbox (default danger-full-access: the gate is the only thing between the model and the repo). */
  readonly sandbox?: CodexSandbox;
  /**
   * The Node line the client's side runs on (see nodeOfLine): a client that is a node script runs on it
   * (Gemini CLI, Qwen Code, Codex's launcher), and it comes first on the client's PATH, so the shell's
   * `node` and a hook that finds holdfast in the project's node_modules run it too. By default the node
   * running this process, but Qwen Code (it needs Node 22 or newer), which runs on the agent cache's Node 24.
   */
  readonly node?: string;
}

type CodexSandbox = 'danger-full-access' | 'workspace-write' | 'read-only';

/**
 * The user config in CODEX_HOME for a scripted run: the scripted model as a custom provider on the
 * Responses wire API, the project trusted (Codex loads a project's .codex/ layer, hooks included,
 * only for a trusted project), no approval prompts, and hooks on. The sandbox comes on the command line.
 */
export function codexConfig(options: { baseUrl: string; cwd: string }): string {
  return [
    `model = ${JSON.stringify(CODEX_MODEL)}`,
    `model_provider = ${JSON.stringify(PROVIDER)}`,
    'approval_policy = "never"',
    'check_for_update_on_startup = false',
    '',
    `[model_providers.${PROVIDER}]`,
    'name = "holdfast scripted model"',
    `base_url = ${JSON.stringify(options.baseUrl)}`,
    `env_key = ${JSON.stringify(KEY_VARIABLE)}`,
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    `[projects.${JSON.stringify(options.cwd)}]`,
    'trust_level = "trusted"',
    '',
    '[features]',
    'hooks = true',
    '',
  ].join('\n');
}

/**
 * Where a fresh Codex HOME goes. Codex refuses to create its helper binaries (codex-linux-sandbox,
 * found by bubblewrap on PATH) under a temporary directory, so its own sandbox works only with a
 * CODEX_HOME outside /tmp; with danger-full-access nothing needs them.
 */
function freshCodexHome(sandbox: CodexSandbox): string {
  if (sandbox === 'danger-full-access') return mkdtempSync(join(tmpdir(), 'holdfast-codex-home-'));
  const homes = join(agentCacheRoot(), 'homes');
  mkdirSync(homes, { recursive: true });
  return mkdtempSync(join(homes, 'codex-'));
}

interface Launch {
  readonly file: string;
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly read: (stdout: string) => HarnessReport;
}

/** The client's PATH: this process's, with the folder of the chosen node first when there is one. */
const basePath = (options: ScriptedRunOptions): string => {
  const path = process.env.PATH ?? '/usr/bin:/bin';
  return options.node === undefined ? path : `${dirname(options.node)}:${path}`;
};

/**
 * Claude Code headless, the way the gate's tests drive it (issue 10): `-p PROMPT --permission-mode
 * acceptEdits --allowedTools Bash --output-format json`, the model at ANTHROPIC_BASE_URL with a fake
 * key, non-essential traffic off and an isolated HOME (no user settings, hooks or login apply; the
 * project's .claude/settings.json does).
 */
async function claudeCode(options: ScriptedRunOptions): Promise<Launch> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'holdfast-claude-home-'));
  return {
    file: options.bin ?? (await ensureAgentClient('claude-code')),
    args: ['-p', options.prompt, '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash', '--output-format', 'json', ...(options.args ?? [])],
    env: {
      PATH: basePath(options),
      HOME: home,
      ANTHROPIC_BASE_URL: options.baseUrl,
      ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      ...options.env,
    },
    home,
    read: readClaudeCodeResult,
  };
}

/** `codex exec --json` with an isolated HOME and CODEX_HOME whose config.toml points at the scripted model. */
async function codex(options: ScriptedRunOptions): Promise<Launch> {
  const bin = options.bin ?? (await ensureAgentClient('codex'));
  const sandbox = options.sandbox ?? 'danger-full-access';
  const home = options.home ?? freshCodexHome(sandbox);
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, 'config.toml'), codexConfig({ baseUrl: options.baseUrl, cwd: options.cwd }));
  const env: NodeJS.ProcessEnv = { PATH: basePath(options), HOME: home, CODEX_HOME: codexHome, [KEY_VARIABLE]: FAKE_OPENAI_KEY, ...options.env };
  const hookTrust = options.hookTrust ?? 'persisted';
  if (hookTrust === 'persisted') await trustCodexHooks({ bin, cwd: options.cwd, env });
  const trust = hookTrust === 'flag' ? ['--dangerously-bypass-hook-trust'] : [];
  // Codex's npm package is a node launcher (bin/codex.js) for its native binary: run by the chosen node, when there is one.
  const launcher = options.node !== undefined && options.bin === undefined ? { file: options.node, args: [bin] } : { file: bin, args: [] };
  return {
    file: launcher.file,
    args: [...launcher.args, 'exec', '--json', '--skip-git-repo-check', '--sandbox', sandbox, ...trust, ...(options.args ?? []), options.prompt],
    env,
    home,
    read: (stdout) => {
      const reader = createCodexEventReader();
      for (const line of stdout.split('\n')) reader.push(line);
      return reader.report();
    },
  };
}

/**
 * Gemini CLI headless: `-p PROMPT --yolo --output-format json` (every tool call approved: the hook is
 * what refuses), the Gemini API at GOOGLE_GEMINI_BASE_URL with a fake key, an isolated HOME whose
 * settings pick API-key auth, and the project trusted (GEMINI_CLI_TRUST_WORKSPACE): Gemini CLI runs
 * a project's hooks only in a trusted folder.
 */
async function geminiCli(options: ScriptedRunOptions): Promise<Launch> {
  const bin = options.bin ?? (await ensureAgentClient('gemini-cli'));
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'holdfast-gemini-home-'));
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } })}\n`);
  return {
    file: options.node ?? process.execPath,
    args: [bin, '-p', options.prompt, '--yolo', '--output-format', 'json', ...(options.args ?? [])],
    env: {
      PATH: basePath(options),
      HOME: home,
      GEMINI_API_KEY: FAKE_GEMINI_KEY,
      GOOGLE_GEMINI_BASE_URL: options.baseUrl,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      ...options.env,
    },
    home,
    read: readGeminiResult,
  };
}

/**
 * Qwen Code headless: `-p PROMPT --yolo --auth-type openai --output-format json` (every tool call
 * approved: the hook is what refuses), the OpenAI-compatible endpoint at OPENAI_BASE_URL with a fake
 * key, and an isolated HOME whose settings turn off update checks, usage statistics and telemetry.
 * Qwen Code runs a project's .qwen/settings.json hooks without a trust step.
 */
async function qwenCode(options: ScriptedRunOptions): Promise<Launch> {
  const bin = options.bin ?? (await ensureAgentClient('qwen-code'));
  const node = options.node ?? (await ensureNodeLine('node-24'));
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'holdfast-qwen-home-'));
  mkdirSync(join(home, '.qwen'), { recursive: true });
  const settings = { general: { enableAutoUpdate: false }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } };
  writeFileSync(join(home, '.qwen', 'settings.json'), `${JSON.stringify(settings)}\n`);
  return {
    file: node,
    args: [bin, '-p', options.prompt, '--yolo', '--auth-type', 'openai', '--output-format', 'json', ...(options.args ?? [])],
    env: {
      PATH: basePath(options),
      HOME: home,
      OPENAI_API_KEY: FAKE_OPENAI_KEY,
      OPENAI_BASE_URL: options.baseUrl,
      OPENAI_MODEL: QWEN_MODEL,
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
      ...options.env,
    },
    home,
    read: readQwenCodeResult,
  };
}

/**
 * OpenCode headless: `run --format json PROMPT`, the scripted model as an OpenAI-compatible provider
 * (`@ai-sdk/openai-compatible`, bundled in the binary) in the isolated HOME's user config, no login.
 * Nothing leaves the machine: no models.dev catalogue fetch, no auto-update, and npm offline, so
 * OpenCode's install of its plugin package into `.opencode/` and its user folder fails at once
 * instead of reaching the registry (it waits for that install when a project has a plugin).
 */
async function openCode(options: ScriptedRunOptions): Promise<Launch> {
  const bin = options.bin ?? (await ensureAgentClient('opencode'));
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'holdfast-opencode-home-'));
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      [PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'holdfast scripted model',
        options: { baseURL: options.baseUrl, apiKey: FAKE_OPENAI_KEY },
        models: { [OPENCODE_MODEL]: { name: 'scripted', tool_call: true } },
      },
    },
    model: `${PROVIDER}/${OPENCODE_MODEL}`,
    small_model: `${PROVIDER}/${OPENCODE_MODEL}`,
    autoupdate: false,
    share: 'disabled',
  };
  mkdirSync(join(home, '.config', 'opencode'), { recursive: true });
  writeFileSync(join(home, '.config', 'opencode', 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
  return {
    file: bin,
    args: ['run', '--format', 'json', ...(options.args ?? []), options.prompt],
    env: {
      PATH: basePath(options),
      HOME: home,
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      npm_config_offline: 'true',
      ...options.env,
    },
    home,
    read: readOpenCodeResult,
  };
}

/**
 * GitHub Copilot CLI headless with no GitHub login: `COPILOT_OFFLINE=true` (no network but the
 * provider: no authentication, telemetry, web tools or auto-update) and a custom provider (BYOK)
 * speaking OpenAI chat completions at COPILOT_PROVIDER_BASE_URL; `-p PROMPT --allow-all
 * --trust-folder` (every tool approved, the project's `.github/hooks/` trusted for this session).
 * It prints text only: its report is empty.
 */
async function copilot(options: ScriptedRunOptions): Promise<Launch> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'holdfast-copilot-home-'));
  return {
    file: options.bin ?? (await ensureAgentClient('copilot')),
    args: ['-p', options.prompt, '--allow-all', '--trust-folder', '--disable-client-telemetry', ...(options.args ?? [])],
    env: {
      PATH: basePath(options),
      HOME: home,
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: options.baseUrl,
      COPILOT_PROVIDER_API_KEY: FAKE_OPENAI_KEY,
      COPILOT_MODEL,
      ...options.env,
    },
    home,
    read: () => ({}),
  };
}

const LAUNCHERS: Record<AgentClientName, (options: ScriptedRunOptions) => Promise<Launch>> = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  'qwen-code': qwenCode,
  opencode: openCode,
  copilot,
};

/**
 * One run of a real client against a scripted model, as the gate's end-to-end tests drive it: the
 * client from the agent cache, run by the harness room's process runner (its own process group, the
 * whole tree stopped at the end) and read by the room's reader for that client.
 */
export async function runScriptedClient(client: AgentClientName, options: ScriptedRunOptions): Promise<ScriptedRun> {
  const launch = await LAUNCHERS[client](options);
  const exit = await runHarnessProcess({
    file: launch.file,
    args: launch.args,
    env: Object.fromEntries(Object.entries(launch.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    outputCapBytes: 64 * 1024 * 1024,
  });
  return {
    client,
    exitCode: exit.exitCode,
    signal: exit.signal ?? (exit.spawnError !== undefined ? `spawn error: ${exit.spawnError}` : undefined),
    timedOut: exit.timedOut,
    durationMs: exit.durationMs,
    report: launch.read(exit.stdout),
    stdout: exit.stdout,
    stderr: exit.stderr.text,
    home: launch.home,
  };
}
