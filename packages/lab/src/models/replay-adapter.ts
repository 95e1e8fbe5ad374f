import type { Arm, Generation, RunEvent, TargetInfo } from '@holdfast/core/contract';
import type { AdapterRuntime, GenerateRequest, GenerateResult, ModelAdapter } from './model-adapter.js';
import { ProviderError } from './provider-error.js';
import { withRuntime } from './runtime.js';

export interface ReplayOptions {
  /** The events of the earlier run, in file order. */
  readonly events: readonly RunEvent[];
  /** Which recorded target to serve. */
  readonly targetId: string;
  readonly runtime?: Partial<AdapterRuntime> | undefined;
}

interface Recorded {
  readonly generation: Generation | undefined;
  readonly verdict: string;
  readonly reason: string;
}

function replayKey(task: string, rep: number, arm: Arm): string {
  return JSON.stringify([task, rep, arm]);
}

/**
 * Serves the recorded replies of an earlier run, keyed by task, repetition and arm, so a run can be
 * re-checked without a model. A reply that was never recorded is an error, never an empty string.
 */
export function createReplayAdapter(options: ReplayOptions): ModelAdapter {
  const runtime = withRuntime(options.runtime);
  const recorded = new Map<string, Recorded>();
  let original: TargetInfo | undefined;
  for (const event of options.events) {
    if (event.type === 'run-start') {
      original ??= event.targets.find((target) => target.id === options.targetId);
    } else if (event.type === 'arm-end' && event.target === options.targetId) {
      // Later events win: a resumed run file may repeat a round.
      recorded.set(replayKey(event.task, event.rep, event.result.arm), {
        generation: event.result.generation,
        verdict: event.result.verdict,
        reason: event.result.reason,
      });
    }
  }
  const target: TargetInfo = {
    id: options.targetId,
    provider: 'replay',
    ...(original?.model !== undefined ? { model: original.model } : {}),
  };

  return {
    target,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const started = runtime.now();
      const key = request.key;
      if (key === undefined) {
        throw new ProviderError('E_REPLAY_NO_KEY', `replay of "${options.targetId}" needs the task, repetition and arm of the call`, {
          retryable: false,
          attempts: 1,
        });
      }
      const where = `target "${options.targetId}", task "${key.task}", repetition ${key.rep}, ${key.arm} arm`;
      const entry = recorded.get(replayKey(key.task, key.rep, key.arm));
      if (entry === undefined) {
        throw new ProviderError('E_REPLAY_MISSING', `the recorded run has no reply for ${where}`, { retryable: false, attempts: 1 });
      }
      if (entry.generation === undefined) {
        throw new ProviderError('E_REPLAY_MISSING', `the recorded run has no reply for ${where}: that arm ended "${entry.verdict}" (${entry.reason})`, {
          retryable: false,
          attempts: 1,
        });
      }
      const { generation } = entry;
      if (generation.rawBytes !== undefined) {
        throw new ProviderError(
          'E_REPLAY_CUT',
          `the recorded run kept only the first ${Buffer.byteLength(generation.raw)} of the ${generation.rawBytes} bytes of the reply for ${where}: a cut reply cannot be replayed as the model gave it`,
          { retryable: false, attempts: 1 },
        );
      }
      return {
        text: generation.raw,
        ...(generation.reasoning !== undefined ? { reasoning: generation.reasoning } : {}),
        usage: generation.usage,
        ...(generation.finishReason !== undefined ? { finishReason: generation.finishReason } : {}),
        latencyMs: Math.max(0, runtime.now() - started),
        attempts: 1,
      };
    },
  };
}
