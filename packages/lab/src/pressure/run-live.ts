import { HoldfastError } from '@holdfast/core/contract';
import type { PressureFixture, PressureRecord, PressureVariant, Rulebook } from '@holdfast/core/contract';
import type { ModelAdapter } from '../models/index.js';
import type { AgentDefinition } from './agent-files.js';
import { renderPressurePrompt } from './render-prompt.js';
import { ruleOf } from './score-responses.js';
import { scorePressureResponse } from './score.js';
import type { ScoredRule } from './score.js';

export interface PressureRunOptions {
  readonly fixtures: readonly PressureFixture[];
  readonly rulebook: Rulebook | undefined;
  /** The rule each fixture is bound to (`suiteRuleOf`); by default its reference looked up in the rulebook. */
  readonly ruleOf?: (fixture: PressureFixture) => ScoredRule;
  readonly targets: readonly ModelAdapter[];
  readonly variant: PressureVariant;
  /** The told prose (the rendered rulebook); required for the told variant. */
  readonly rulebookProse: string | undefined;
  /** Agent files of the suite (`--agents DIR`): a fixture's agent definition is its system prompt. */
  readonly agents?: readonly AgentDefinition[];
  readonly reps: number;
  readonly requireCitation: boolean;
  readonly maxTokens: number;
  readonly temperature: number;
  /** Model calls in flight at once. */
  readonly concurrency: number;
  readonly now: () => Date;
  readonly signal?: AbortSignal;
  /** Called as each reply is scored, so a results file can be appended while the run goes on. */
  readonly onRecord?: (record: PressureRecord) => void | Promise<void>;
}

interface Job {
  readonly fixture: PressureFixture;
  readonly target: ModelAdapter;
  readonly rep: number;
}

/**
 * Asks each target every fixture `reps` times. Each call carries only the rendered prompt: a fresh
 * context per fixture, so no reply is shaped by an earlier one. A failed call is recorded with the
 * `error` verdict (never a pass) and the run goes on. Records come back in plan order.
 */
export async function runPressureLive(options: PressureRunOptions): Promise<PressureRecord[]> {
  if (options.variant === 'told' && options.rulebookProse === undefined) {
    throw new HoldfastError('E_PRESSURE_RUN', 'the told variant needs the rulebook prose');
  }
  const jobs: Job[] = [];
  for (const target of options.targets) {
    for (const fixture of options.fixtures) {
      for (let rep = 0; rep < options.reps; rep++) jobs.push({ fixture, target, rep });
    }
  }
  const records: (PressureRecord | undefined)[] = new Array<PressureRecord | undefined>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length && options.signal?.aborted !== true) {
      const index = next++;
      const record = await runJob(jobs[index] as Job, options);
      records[index] = record;
      await options.onRecord?.(record);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, jobs.length)) }, worker));
  return records.filter((record): record is PressureRecord => record !== undefined);
}

async function runJob(job: Job, options: PressureRunOptions): Promise<PressureRecord> {
  const { fixture, target, rep } = job;
  const agent = fixture.agent === undefined ? undefined : options.agents?.find((candidate) => candidate.id === fixture.agent);
  const prompt = renderPressurePrompt(fixture, options.variant === 'told' ? options.rulebookProse : undefined, agent);
  const rule = options.ruleOf?.(fixture) ?? ruleOf(options.rulebook, fixture);
  const head = {
    type: 'pressure-result' as const,
    version: 1 as const,
    fixture_id: fixture.id,
    rule: rule.id,
    ...(fixture.agent === undefined ? {} : { agent: fixture.agent }),
    ...(agent === undefined ? {} : { agent_definition: { file: agent.file, sha256: agent.sha256 } }),
    target: target.target.id,
    rep,
    variant: options.variant,
    origin: 'recorded' as const,
  };
  try {
    const generation = await target.generate({
      messages: prompt.messages,
      maxTokens: options.maxTokens,
      temperature: options.temperature,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return {
      ...head,
      time: options.now().toISOString(),
      response: generation.text,
      result: scorePressureResponse(fixture, generation.text, { rule, requireCitation: options.requireCitation }),
      generation: {
        latencyMs: generation.latencyMs,
        attempts: generation.attempts,
        usage: generation.usage,
        ...(generation.reasoning === undefined ? {} : { reasoning: generation.reasoning }),
      },
    };
  } catch (error) {
    const code = error instanceof HoldfastError ? error.code : 'E_PROVIDER';
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...head,
      time: options.now().toISOString(),
      response: '',
      result: {
        fixture_id: fixture.id,
        rule: rule.id,
        verdict: 'error',
        reason: `the model call failed: ${message}`,
        expected: fixture.correct_choice,
        chosen: [],
        choices: fixture.choices,
        citation_required: options.requireCitation,
        cited: [],
        missing_citations: [],
        rationalizations_repeated: [],
      },
      error: { code, message },
    };
  }
}
