import { z } from 'zod';

/** Text kept up to a cap; `truncated` says the rest was cut, `bytes` is the full size, `kept` which end survived (the head unless it says `tail`). */
export const CappedTextSchema = z.object({
  text: z.string(),
  truncated: z.boolean(),
  bytes: z.number().int().nonnegative(),
  kept: z.enum(['head', 'tail']).optional(),
});
export type CappedText = z.infer<typeof CappedTextSchema>;
