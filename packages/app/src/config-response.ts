import type { ApiTarget, ConfigResponse, TargetInfo } from '@holdfast/core/contract';
import { loadTasks } from '@holdfast/lab/experiment';
import { probeTarget } from '@holdfast/lab/harness';
import { isHarnessTarget, loadDotEnv, loadTargetsConfig, targetModes, toTargetInfo } from '@holdfast/lab/models';
import { loadRulebook, renderRulebook } from '@holdfast/core/rules';
import { pathExists } from './path-exists.js';
import { runFilePath } from './run-files.js';
import type { ServerContext } from './server-context.js';

/** A base URL may carry `user:password@`; that is a credential and stays on the server. */
function withoutCredentials(info: TargetInfo): TargetInfo {
  if (info.baseUrl === undefined) return info;
  try {
    const url = new URL(info.baseUrl);
    if (url.username === '' && url.password === '') return info;
    url.username = '';
    url.password = '';
    return { ...info, baseUrl: url.toString() };
  } catch {
    return info;
  }
}

/**
 * GET /api/config: the configured targets with whether each answers and has its key (the key
 * itself never leaves the server), the tasks, and the rulebook with its told-arm prose.
 */
export async function buildConfigResponse(context: ServerContext): Promise<ConfigResponse> {
  const rulebook = await loadRulebook(context.rulebookPath);
  const [tasks, targetsConfig, env] = await Promise.all([
    loadTasks(context.tasksDir, { rulebook }),
    loadTargetsConfig(context.cwd),
    loadDotEnv(context.cwd, context.env),
  ]);
  const targets = await Promise.all(
    targetsConfig.targets.map(async (target): Promise<ApiTarget> => {
      const probe = await probeTarget(target, env, { timeoutMs: context.probeTimeoutMs });
      return {
        ...withoutCredentials(toTargetInfo(target)),
        ...(target.keyEnv !== undefined ? { keyEnv: target.keyEnv } : {}),
        hasKey: probe.hasKey,
        reachable: probe.reachable,
        detail: probe.detail,
        modes: targetModes(target),
        ...(probe.problem !== undefined ? { problem: probe.problem } : {}),
        ...(isHarnessTarget(target) ? { maxTurns: target.maxTurns, timeoutMs: target.timeoutMs } : {}),
      };
    }),
  );
  const defaultRun = context.defaultRun !== undefined && (await pathExists(runFilePath(context.runsDir, context.defaultRun))) ? context.defaultRun : undefined;
  return {
    targets,
    tasks: tasks.map((task) => ({ id: task.id, title: task.title, ticket: task.ticket, tempts: task.tempts, files: Object.keys(task.files).length })),
    rulebook,
    rulebookProse: renderRulebook(rulebook),
    ...(defaultRun !== undefined ? { defaultRun } : {}),
  };
}
