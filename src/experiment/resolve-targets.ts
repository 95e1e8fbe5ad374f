import { InputError } from '../contract/index.js';
import type { RunEvent } from '../contract/index.js';
import { createAdapter, createReplayAdapter, loadDotEnv, loadTargetsConfig, toTargetInfo } from '../models/index.js';
import type { TargetConfig } from '../models/index.js';
import { createScriptedModel } from './scripted-model.js';
import type { ReplyLookup } from './scripted-model.js';
import type { ExperimentTarget } from './runner.js';

function unknownTarget(id: string, known: readonly string[], where: string): InputError {
  return new InputError(
    'E_UNKNOWN_TARGET',
    `unknown target "${id}" (${where}). Valid targets: ${known.length > 0 ? known.join(', ') : '(none)'}.`,
  );
}

/** Live targets from holdfast.config.yaml, keys from the environment and .env. */
export async function resolveConfiguredTargets(
  ids: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ targets: ExperimentTarget[]; secrets: string[] }> {
  const config = await loadTargetsConfig(cwd);
  const merged = await loadDotEnv(cwd, env);
  const known = config.targets.map((target: TargetConfig) => target.id);
  const targets: ExperimentTarget[] = [];
  const secrets: string[] = [];
  for (const id of ids) {
    const target = config.targets.find((candidate: TargetConfig) => candidate.id === id);
    if (target === undefined) throw unknownTarget(id, known, `not in ${config.source}`);
    const adapter = createAdapter(target, merged, { cwd });
    const keyEnv = 'keyEnv' in target ? target.keyEnv : undefined;
    if (keyEnv !== undefined && merged[keyEnv] !== undefined) secrets.push(merged[keyEnv]!);
    const turnCap = 'turnCap' in target ? target.turnCap : undefined;
    targets.push({ info: toTargetInfo(target), model: adapter, ...(turnCap !== undefined ? { turnCap } : {}) });
  }
  return { targets, secrets };
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
