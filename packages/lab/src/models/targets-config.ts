import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { closest, distance } from 'fastest-levenshtein';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { InputError } from '@holdfast/core/contract';
import type { TargetInfo } from '@holdfast/core/contract';
import { ANTHROPIC_BASE_URL } from './anthropic.js';

export const TARGETS_CONFIG_FILE = 'holdfast.config.yaml';
export const OLLAMA_BASE_URL = 'http://localhost:11434/v1';

const targetId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'a target id is letters, digits, dots, dashes, colons and underscores, e.g. ollama-llama3');
const variableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'this is the NAME of an environment variable (e.g. OPENAI_API_KEY), never a key itself');
const httpUrl = z.url({ protocol: /^https?$/, error: 'a base URL is an http:// or https:// address' });
const shared = {
  id: targetId,
  timeoutMs: z.number().int().positive().max(3_600_000).optional(),
  /** The size cap of one answer in bytes (default 1,000,000); a bigger reply is cut off and recorded as unparseable, too large. */
  maxReplyBytes: z.number().int().positive().max(1_000_000_000).optional(),
  /** Total calls per generation, retries included. */
  maxAttempts: z.number().int().min(1).max(10).optional(),
};
const sampling = {
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: z.number().int().positive().max(1_000_000).optional(),
  /** Loop mode: model turns an arm may take with this target (over the run's `--turn-cap`). */
  turnCap: z.number().int().min(1).max(1_000).optional(),
};

const OpenAiCompatibleTargetSchema = z.strictObject({
  ...shared,
  ...sampling,
  provider: z.literal('openai-compatible'),
  model: z.string().min(1),
  baseUrl: httpUrl,
  /** Optional: local servers (Ollama, llama.cpp) take no key. */
  keyEnv: variableName.optional(),
  tokenParameter: z.enum(['max_tokens', 'max_completion_tokens', 'both']).default('max_tokens'),
});

const AnthropicTargetSchema = z.strictObject({
  ...shared,
  ...sampling,
  provider: z.literal('anthropic'),
  model: z.string().min(1),
  baseUrl: httpUrl.default(ANTHROPIC_BASE_URL),
  keyEnv: variableName.default('ANTHROPIC_API_KEY'),
});

const CommandTargetSchema = z.strictObject({
  ...shared,
  provider: z.literal('command'),
  /** A label for reports; the program picks the real model. */
  model: z.string().min(1).optional(),
  command: z.array(z.string().min(1)).min(1, 'a command target needs the program and its arguments, e.g. ["claude", "-p"]'),
  /** Variables passed to the program on top of PATH, HOME, LANG and friends. */
  env: z.array(variableName).default([]),
  /** A variable the program needs (it is passed through and must be set). */
  keyEnv: variableName.optional(),
  cwd: z.string().min(1).optional(),
});

/** An agent round is long: the harness works through many tool calls. 15 minutes per arm unless set. */
export const DEFAULT_AGENT_TIMEOUT_MS = 900_000;
export const DEFAULT_AGENT_MAX_TURNS = 50;
export const PROMPT_PLACEHOLDER = '{prompt}';

/** Settings every agent harness takes: where it is, what it may see, how long and how far it may go. */
const harness = {
  id: targetId,
  /** A label for reports, and the harness's `--model` (OpenCode's spelling is `provider/model`). */
  model: z.string().min(1).optional(),
  /** Variables passed through by name (their values are redacted wherever they could be echoed). */
  env: z.array(variableName).default([]),
  /** A variable the harness needs: passed through, and it must be set. */
  keyEnv: variableName.optional(),
  /** Per arm of a round: the whole harness run, not one model call. */
  timeoutMs: z.number().int().positive().max(86_400_000).default(DEFAULT_AGENT_TIMEOUT_MS),
  /** Model turns the harness may take before it is stopped. */
  maxTurns: z.number().int().positive().max(10_000).default(DEFAULT_AGENT_MAX_TURNS),
};

const knownHarness = {
  ...harness,
  /** The program; default: `claude` / `codex` / `gemini` / `qwen` / `opencode` / `copilot` on PATH, else holdfast's agent cache. */
  binary: z.string().min(1).optional(),
  /** Arguments added after holdfast's own (see the README for what holdfast passes). */
  args: z.array(z.string()).default([]),
};

export const ClaudeCodeTargetSchema = z.strictObject({ ...knownHarness, provider: z.literal('claude-code') });
export const CodexTargetSchema = z.strictObject({ ...knownHarness, provider: z.literal('codex') });
const GeminiCliTargetSchema = z.strictObject({ ...knownHarness, provider: z.literal('gemini-cli') });
const QwenCodeTargetSchema = z.strictObject({ ...knownHarness, provider: z.literal('qwen-code') });
const OpenCodeTargetSchema = z.strictObject({ ...knownHarness, provider: z.literal('opencode') });
const CopilotCliTargetSchema = z.strictObject({ ...knownHarness, provider: z.literal('copilot-cli') });

