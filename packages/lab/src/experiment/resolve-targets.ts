import { InputError } from '@holdfast/core/contract';
import type { RunEvent, TargetInfo } from '@holdfast/core/contract';
import { createAdapter, createReplayAdapter, isHarnessTarget, loadDotEnv, loadTargetsConfig, targetSecrets, toTargetInfo } from '../models/index.js';
import type { AdapterRuntime, HarnessTarget, TargetConfig } from '../models/index.js';
import { createScriptedModel } from './scripted-model.js';
import type { ReplyLookup } from './scripted-model.js';
import type { ExperimentTarget } from './runner.js';

function unknownTarget(id: string, known: readonly string[], where: string): InputError {
  return new InputError('E_UNKNOWN_TARGET', `unknown target "${id}" (${where}). Valid targets: ${known.length > 0 ? known.join(', ') : '(none)'}.`);
}

/** Where configured targets were looked for: without a holdfast.config.yaml in the folder, the cause is that. */
function configuredWhere(source: string, cwd: string): string {
  return source === 'built-in'
    ? `no holdfast.config.yaml here (${cwd}), so only the built-in targets exist: run from the folder that holds it, or write one with holdfast init`
    : `not in ${source}`;
}

/** What a run file says of configured targets, from holdfast.config.yaml alone: a queued run's workers hold the keys. */
export async function configuredTargetInfos(ids: readonly string[], cwd: string): Promise<TargetInfo[]> {
  const config = await loadTargetsConfig(cwd);
  return ids.map((id) => {
    const target = config.targets.find((candidate) => candidate.id === id);
    if (target === undefined)
      throw unknownTarget(
        id,
        config.targets.map((candidate) => candidate.id),
        configuredWhere(config.source, cwd),
      );
    return toTargetInfo(target);
  });
}

/** Live targets from holdfast.config.yaml, keys from the environment and .env. */
export async function resolveConfiguredTargets(
  ids: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  runtime?: (targetId: string) => Partial<AdapterRuntime>,
  limits: { readonly maxReplyBytes?: number | undefined } = {},
): Promise<{ targets: ExperimentTarget[]; secrets: string[] }> {
  const config = await loadTargetsConfig(cwd);
  const merged = await loadDotEnv(cwd, env);
  const known = config.targets.map((target: TargetConfig) => target.id);
  const targets: ExperimentTarget[] = [];
  const secrets: string[] = [];
  for (const id of ids) {
    const target = config.targets.find((candidate: TargetConfig) => candidate.id === id);
    if (target === undefined) throw unknownTarget(id, known, configuredWhere(config.source, cwd));
    if (isHarnessTarget(target)) {
      // The harness room (and the gate under it) is loaded only for a harness target.
      const { findHarness } = await import('../harness/index.js');
      const harness = await findHarness(target, merged, cwd);
      secrets.push(...targetSecrets(target, merged));
      targets.push({ info: toTargetInfo(target), model: notAModel(target), harness });
      continue;
    }
    const adapter = createAdapter(target, merged, { cwd, maxReplyBytes: limits.maxReplyBytes, ...(runtime !== undefined ? { runtime: runtime(id) } : {}) });
    secrets.push(...targetSecrets(target, merged));
    const turnCap = 'turnCap' in target ? target.turnCap : undefined;
    targets.push({ info: toTargetInfo(target), model: adapter, ...(turnCap !== undefined ? { turnCap } : {}) });
  }
  return { targets, secrets };
}

/** A harness plays agent mode only; asked for a reply (plan mode), it says so. */
function notAModel(target: HarnessTarget): ExperimentTarget['model'] {
  return {
    generate: () =>
      Promise.reject(new InputError('E_TARGET_KIND', `target "${target.id}" is an agent harness (provider ${target.provider}); run it with --mode agent.`)),
  };
}

/** Targets that replay the replies recorded in an earlier run file. */
export function resolveReplayTargets(ids: readonly string[], events: readonly RunEvent[]): ExperimentTarget[] {
  const start = events.find((event) => event.type === 'run-start');
  const known = start?.type === 'run-start' ? start.targets.map((target) => target.id) : [];
  return ids.map((id) => {
    if (!known.includes(id)) throw unknownTarget(id, known, 'not in the replayed run');
    const original = start?.type === 'run-start' ? start.targets.find((target) => target.id === id) : undefined;
    const model = createReplayAdapter({ events, targetId: id });
    return { info: { ...(original ?? model.target), provider: 'replay' }, model };
  });
}

/** Targets that answer from a file of hand-written replies (the demo). */
export function resolveScriptedTargets(ids: readonly string[], known: readonly string[], lookup: ReplyLookup): ExperimentTarget[] {
  return ids.map((id) => {
    if (!known.includes(id)) throw unknownTarget(id, known, 'not in the replies file');
    const model = createScriptedModel(id, lookup);
    return { info: model.target, model };
  });
}
