import { STORED_REPLY_BYTES } from '@holdfast/core/contract';
import type { Generation, RunEvent } from '@holdfast/core/contract';

/**
 * The longest head of `text` that takes at most `cap` bytes of UTF-8, never splitting a character,
 * and the whole text's size; undefined when it all fits. Reads the text, never copies it whole.
 */
export function headWithin(text: string, cap: number): { head: string; bytes: number } | undefined {
  // A UTF-16 unit is at most 3 bytes of UTF-8: a text this short fits without counting.
  if (text.length * 3 <= cap) return undefined;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= cap) return undefined;
  // The longest prefix within the cap: at least cap / 3 units fit, at most cap units (one byte each).
  let low = Math.floor(cap / 3);
  let high = Math.min(cap, text.length);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(text.slice(0, middle), 'utf8') <= cap) low = middle;
    else high = middle - 1;
  }
  const last = text.charCodeAt(low - 1);
  // A lone high surrogate would be half a character: end before it.
  const end = last >= 0xd800 && last <= 0xdbff ? low - 1 : low;
  return { head: text.slice(0, end), bytes };
}

function capGeneration(generation: Generation, cap: number): Generation {
  const raw = headWithin(generation.raw, cap);
  const reasoning = generation.reasoning === undefined ? undefined : headWithin(generation.reasoning, cap);
  if (raw === undefined && reasoning === undefined) return generation;
  return {
    ...generation,
    ...(raw !== undefined ? { raw: raw.head, rawBytes: raw.bytes } : {}),
    ...(reasoning !== undefined ? { reasoning: reasoning.head, reasoningBytes: reasoning.bytes } : {}),
  };
}

/**
 * An arm-end as a run file keeps it: a reply (or reasoning) over `cap` bytes, which only a raised
 * reply cap lets through, is kept up to the cap with its whole size recorded (`rawBytes`). The arm was
 * judged on the whole reply before this; its verdict and actions are stored as they are.
 */
export function capStoredReply(event: RunEvent, cap: number = STORED_REPLY_BYTES): RunEvent {
  if (event.type !== 'arm-end' || event.result.generation === undefined) return event;
  const generation = capGeneration(event.result.generation, cap);
  return generation === event.result.generation ? event : { ...event, result: { ...event.result, generation } };
}
