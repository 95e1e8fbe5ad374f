import type { Rulebook } from '@holdfast/core/contract';
import { createAdapter, isHarnessTarget, loadDotEnv, loadTargetsConfig } from '../models/index.js';
import type { JudgeModel } from './grade-rule.js';
import type { JudgeLookup } from './judge-arm.js';

export interface JudgeTargets {
  readonly judges: JudgeLookup;
  /** Why a judge rule's target cannot grade (not configured, a harness, a missing key), by target id. */
  readonly problems: ReadonlyMap<string, string>;
  /** Key values of the judge targets, to keep out of what is recorded. */
  readonly secrets: readonly string[];
}

/**
 * The models behind the rulebook's judge targets, from holdfast.config.yaml and the environment.
 * A target that cannot grade is listed in `problems` rather than thrown: in a run its rules become
 * judge-errors and the run goes on; `holdfast judge` refuses up front.
 */
export async function resolveJudgeTargets(rulebook: Rulebook, cwd: string, env: NodeJS.ProcessEnv, override?: string): Promise<JudgeTargets> {
  const wanted = new Set((rulebook.judgeRules ?? []).map((rule) => override ?? rule.target));
  const models = new Map<string, JudgeModel>();
  const problems = new Map<string, string>();
  const secrets: string[] = [];
  if (wanted.size === 0) return { judges: () => undefined, problems, secrets };
  const config = await loadTargetsConfig(cwd);
  const merged = await loadDotEnv(cwd, env);
  for (const id of wanted) {
    const target = config.targets.find((candidate) => candidate.id === id);
    if (target === undefined) {
      problems.set(id, `judge target "${id}" is not in ${config.source}; add it there (any model target) or change the rule's target`);
      continue;
    }
    if (isHarnessTarget(target)) {
      problems.set(id, `judge target "${id}" is an agent harness; a judge needs a model target (openai-compatible, anthropic or command)`);
      continue;
    }
    try {
      models.set(id, createAdapter(target, merged, { cwd }));
      const keyEnv = 'keyEnv' in target ? target.keyEnv : undefined;
      if (keyEnv !== undefined && merged[keyEnv] !== undefined) secrets.push(merged[keyEnv]!);
    } catch (error) {
      problems.set(id, error instanceof Error ? error.message : String(error));
    }
  }
  return { judges: (id) => models.get(override ?? id), problems, secrets };
}
