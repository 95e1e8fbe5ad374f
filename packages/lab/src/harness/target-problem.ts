import { isHarnessTarget } from '../models/index.js';
import type { TargetConfig } from '../models/index.js';
import { AGENT_CLIENTS } from './clients.js';
import { harnessOf } from './harnesses.js';

/** What a found-or-not probe learned, in the terms the one-line problem needs. */
export interface ProbeFacts {
  readonly hasKey: boolean;
  readonly reachable: boolean;
  /** A harness's variables that look like keys (`*_KEY`, `*_TOKEN`) and none of which is set. */
  readonly unsetKeyVariables?: readonly string[];
  /** An OpenAI-compatible server that answered but does not list the model. */
  readonly modelMissing?: boolean;
}

const INSTALL: Record<string, string> = {
  claude: `npm i -g ${AGENT_CLIENTS['claude-code'].packageName}`,
  codex: `npm i -g ${AGENT_CLIENTS.codex.packageName}`,
  gemini: `npm i -g ${AGENT_CLIENTS['gemini-cli'].packageName}`,
  qwen: `npm i -g ${AGENT_CLIENTS['qwen-code'].packageName}`,
  opencode: `npm i -g ${AGENT_CLIENTS.opencode.packageName}`,
  copilot: `npm i -g ${AGENT_CLIENTS.copilot.packageName}`,
};

function programOf(target: TargetConfig): string {
  if (target.provider === 'command' || target.provider === 'agent') return target.command[0] ?? '';
  if (isHarnessTarget(target)) return target.binary ?? harnessOf(target.provider).program ?? '';
  return '';
}

function notInstalled(target: TargetConfig): string {
  const program = programOf(target);
  const name = program.split(/[\\/]/).pop() ?? program;
  const install = INSTALL[name];
  if (install !== undefined) return `${name} not installed: ${install}`;
  const field = isHarnessTarget(target) && target.provider !== 'agent' ? 'binary' : 'command';
  return `${name} not found: install it or fix "${field}" in holdfast.config.yaml`;
}

function notReachable(target: Extract<TargetConfig, { provider: 'openai-compatible' | 'anthropic' }>): string {
  let host = target.baseUrl;
  try {
    host = new URL(target.baseUrl).host;
  } catch {
    // An unparsable base URL is shown as written.
  }
  if (target.baseUrl.includes(':11434')) return `ollama not running at ${host}: run \`ollama serve\``;
  return `not reachable at ${host}: start the server or fix baseUrl`;
}

/**
 * Why a target cannot run now, with the fix, in one short line a person reads at a glance
 * ("no key: set OPENAI_API_KEY in .env"); undefined when nothing is known to stop it. The one source of
 * that line: `holdfast targets` prints it first under the target, and the run form shows it beside the
 * target, so both give the same first fix. A target that is not reachable always has one.
 */
export function targetProblem(target: TargetConfig, facts: ProbeFacts): string | undefined {
  if (!facts.hasKey && target.keyEnv !== undefined) return `no key: set ${target.keyEnv} in .env`;
  if (!facts.reachable) return target.provider === 'openai-compatible' || target.provider === 'anthropic' ? notReachable(target) : notInstalled(target);
  const unset = facts.unsetKeyVariables ?? [];
  if (unset.length > 0) return `no key: set ${unset.join(' or ')} in .env`;
  if (facts.modelMissing === true && target.provider === 'openai-compatible' && target.baseUrl.includes(':11434')) {
    return `model not pulled: ollama pull ${target.model}`;
  }
  return undefined;
}
