import { findProgram } from '@holdfast/gate';

/** Where a local Ollama answers by default; only loopback is ever probed. */
export const LOCAL_OLLAMA_URL = 'http://127.0.0.1:11434';

/** A target `holdfast init` found, written as it goes into holdfast.config.yaml, with why it is there. */
export interface FoundTarget {
  readonly config: Record<string, unknown>;
  readonly why: string;
  /** Harness targets run with `--mode agent`; model targets in plan (or loop) mode. */
  readonly mode: 'plan' | 'agent';
}

export interface DetectOptions {
  readonly env: NodeJS.ProcessEnv;
  /** The Ollama to ask for its models (default LOCAL_OLLAMA_URL). */
  readonly ollamaUrl?: string;
  /** How long Ollama may take to answer. */
  readonly timeoutMs?: number;
}

const KEYED: readonly { env: string; config: Record<string, unknown> }[] = [
  { env: 'ANTHROPIC_API_KEY', config: { id: 'anthropic-sonnet', provider: 'anthropic', model: 'claude-sonnet-4-5', keyEnv: 'ANTHROPIC_API_KEY' } },
  {
    env: 'OPENAI_API_KEY',
    config: { id: 'openai-gpt-4.1-mini', provider: 'openai-compatible', model: 'gpt-4.1-mini', baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY' },
  },
  {
    env: 'OPENROUTER_API_KEY',
    config: {
      id: 'openrouter-llama-3.3-70b',
      provider: 'openai-compatible',
      model: 'meta-llama/llama-3.3-70b-instruct',
      baseUrl: 'https://openrouter.ai/api/v1',
      keyEnv: 'OPENROUTER_API_KEY',
    },
  },
];

/** The models a local Ollama has pulled, or none when it does not answer. */
async function ollamaModels(url: string, timeoutMs: number): Promise<string[]> {
  try {
    const response = await fetch(`${url}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return [];
    const body = (await response.json()) as { models?: { name?: unknown }[] };
    return (body.models ?? []).map((model) => model.name).filter((name): name is string => typeof name === 'string' && name !== '');
  } catch {
    return [];
  }
}

/**
 * The targets this machine can run: a key in the environment per hosted provider, each model of a
 * local Ollama (up to three), and the `claude` and `codex` harnesses on PATH. No key value is read
 * beyond whether it is set.
 */
export async function detectTargets(options: DetectOptions): Promise<FoundTarget[]> {
  const found: FoundTarget[] = [];
  for (const keyed of KEYED) {
    if ((options.env[keyed.env] ?? '') !== '') found.push({ config: keyed.config, why: `${keyed.env} is set`, mode: 'plan' });
  }
  const ollamaUrl = (options.ollamaUrl ?? LOCAL_OLLAMA_URL).replace(/\/+$/, '');
  for (const model of (await ollamaModels(ollamaUrl, options.timeoutMs ?? 1_500)).slice(0, 3)) {
    const id = `ollama-${model.replace(/[^A-Za-z0-9._:-]+/g, '-')}`;
    found.push({ config: { id, provider: 'openai-compatible', model, baseUrl: `${ollamaUrl}/v1` }, why: `Ollama at ${ollamaUrl} has ${model}`, mode: 'plan' });
  }
  const path = options.env.PATH ?? '';
  const claude = findProgram('claude', { PATH: path });
  if (claude !== undefined) found.push({ config: { id: 'claude-code', provider: 'claude-code' }, why: `claude is on PATH (${claude})`, mode: 'agent' });
  const codex = findProgram('codex', { PATH: path });
  if (codex !== undefined) found.push({ config: { id: 'codex', provider: 'codex' }, why: `codex is on PATH (${codex})`, mode: 'agent' });
  return found;
}
