import type { ParsedUnparseable } from '../contract/index.js';

/**
 * Finish reasons that mean the provider stopped the reply at the token limit: OpenAI-compatible
 * servers say `length`, Anthropic says `max_tokens`. Whatever the text holds, it is not the whole
 * answer.
 */
const CUT_OFF_REASONS: ReadonlySet<string> = new Set(['length', 'max_tokens', 'model_length']);

/** True when the provider cut the reply at its token limit. */
export function isCutOff(finishReason: string | undefined): boolean {
  return finishReason !== undefined && CUT_OFF_REASONS.has(finishReason);
}

/**
 * A reply cut at the token limit is never a finished plan: reading it (or repairing it) would
 * judge half a plan as if it were the whole one, so it is unparseable with the reason "truncated".
 * Returns undefined when the reply was not cut off.
 */
export function truncatedReply(finishReason: string | undefined): ParsedUnparseable | undefined {
  if (!isCutOff(finishReason)) return undefined;
  return {
    kind: 'unparseable',
    reason: `truncated: the provider cut the reply at the token limit (finish reason "${finishReason ?? ''}"), so it is not the whole plan`,
  };
}
