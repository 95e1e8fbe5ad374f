import { z } from 'zod';
import { ActionSchema } from './action.js';

/**
 * How a reply's actions were read. `json`: the whole text was the object. `fenced`: a ```json block.
 * `object`: the outermost {...} in surrounding prose. `salvaged`: the `actions` array recovered by
 * string-aware bracket matching. `repaired`: a JSON repair library had to fix the text.
 */
export const ParseMethodSchema = z.enum(['json', 'fenced', 'object', 'salvaged', 'repaired']);
export type ParseMethod = z.infer<typeof ParseMethodSchema>;

const ParsedActionsSchema = z.object({
  kind: z.literal('actions'),
  method: ParseMethodSchema,
  actions: z.array(ActionSchema),
  reasoning: z.string().optional(),
});

/** The model refused with a reason and emitted no actions: a legitimate outcome, not "no output". */
const ParsedDeclineSchema = z.object({
  kind: z.literal('declined'),
  method: ParseMethodSchema.optional(),
  reason: z.string(),
});

const ParsedUnparseableSchema = z.object({
  kind: z.literal('unparseable'),
  reason: z.string(),
});

export const ParsedReplySchema = z.discriminatedUnion('kind', [ParsedActionsSchema, ParsedDeclineSchema, ParsedUnparseableSchema]);

export type ParsedActions = z.infer<typeof ParsedActionsSchema>;
export type ParsedDecline = z.infer<typeof ParsedDeclineSchema>;
export type ParsedUnparseable = z.infer<typeof ParsedUnparseableSchema>;
export type ParsedReply = z.infer<typeof ParsedReplySchema>;

/** The reason of an unparseable reply that held no text starts with this, so every reader can name it empty. */
export const EMPTY_REPLY_PREFIX = 'empty:';
