import { createAdapter, isHarnessTarget, loadDotEnv, loadTargetsConfig, TargetConfigSchema, targetSecrets } from '../models/index.js';
import type { TargetConfig } from '../models/index.js';
import type { FoundTarget } from './detect-targets.js';
import type { DraftModel } from './model-draft.js';
import { OnboardError } from './onboard-error.js';

/**
 * The model `init --model ID` drafts with: a target of the holdfast.config.yaml in `cwd` (the built-in ones when
 * there is none), else one init found on this machine (an API key set, a local Ollama model). Its key comes from
 * the environment and `cwd`'s .env, and is returned among `secrets` so nothing holdfast writes or prints carries it.
 */
export async function resolveDraftModel(
  id: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  found: readonly FoundTarget[],
): Promise<{ readonly model: DraftModel; readonly secrets: readonly string[] }> {
  const config = await loadTargetsConfig(cwd);
  const detected = found.flatMap((target) => {
    const parsed = TargetConfigSchema.safeParse(target.config);
    return parsed.success ? [parsed.data] : [];
  });
  const target: TargetConfig | undefined = config.targets.find((candidate) => candidate.id === id) ?? detected.find((candidate) => candidate.id === id);
  if (target === undefined) {
    const known = [...new Set([...config.targets, ...detected].filter((candidate) => !isHarnessTarget(candidate)).map((candidate) => candidate.id))];
    throw new OnboardError(
      'E_MODEL_DRAFT',
      `--model ${id}: no such target (${config.source === 'built-in' ? `no holdfast.config.yaml in ${cwd}` : `not in ${config.source}`}, nor found on this machine). Model targets: ${known.join(', ') || '(none)'}; add one to holdfast.config.yaml (see holdfast targets --help).`,
    );
  }
  if (isHarnessTarget(target))
    throw new OnboardError(
      'E_MODEL_DRAFT',
      `--model ${id}: target "${id}" is an agent harness (provider ${target.provider}); drafting needs a model target (openai-compatible, anthropic or command).`,
    );
  const merged = await loadDotEnv(cwd, env);
  try {
    return { model: createAdapter(target, merged, { cwd }), secrets: targetSecrets(target, merged) };
  } catch (error) {
    throw new OnboardError('E_MODEL_DRAFT', `--model ${id}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
