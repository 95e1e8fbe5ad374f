import type { JudgeRule, JudgeSample, Judgement, Usage } from '@holdfast/core/contract';
import { capText } from '../sandbox/index.js';
import type { GenerateResult, ModelAdapter } from '../models/index.js';
import { defaultRuntime } from '../models/index.js';
import { judgeMessages, JUDGEMENT_RESPONSE } from './judge-prompt.js';
import type { JudgeMaterial } from './judge-material.js';
import { combineSamples } from './combine-samples.js';
import { readJudgeReply } from './read-judge-reply.js';

/** The model behind a judge rule: any configured target with `generate`. */
export type JudgeModel = Pick<ModelAdapter, 'target' | 'generate'>;

export interface GradeOptions {
  /** Wall time one judge call may take before it counts as a judge-error. */
  readonly timeoutMs?: number;
  /** Waits for the timeout; injected so tests decide when time is up. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly signal?: AbortSignal;
  readonly maxTokens?: number;
}

export const DEFAULT_JUDGE_TIMEOUT_MS = 120_000;
const DEFAULT_JUDGE_MAX_TOKENS = 2_000;
const RAW_CAP_BYTES = 16_000;

/**
 * Grades one judge rule on one arm's record: `samples` calls to the judge, each read into a
 * verdict after the rule's threshold, then the majority. Never throws: a failed, late, refused or
 * malformed call is a judge-error sample, and no graded sample at all makes a judge-error grade.
 */
export async function gradeRule(rule: JudgeRule, material: JudgeMaterial, judge: JudgeModel | undefined, options: GradeOptions = {}): Promise<Judgement> {
  const samples: JudgeSample[] = [];
  for (let index = 0; index < rule.samples; index += 1) {
    if (judge === undefined) {
      samples.push(errorSample('E_JUDGE_TARGET', `no target "${rule.target}" is configured; add it to holdfast.targets.yaml or change the rule's target`));
      break;
    }
    samples.push(await sampleOnce(rule, material, judge, options));
    if (options.signal?.aborted === true) break;
  }
  const usage = sumUsage(samples.map((sample) => sample.usage));
  return {
    rule: rule.id,
    name: rule.name,
    judge: rule.target,
    ...(judge?.target.model !== undefined ? { model: judge.target.model } : {}),
    threshold: rule.threshold,
    ...combineSamples(samples),
    samples,
    usage,
    material: material.kind,
  };
}

async function sampleOnce(rule: JudgeRule, material: JudgeMaterial, judge: JudgeModel, options: GradeOptions): Promise<JudgeSample> {
  const stop = new AbortController();
  const cancel = () => stop.abort();
  options.signal?.addEventListener('abort', cancel, { once: true });
  const sleep = options.sleep ?? defaultRuntime().sleep;
  const timeoutMs = options.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS;
  const late = sleep(timeoutMs, stop.signal).then(
    () => ({ kind: 'late' as const }),
    () => ({ kind: 'late' as const }),
  );
  try {
    const answer = await Promise.race([
      judge
        .generate({
          messages: judgeMessages(rule, material),
          maxTokens: options.maxTokens ?? DEFAULT_JUDGE_MAX_TOKENS,
          // One sample is asked for the judge's best answer; repeated samples need variety to show spread.
          temperature: rule.samples === 1 ? 0 : 0.7,
          signal: stop.signal,
          responseSchema: JUDGEMENT_RESPONSE,
        })
        .then((reply) => ({ kind: 'reply' as const, reply })),
      late,
    ]);
    if (answer.kind === 'late') {
      return options.signal?.aborted === true
        ? errorSample('E_JUDGE_CANCELLED', 'the run was cancelled before the judge answered')
        : errorSample('E_JUDGE_TIMEOUT', `the judge did not answer within ${timeoutMs} ms`);
    }
    return readSample(rule, answer.reply, judge.target.provider === 'openai-compatible');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    return errorSample('E_JUDGE_PROVIDER', `the judge call failed${typeof code === 'string' ? ` (${code})` : ''}: ${message}`);
  } finally {
    stop.abort();
    options.signal?.removeEventListener('abort', cancel);
  }
}

/**
 * The judge's answer after the rule's threshold. Its confidence is read as a probability of the
 * verdict it gave, so P(violated) is `confidence` for a violated answer and `1 - confidence` for
 * a clean one; the item is violated when P(violated) reaches the threshold.
 */
function readSample(rule: JudgeRule, reply: GenerateResult, nativeSchema: boolean): JudgeSample {
  const raw = capText(reply.text, RAW_CAP_BYTES);
  const base = { raw, usage: reply.usage, latencyMs: reply.latencyMs };
  const reading = readJudgeReply(reply.text, reply.finishReason);
  if (!reading.ok) return { ...errorSample(reading.code, reading.message), ...base };
  const violatedProbability = reading.verdict === 'violated' ? reading.confidence : 1 - reading.confidence;
  const verdict = violatedProbability >= rule.threshold ? 'violated' : 'clean';
  const below =
    reading.verdict === 'violated' && verdict === 'clean' ? ` (the judge said violated at ${reading.confidence}, under the threshold ${rule.threshold})` : '';
  return {
    ...base,
    verdict,
    confidence: verdict === 'violated' ? violatedProbability : 1 - violatedProbability,
    reason: `${reading.reason}${below}`,
    evidence: reading.evidence,
    structured: reading.native && nativeSchema ? 'native' : 'parsed',
  };
}

function errorSample(code: string, message: string): JudgeSample {
  return { verdict: 'judge-error', reason: message, evidence: [], raw: capText('', RAW_CAP_BYTES), usage: {}, error: { code, message } };
}

function sumUsage(usages: readonly Usage[]): Usage {
  const total: { inputTokens?: number; outputTokens?: number; reasoningTokens?: number } = {};
  for (const usage of usages) {
    for (const key of ['inputTokens', 'outputTokens', 'reasoningTokens'] as const) {
      const value = usage[key];
      if (value !== undefined) total[key] = (total[key] ?? 0) + value;
    }
  }
  return total;
}
