import { z } from 'zod';

/*
 * The part of Agent Relay's published relay.yaml schema (AgentWorkforce/relay,
 * packages/sdk/src/workflows/schema.json, JSON Schema draft-07) that a holdfast export touches,
 * written from that format: every object there has `additionalProperties: false`, so each is
 * strict here. A step is one of four kinds; the export emits only deterministic steps, so any
 * other shape is refused.
 */
const SWARM_PATTERNS = [
  'fan-out',
  'pipeline',
  'hub-spoke',
  'consensus',
  'mesh',
  'handoff',
  'cascade',
  'dag',
  'debate',
  'hierarchical',
  'map-reduce',
  'scatter-gather',
  'supervisor',
  'reflection',
  'red-team',
  'verifier',
  'auction',
  'escalation',
  'saga',
  'circuit-breaker',
  'blackboard',
  'swarm',
  'competitive',
] as const;

const nonNegativeInteger = z.number().int().min(0);

const DeterministicStep = z
  .object({
    type: z.literal('deterministic'),
    name: z.string(),
    command: z.string(),
    dependsOn: z.array(z.string()).optional(),
    timeoutMs: nonNegativeInteger.optional(),
    failOnError: z.boolean().optional(),
    captureOutput: z.boolean().optional(),
  })
  .strict();

const Workflow = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    preflight: z
      .array(z.object({ command: z.string(), failIf: z.string().optional(), successIf: z.string().optional(), description: z.string().optional() }).strict())
      .optional(),
    steps: z.array(DeterministicStep).min(1),
    onError: z.enum(['fail', 'skip', 'retry']).optional(),
  })
  .strict();

const RelayWorkflowFileSchema = z
  .object({
    version: z.string(),
    name: z.string(),
    description: z.string().optional(),
    swarm: z
      .object({
        pattern: z.enum(SWARM_PATTERNS),
        maxConcurrency: z.number().int().min(1).optional(),
        timeoutMs: nonNegativeInteger.optional(),
        channel: z.string().optional(),
      })
      .strict(),
    workflows: z.array(Workflow).optional(),
  })
  .strict();

/**
 * Every place the file breaks the schema, as `path: message`, plus what Relay's validator checks
 * beyond it (unique step names, dependsOn naming a step); empty when Relay would accept it.
 */
export function relaySchemaErrors(value: unknown): string[] {
  const result = RelayWorkflowFileSchema.safeParse(value);
  if (!result.success) return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const errors: string[] = [];
  for (const [index, workflow] of (result.data.workflows ?? []).entries()) {
    const names = workflow.steps.map((step) => step.name);
    for (const [position, step] of workflow.steps.entries()) {
      if (names.indexOf(step.name) !== position) errors.push(`workflows.${index}.steps.${position}.name: "${step.name}" is not unique`);
      for (const needed of step.dependsOn ?? [])
        if (!names.includes(needed)) errors.push(`workflows.${index}.steps.${position}.dependsOn: no step "${needed}"`);
    }
  }
  return errors;
}
