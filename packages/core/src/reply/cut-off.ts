import { EMPTY_REPLY_PREFIX } from '../contract/index.js';
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

/** What of a model call names an empty reply: its text, the reasoning it billed, and how many calls it took. */
export interface ReplyTrace {
  readonly raw: string;
  readonly usage?: { readonly reasoningTokens?: number | undefined };
  readonly attempts?: number;
}

/**
 * A reply cut at the token limit is never a finished plan: reading it (or repairing it) would
 * judge half a plan as if it were the whole one, so it is unparseable with the reason "truncated".
 * A reply with no text at all is named empty, with the reasoning tokens it spent and the calls it got
 * (the adapter retries a reply that ran out thinking with a larger budget).
 * Returns undefined when the reply was neither cut off nor empty.
 */
export function truncatedReply(finishReason: string | undefined, reply?: ReplyTrace): ParsedUnparseable | undefined {
  if (reply !== undefined && reply.raw.trim() === '') {
    const reasoning = reply.usage?.reasoningTokens ?? 0;
    const attempts = reply.attempts ?? 1;
    const stop = isCutOff(finishReason) ? `the provider stopped at the token limit (finish reason "${finishReason ?? ''}")` : 'the model wrote no text';
    const spent = reasoning > 0 ? ` after ${reasoning} reasoning tokens` : '';
    const retried = attempts > 1 ? `, on the last of ${attempts} calls (a reply that ran out thinking is retried with a larger budget)` : '';
    return { kind: 'unparseable', reason: `${EMPTY_REPLY_PREFIX} the reply holds no text: ${stop}${spent}${retried}` };
  }
  if (!isCutOff(finishReason)) return undefined;
  return {
    kind: 'unparseable',
    reason: `truncated: the provider cut the reply at the token limit (finish reason "${finishReason ?? ''}"), so it is not the whole plan`,
  };
}
