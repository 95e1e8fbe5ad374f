import type { CheckResult, ParsedReply, Rulebook } from '@holdfast/core/contract';
import { parseReply } from '@holdfast/core/reply';
import { checkActions } from '@holdfast/core/rules';

/** A model reply read and checked: the CPU-heavy part of a plan-mode arm. */
export interface JudgedReply {
  readonly parsed: ParsedReply;
  readonly checks: CheckResult[];
}

/** Reads a reply and checks its actions against the rulebook; in this thread or in a worker (judge-pool.ts). */
export type ReplyJudge = (
  raw: string,
  existing: readonly string[],
  rulebook: Rulebook,
  /** What the task's files hold (path to text), for checks that compare with them (dependency). */
  existingContent?: Readonly<Record<string, string>>,
) => Promise<JudgedReply>;

/** The judge on the calling thread: what the CLI uses, where no other request waits on the event loop. */
export const judgeReplyHere: ReplyJudge = async (raw, existing, rulebook, existingContent) => {
  const parsed = parseReply(raw);
  const content = (path: string) => (existingContent !== undefined && Object.hasOwn(existingContent, path) ? existingContent[path] : undefined);
  const checks = parsed.kind === 'actions' ? await checkActions(parsed.actions, existing, rulebook, undefined, content) : [];
  return { parsed, checks };
};
