import { z } from 'zod';

/** Text kept up to a cap; `truncated` says the rest was cut, `bytes` is the full size. */
export const CappedTextSchema = z.object({ text: z.string(), truncated: z.boolean(), bytes: z.number().int().nonnegative() });
export type CappedText = z.infer<typeof CappedTextSchema>;
