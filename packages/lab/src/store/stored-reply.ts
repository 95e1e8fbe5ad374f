import { STORED_REPLY_BYTES } from '@holdfast/core/contract';
import type { Generation, RunEvent } from '@holdfast/core/contract';

/**
 * The longest head of `text` that takes at most `cap` bytes of UTF-8, never splitting a character,
 * and the whole text's size; undefined when it all fits. Reads the text, never copies it whole.
 */
export function headWithin(text: string, cap: number, keepWhole: readonly string[] = []): { head: string; bytes: number } | undefined {
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
  let end = last >= 0xd800 && last <= 0xdbff ? low - 1 : low;
  // A value that must be redacted whole (a key) is never cut in two: half of it would escape the redaction.
  for (const value of keepWhole) {
    if (value === '') continue;
    const across = text.indexOf(value, Math.max(0, end - value.length + 1));
    if (across !== -1 && across < end) end = across;
  }
  return { head: text.slice(0, end), bytes };
}

function capGeneration(generation: Generation, cap: number, secrets: readonly string[]): Generation {
  const raw = headWithin(generation.raw, cap, secrets);
  const reasoning = generation.reasoning === undefined ? undefined : headWithin(generation.reasoning, cap, secrets);
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
 * judged on the whole reply before this; its verdict and actions are stored as they are. The cut
 * never splits one of `secrets` (the values the writer redacts): it ends before such a value instead.
 */
export function capStoredReply(event: RunEvent, secrets: readonly string[] = [], cap: number = STORED_REPLY_BYTES): RunEvent {
  if (event.type !== 'arm-end' || event.result.generation === undefined) return event;
  const generation = capGeneration(event.result.generation, cap, secrets);
  return generation === event.result.generation ? event : { ...event, result: { ...event.result, generation } };
}
