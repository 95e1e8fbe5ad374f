import { InputError } from '@holdfast/core/contract';
import { createAnthropicAdapter } from './anthropic.js';
import { createCommandAdapter } from './command-adapter.js';
import type { AdapterRuntime, ModelAdapter } from './model-adapter.js';
import { createOpenAiCompatibleAdapter } from './openai-compatible.js';
import type { RetryPolicy } from './retry.js';
import { isHarnessTarget } from './targets-config.js';
import type { TargetConfig } from './targets-config.js';

export interface CreateAdapterOptions {
  readonly runtime?: Partial<AdapterRuntime> | undefined;
  /** Overrides the retry policy (the target's `maxAttempts` still wins for the attempt count). */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Overrides every target's per-call timeout. */
  readonly timeoutMs?: number | undefined;
  /** Overrides every target's answer size cap (`--max-reply-bytes`). */
  readonly maxReplyBytes?: number | undefined;
  /** Working directory of command targets that set none. */
  readonly cwd?: string | undefined;
}

function requireKey(target: TargetConfig, variable: string, env: NodeJS.ProcessEnv): string {
  const value = env[variable];
  if (value === undefined || value.trim() === '') {
    throw new InputError(
      'E_MISSING_KEY',
      `target "${target.id}" needs a key in ${variable}, which is not set. Put it in .env (see .env.example) or export it.`,
    );
  }
  return value;
}

/** The adapter for one configured target. A missing key is an InputError naming the variable. */
export function createAdapter(target: TargetConfig, env: NodeJS.ProcessEnv, options: CreateAdapterOptions = {}): ModelAdapter {
  if (isHarnessTarget(target)) {
    throw new InputError(
      'E_TARGET_KIND',
      `target "${target.id}" is an agent harness (provider ${target.provider}): it acts in a repository rather than answering a prompt; run it with \`holdfast run --mode agent\`.`,
    );
  }
  const retry: Partial<RetryPolicy> = {
    ...options.retry,
    ...(target.maxAttempts !== undefined ? { maxAttempts: target.maxAttempts } : {}),
  };
  const timeoutMs = options.timeoutMs ?? target.timeoutMs;
  const maxReplyBytes = options.maxReplyBytes ?? target.maxReplyBytes;
  switch (target.provider) {
    case 'openai-compatible':
      return createOpenAiCompatibleAdapter({
        id: target.id,
        model: target.model,
        baseUrl: target.baseUrl,
        apiKey: target.keyEnv !== undefined ? requireKey(target, target.keyEnv, env) : undefined,
        tokenParameter: target.tokenParameter,
        temperature: target.temperature,
        maxTokens: target.maxTokens,
        timeoutMs,
        maxReplyBytes,
        retry,
        runtime: options.runtime,
      });
    case 'anthropic':
      return createAnthropicAdapter({
        id: target.id,
        model: target.model,
        baseUrl: target.baseUrl,
        apiKey: requireKey(target, target.keyEnv, env),
        temperature: target.temperature,
        maxTokens: target.maxTokens,
        timeoutMs,
        maxReplyBytes,
        retry,
        runtime: options.runtime,
      });
    case 'command': {
      if (target.keyEnv !== undefined) requireKey(target, target.keyEnv, env);
      return createCommandAdapter({
        id: target.id,
        command: target.command,
        model: target.model,
        env,
        allowEnv: target.keyEnv !== undefined ? [...target.env, target.keyEnv] : target.env,
        cwd: target.cwd ?? options.cwd,
        timeoutMs,
        retry,
        runtime: options.runtime,
      });
    }
  }
}
