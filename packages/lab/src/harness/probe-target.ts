import { findProgram } from '@holdfast/gate';
import { z } from 'zod';
import { ProviderError, callJson, isHarnessTarget, withRuntime } from '../models/index.js';
import type { AdapterRuntime, TargetConfig } from '../models/index.js';
import { findHarnessBinary } from './find-harness.js';
import { targetProblem } from './target-problem.js';
import type { ProbeFacts } from './target-problem.js';

export interface ProbeResult {
  readonly reachable: boolean;
  /** True when the target needs no key, or its variable is set. */
  readonly hasKey: boolean;
  /** One sentence for a person: what was tried and what came back. Never the key. */
  readonly detail: string;
  /** Why it cannot run, with the fix, in one short line (see targetProblem); absent when nothing is known to stop it. */
  readonly problem?: string;
}

export interface ProbeOptions {
  readonly timeoutMs: number;
  readonly runtime?: Partial<AdapterRuntime> | undefined;
}

const ModelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

function keyOf(target: TargetConfig, env: NodeJS.ProcessEnv): { variable?: string; value?: string } {
  if (target.keyEnv === undefined) return {};
  const value = env[target.keyEnv];
  return value !== undefined && value.trim() !== '' ? { variable: target.keyEnv, value } : { variable: target.keyEnv };
}

async function probeOpenAiCompatible(
  target: Extract<TargetConfig, { provider: 'openai-compatible' }>,
  key: { variable?: string; value?: string },
  hasKey: boolean,
  options: ProbeOptions,
): Promise<ProbeResult> {
  const url = `${target.baseUrl.replace(/\/+$/, '')}/models`;
  try {
    const body = await callJson(
      {
        url,
        method: 'GET',
        headers: key.value !== undefined ? { authorization: `Bearer ${key.value}` } : {},
        timeoutMs: options.timeoutMs,
        secrets: [key.value],
      },
      withRuntime(options.runtime),
    );
    const list = ModelListSchema.safeParse(body);
    if (!list.success) return withProblem(target, { reachable: true, hasKey, detail: `${url} answered` });
    const listed = list.data.data.some((model) => model.id === target.model);
    const detail = listed
      ? `${url} answered and lists ${target.model}`
      : `${url} answered, but ${target.model} is not among its ${list.data.data.length} models${
          target.baseUrl.includes(':11434') ? ` (try \`ollama pull ${target.model}\`)` : ''
        }`;
    return withProblem(target, { reachable: true, hasKey, detail }, { modelMissing: !listed });
  } catch (error) {
    const detail = error instanceof ProviderError ? error.message : String(error);
    return withProblem(target, { reachable: false, hasKey, detail });
  }
}

function withProblem(target: TargetConfig, result: ProbeResult, facts: Omit<ProbeFacts, 'hasKey' | 'reachable'> = {}): ProbeResult {
  const problem = targetProblem(target, { ...facts, hasKey: result.hasKey, reachable: result.reachable });
  return problem !== undefined ? { ...result, problem } : result;
}

/**
 * The named agent CLIs run with the arm's own HOME, so without a key variable they cannot log in:
 * the variables a target passes through that look like keys, when none of them is set.
 */
function unsetKeys(target: TargetConfig, env: NodeJS.ProcessEnv): string[] {
  if (target.provider === 'agent' || !isHarnessTarget(target) || target.keyEnv !== undefined) return [];
  const keys = target.env.filter((name) => /(?:KEY|TOKEN)$/.test(name));
  return keys.some((name) => (env[name] ?? '').trim() !== '') ? [] : keys;
}

/**
 * Whether a target could answer now, cheaply and without spending tokens: an OpenAI-compatible
 * server is asked for its model list; an Anthropic target only needs its key (a call would cost);
 * a command target needs its program on PATH.
 */
export async function probeTarget(target: TargetConfig, env: NodeJS.ProcessEnv, options: ProbeOptions): Promise<ProbeResult> {
  const key = keyOf(target, env);
  const hasKey = key.variable === undefined || key.value !== undefined;
  switch (target.provider) {
    case 'openai-compatible':
      return probeOpenAiCompatible(target, key, hasKey, options);
    case 'anthropic':
      return withProblem(target, {
        reachable: hasKey,
        hasKey,
        detail: hasKey ? `${target.keyEnv} is set; not contacted (a probe would cost a call)` : `${target.keyEnv} is not set`,
      });
    case 'command': {
      const program = target.command[0] ?? '';
      const found = findProgram(program, env, target.cwd);
      const keyNote = hasKey ? '' : `; ${target.keyEnv} is not set`;
      return withProblem(target, {
        reachable: found !== undefined,
        hasKey,
        detail: (found !== undefined ? `found ${found}` : `\`${program}\` is not on PATH`) + keyNote,
      });
    }
    case 'claude-code':
    case 'codex':
    case 'gemini-cli':
    case 'qwen-code':
    case 'opencode':
    case 'copilot-cli':
    case 'agent': {
      const found = await findHarnessBinary(target, env);
      const keyNote = hasKey ? '' : `; ${target.keyEnv} is not set`;
      return withProblem(
        target,
        { reachable: found.path !== undefined, hasKey, detail: found.detail + keyNote },
        { unsetKeyVariables: unsetKeys(target, env) },
      );
    }
  }
}
