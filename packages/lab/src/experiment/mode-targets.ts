import { InputError } from '@holdfast/core/contract';
import type { Mode } from '@holdfast/core/contract';
import type { ExperimentTarget } from './runner.js';

function named(targets: readonly ExperimentTarget[]): string {
  return targets.map((target) => `"${target.info.id}" (${target.info.provider})`).join(', ');
}

/**
 * Refuses, before a run file exists, targets that cannot play the chosen mode: loop needs native
 * tool calling, agent needs a harness, and a harness plays agent mode only. The CLI and the server
 * both call it, so a person hears the same sentence from either.
 */
export function checkModeTargets(mode: Mode, targets: readonly ExperimentTarget[]): void {
  if (mode === 'agent') {
    const missing = targets.filter((target) => target.harness === undefined);
    if (missing.length > 0)
      throw new InputError(
        'E_TARGET_KIND',
        `agent mode plays agent harnesses only; ${named(missing)} ${missing.length === 1 ? 'is' : 'are'} not one. Give a target provider: claude-code, codex, gemini-cli, qwen-code, opencode, copilot-cli or agent.`,
      );
    return;
  }
  const harnesses = targets.filter((target) => target.harness !== undefined);
  if (harnesses.length > 0)
    throw new InputError(
      'E_TARGET_KIND',
      `${named(harnesses)} ${harnesses.length === 1 ? 'is an agent harness' : 'are agent harnesses'}: ${harnesses.length === 1 ? 'it plays' : 'they play'} agent mode only (--mode agent).`,
    );
  if (mode === 'loop') {
    const without = targets.filter((target) => target.model.converse === undefined);
    if (without.length > 0)
      throw new InputError(
        'E_TARGET_KIND',
        `loop mode needs targets with native tool calling (openai-compatible or anthropic); these have none: ${named(without)}.`,
      );
  }
}