export const AgentTargetSchema = z.strictObject({
  ...harness,
  provider: z.literal('agent'),
  /**
   * Program and arguments, run without a shell in the arm's repository. An argument `{prompt}` is
   * replaced by the ticket; without one, the ticket goes to stdin.
   */
  command: z.array(z.string().min(1)).min(1, 'an agent target needs the program and its arguments, e.g. ["my-agent", "--task", "{prompt}"]'),
});

export const TargetConfigSchema = z.discriminatedUnion('provider', [
  OpenAiCompatibleTargetSchema,
  AnthropicTargetSchema,
  CommandTargetSchema,
  ClaudeCodeTargetSchema,
  CodexTargetSchema,
  GeminiCliTargetSchema,
  QwenCodeTargetSchema,
  OpenCodeTargetSchema,
  CopilotCliTargetSchema,
  AgentTargetSchema,
]);

/** Claude Code flags that would switch off the project's hooks: the measurement and the gate with them. */
const GATE_SKIPPING_ARGS = new Set(['--bare', '--setting-sources']);

export const TargetsConfigFileSchema = z
  .strictObject({
    version: z.literal(1).default(1),
    targets: z.array(TargetConfigSchema),
  })
  .superRefine((file, context) => {
    const seen = new Set<string>();
    file.targets.forEach((target, index) => {
      if (seen.has(target.id)) {
        context.addIssue({ code: 'custom', path: ['targets', index, 'id'], message: `the id "${target.id}" is used twice` });
      }
      seen.add(target.id);
      if (target.provider === 'claude-code') {
        const at = target.args.findIndex((arg) => GATE_SKIPPING_ARGS.has(arg.split('=')[0]!));
        if (at >= 0) {
          context.addIssue({
            code: 'custom',
            path: ['targets', index, 'args', at],
            message: `"${target.args[at]}" makes Claude Code skip project hooks, so holdfast could neither see nor hold anything; remove it`,
          });
        }
      }
    });
  });

export type OpenAiCompatibleTarget = z.infer<typeof OpenAiCompatibleTargetSchema>;
export type AnthropicTarget = z.infer<typeof AnthropicTargetSchema>;
export type CommandTarget = z.infer<typeof CommandTargetSchema>;
export type ClaudeCodeTarget = z.infer<typeof ClaudeCodeTargetSchema>;
export type CodexTarget = z.infer<typeof CodexTargetSchema>;
type GeminiCliTarget = z.infer<typeof GeminiCliTargetSchema>;
type QwenCodeTarget = z.infer<typeof QwenCodeTargetSchema>;
type OpenCodeTarget = z.infer<typeof OpenCodeTargetSchema>;
type CopilotCliTarget = z.infer<typeof CopilotCliTargetSchema>;
export type AgentTarget = z.infer<typeof AgentTargetSchema>;
/** A target that is a whole agent harness acting in a repository, not a model answering a prompt. */
export type HarnessTarget = ClaudeCodeTarget | CodexTarget | GeminiCliTarget | QwenCodeTarget | OpenCodeTarget | CopilotCliTarget | AgentTarget;
export type TargetConfig = z.infer<typeof TargetConfigSchema>;

export const HARNESS_PROVIDERS = ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'opencode', 'copilot-cli', 'agent'] as const;

export function isHarnessTarget(target: TargetConfig): target is HarnessTarget {
  return (HARNESS_PROVIDERS as readonly string[]).includes(target.provider);
}

export interface TargetsConfig {
  /** The file the targets came from, or `built-in` when there is none. */
  readonly source: string;
  readonly targets: readonly TargetConfig[];
}

/** With no config file, the one target that needs no key and no money: a local Ollama. */
export const DEFAULT_TARGETS: readonly TargetConfig[] = [
  { id: 'ollama-llama3', provider: 'openai-compatible', model: 'llama3.1:8b', baseUrl: OLLAMA_BASE_URL, tokenParameter: 'max_tokens' },
];

/** Where an issue is: `target "local", field "baseUrl"`, or the file's own field. */
function describePath(path: readonly PropertyKey[], raw: unknown): string {
  const [first, index, ...rest] = path;
  if (first === 'targets' && typeof index === 'number') {
    const entry = entryAt(raw, index);
    const name = typeof entry?.['id'] === 'string' ? `target "${entry['id']}"` : `target #${index + 1}`;
    const field = rest.map(String).join('.');
    return `${name}${field ? `, field "${field}"` : ''}`;
  }
  const field = path.map(String).join('.');
  return field ? `field "${field}"` : '';
}

function entryAt(raw: unknown, index: number): Record<string, unknown> | undefined {
  const targets = (raw as { targets?: unknown } | null)?.targets;
  const entry: unknown = Array.isArray(targets) ? targets[index] : undefined;
  return typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : undefined;
}

