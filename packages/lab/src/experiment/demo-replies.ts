import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ArmSchema, InputError, safeParseJson } from '@holdfast/core/contract';
import type { Arm } from '@holdfast/core/contract';

/** The characters of the shipped demo run. Their replies are written by hand, not generated. */
export const DEMO_TARGETS = ['demo-careful', 'demo-hasty', 'demo-local-small'] as const;
export type DemoTarget = (typeof DEMO_TARGETS)[number];

export const DemoReplySchema = z.strictObject({
  target: z.string().min(1),
  task: z.string().min(1),
  rep: z.number().int().nonnegative(),
  arm: ArmSchema,
  /** The reply text exactly as a model would send it: prose, fences and broken JSON included. */
  raw: z.string(),
});
export type DemoReply = z.infer<typeof DemoReplySchema>;

export const DemoRepliesSchema = z.strictObject({
  version: z.literal(1),
  /** Says the replies are hand-written; copied into the demo run's `run-start` event. */
  demo: z.string().min(1),
  replies: z.array(DemoReplySchema).min(1),
});
export type DemoReplies = z.infer<typeof DemoRepliesSchema>;

export class DemoRepliesError extends InputError {
  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super('E_DEMO_REPLIES', `${file}: ${message}`, options);
  }
}

/** The shipped demo replies, in the lab's own `runs/demo/` (the repository's root `runs/demo/replies.json` links to it). */
export function defaultDemoRepliesPath(): string {
  return fileURLToPath(new URL('../../runs/demo/replies.json', import.meta.url));
}

/** What `--replies` takes for the shipped demo replies, so an installed holdfast plays them without knowing where they lie. */
export const SHIPPED_DEMO_REPLIES = 'demo';

/** The replies file a `--replies` value names: `demo` the shipped one, anything else a path from `cwd` (`./demo` for a file of that name). */
export function demoRepliesFileOf(cwd: string, value: string): string {
  return value === SHIPPED_DEMO_REPLIES ? defaultDemoRepliesPath() : resolve(cwd, value);
}

function replyKey(target: string, task: string, rep: number, arm: Arm): string {
  return JSON.stringify([target, task, rep, arm]);
}

export type SafeParseDemoRepliesResult = { ok: true; replies: DemoReplies } | { ok: false; error: DemoRepliesError };

/** Reads the replies file's text; a key that appears twice is refused, since replay must be unambiguous. */
export function safeParseDemoReplies(text: string, file = 'replies.json'): SafeParseDemoRepliesResult {
  const json = safeParseJson(text);
  if (!json.ok) return { ok: false, error: new DemoRepliesError(file, `is not valid JSON (${json.error})`, { cause: json.cause }) };
  const result = DemoRepliesSchema.safeParse(json.value);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `field "${issue.path.map(String).join('.') || '(top level)'}": ${issue.message}`);
    return { ok: false, error: new DemoRepliesError(file, problems.join('; ')) };
  }
  const seen = new Set<string>();
  for (const [index, reply] of result.data.replies.entries()) {
    const key = replyKey(reply.target, reply.task, reply.rep, reply.arm);
    if (seen.has(key)) {
      return {
        ok: false,
        error: new DemoRepliesError(file, `replies.${index} repeats target "${reply.target}", task "${reply.task}", rep ${reply.rep}, ${reply.arm} arm`),
      };
    }
    seen.add(key);
  }
  return { ok: true, replies: result.data };
}

export function parseDemoReplies(text: string, file?: string): DemoReplies {
  const result = safeParseDemoReplies(text, file);
  if (!result.ok) throw result.error;
  return result.replies;
}

export async function loadDemoReplies(file: string = defaultDemoRepliesPath()): Promise<DemoReplies> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new DemoRepliesError(file, 'cannot be read', { cause: error });
  }
  return parseDemoReplies(text, file);
}

export interface DemoCoverage {
  readonly targets: readonly string[];
  readonly tasks: readonly string[];
  readonly reps: number;
}

/**
 * What is wrong with the replies for a demo of these targets × tasks × reps × both arms: each
 * missing combination and each reply outside it, one sentence each. Empty when coverage is exact.
 */
export function demoCoverageProblems(replies: DemoReplies, coverage: DemoCoverage): string[] {
  const expected = new Set<string>();
  for (const target of coverage.targets) {
    for (const task of coverage.tasks) {
      for (let rep = 0; rep < coverage.reps; rep++) {
        for (const arm of ArmSchema.options) expected.add(replyKey(target, task, rep, arm));
      }
    }
  }
  const present = new Set(replies.replies.map((reply) => replyKey(reply.target, reply.task, reply.rep, reply.arm)));
  const describe = (key: string) => {
    const [target, task, rep, arm] = JSON.parse(key) as [string, string, number, Arm];
    return `target "${target}", task "${task}", rep ${rep}, ${arm} arm`;
  };
  return [
    ...[...expected].filter((key) => !present.has(key)).map((key) => `no reply for ${describe(key)}`),
    ...[...present].filter((key) => !expected.has(key)).map((key) => `unexpected reply for ${describe(key)}`),
  ];
}

/** A lookup of one reply by its key, for the replay of the demo. */
export function demoReplyLookup(replies: DemoReplies): (target: string, task: string, rep: number, arm: Arm) => string | undefined {
  const byKey = new Map(replies.replies.map((reply) => [replyKey(reply.target, reply.task, reply.rep, reply.arm), reply.raw]));
  return (target, task, rep, arm) => byKey.get(replyKey(target, task, rep, arm));
}
