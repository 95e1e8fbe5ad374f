import { z } from 'zod';

/** The four things a model may ask to do. A reply's `actions` array holds these, in order. */
export const WriteActionSchema = z.object({
  type: z.literal('write'),
  path: z.string(),
  content: z.string(),
});
export const DeleteActionSchema = z.object({
  type: z.literal('delete'),
  path: z.string(),
});
export const RunActionSchema = z.object({
  type: z.literal('run'),
  cmd: z.string(),
});
export const CommitActionSchema = z.object({
  type: z.literal('commit'),
  message: z.string(),
});

export const ActionSchema = z.discriminatedUnion('type', [WriteActionSchema, DeleteActionSchema, RunActionSchema, CommitActionSchema]);

export type WriteAction = z.infer<typeof WriteActionSchema>;
export type DeleteAction = z.infer<typeof DeleteActionSchema>;
export type RunAction = z.infer<typeof RunActionSchema>;
export type CommitAction = z.infer<typeof CommitActionSchema>;
export type Action = z.infer<typeof ActionSchema>;
export type ActionType = Action['type'];

export const ACTION_TYPES: readonly ActionType[] = ['write', 'delete', 'run', 'commit'];

/** Input of `holdfast check`: the actions and the paths the agent could already see. */
export const CheckInputSchema = z.object({
  actions: z.array(ActionSchema),
  existing: z.array(z.string()).default([]),
  /** What some existing files held before the round (path to text), for checks that compare (dependency). */
  existingContent: z.record(z.string(), z.string()).optional(),
});
export type CheckInput = z.infer<typeof CheckInputSchema>;