/** The keys the object at `path` may have: the file's own, or a target's for its provider (every provider's when it names none). */
function validKeys(path: readonly PropertyKey[], raw: unknown): readonly string[] {
  if (path.length === 0) return Object.keys(TargetsConfigFileSchema.shape);
  const [first, index] = path;
  if (path.length !== 2 || first !== 'targets' || typeof index !== 'number') return [];
  const provider = entryAt(raw, index)?.['provider'];
  const options = TargetConfigSchema.options.filter((option) => option.shape.provider.value === provider);
  return [...new Set((options.length > 0 ? options : TargetConfigSchema.options).flatMap((option) => Object.keys(option.shape)))];
}

/** The valid key a mistyped one most likely meant (`baseURL` → `baseUrl`), if one is near enough to say so. */
function nearestKey(key: string, valid: readonly string[]): string | undefined {
  if (valid.length === 0) return undefined;
  const lower = key.toLowerCase();
  const best = closest(
    lower,
    valid.map((candidate) => candidate.toLowerCase()),
  );
  const meant = valid.find((candidate) => candidate.toLowerCase() === best);
  return meant !== undefined && distance(lower, best) <= Math.max(2, Math.floor(key.length / 3)) ? meant : undefined;
}

function sameObject(issuePath: readonly PropertyKey[], objectPath: readonly PropertyKey[]): boolean {
  return issuePath.length === objectPath.length + 1 && objectPath.every((part, index) => issuePath[index] === part);
}

/**
 * One line per issue, naming the file, the target and the field. A key the schema does not know comes first, with
 * the valid key it most likely meant ("did you mean"); the complaint that the meant key is missing, which the typo
 * alone caused, is left out, so the first line names the real cause.
 */
function describeIssues(issues: readonly z.core.$ZodIssue[], raw: unknown, file: string): string[] {
  const typos: string[] = [];
  const meantMissing: { path: readonly PropertyKey[]; key: string }[] = [];
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const valid = validKeys(issue.path, raw);
    const where = describePath(issue.path, raw);
    for (const key of issue.keys) {
      const meant = nearestKey(key, valid);
      if (meant !== undefined) meantMissing.push({ path: issue.path, key: meant });
      const fix = meant !== undefined ? `did you mean "${meant}"?` : `remove it (valid keys: ${valid.join(', ')})`;
      typos.push(`${file}: ${where ? `${where}: ` : ''}unknown key "${key}": ${fix}`);
    }
  }
  const rest = issues
    .filter((issue) => issue.code !== 'unrecognized_keys')
    .filter((issue) => !meantMissing.some((meant) => sameObject(issue.path, meant.path) && issue.path.at(-1) === meant.key))
    .map((issue) => {
      const where = describePath(issue.path, raw);
      return `${file}${where ? `${where.startsWith('target') ? ': ' : ', '}${where}` : ''}: ${issue.message}`;
    });
  return [...typos, ...rest];
}

export type SafeParseTargetsConfigResult = { readonly success: true; readonly config: TargetsConfig } | { readonly success: false; readonly error: InputError };

/** Reads the YAML text of a targets config; errors name the file, the target and the field. */
export function safeParseTargetsConfig(text: string, file: string = TARGETS_CONFIG_FILE): SafeParseTargetsConfigResult {
  const document = parseDocument(text, { prettyErrors: true });
  const yamlError = document.errors[0];
  if (yamlError !== undefined) {
    return { success: false, error: new InputError('E_CONFIG', `${file}: not valid YAML: ${yamlError.message}`, { cause: yamlError }) };
  }
  const raw: unknown = document.toJS();
  const parsed = TargetsConfigFileSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const lines = describeIssues(parsed.error.issues, raw, file);
    return { success: false, error: new InputError('E_CONFIG', lines.join('\n'), { cause: parsed.error }) };
  }
  return { success: true, config: { source: file, targets: parsed.data.targets } };
}

export function parseTargetsConfig(text: string, file: string = TARGETS_CONFIG_FILE): TargetsConfig {
  const result = safeParseTargetsConfig(text, file);
  if (!result.success) throw result.error;
  return result.config;
}

/**
 * The targets of the project at `cwd`, from `holdfast.config.yaml`. Without that file: a local
 * Ollama only, so a fresh checkout works offline and costs nothing.
 */
export async function loadTargetsConfig(cwd: string): Promise<TargetsConfig> {
  const file = join(cwd, TARGETS_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { source: 'built-in', targets: DEFAULT_TARGETS };
    throw new InputError('E_CONFIG', `${file}: cannot be read: ${(error as Error).message}`, { cause: error });
  }
  return parseTargetsConfig(text, file);
}

/** What a run file records about a target: never the key, not even its variable. */
export function toTargetInfo(target: TargetConfig): TargetInfo {
  return {
    id: target.id,
    provider: target.provider,
    ...(target.model !== undefined ? { model: target.model } : {}),
    ...(target.provider === 'openai-compatible' || target.provider === 'anthropic' ? { baseUrl: target.baseUrl } : {}),
  };
}
