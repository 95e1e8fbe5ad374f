import type { Arm, TargetInfo } from '@holdfast/core/contract';
import type { GenerateRequest, GenerateResult, ModelAdapter } from '../models/index.js';
import { ProviderError } from '../models/index.js';

export type ReplyLookup = (target: string, task: string, rep: number, arm: Arm) => string | undefined;

/**
 * A model that answers from replies written in advance (the demo replies file), keyed by target,
 * task, repetition and arm. It is not a model: runs made with it say so in their run-start event.
 */
export function createScriptedModel(targetId: string, lookup: ReplyLookup): ModelAdapter {
  const target: TargetInfo = { id: targetId, provider: 'replay', model: 'hand-written replies' };
  return {
    target,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const key = request.key;
      const raw = key === undefined ? undefined : lookup(targetId, key.task, key.rep, key.arm);
      if (key === undefined || raw === undefined) {
        const where = key === undefined ? 'an unkeyed call' : `task "${key.task}", repetition ${key.rep}, ${key.arm} arm`;
        throw new ProviderError('E_SCRIPT_MISSING', `the replies file has no reply for target "${targetId}", ${where}`, {
          retryable: false,
          attempts: 1,
        });
      }
      return { text: raw, usage: {}, finishReason: 'stop', latencyMs: 0, attempts: 1 };
    },
  };
}
