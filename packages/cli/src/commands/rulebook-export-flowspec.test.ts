import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../main.js';
import { loadRulebook } from '@holdfast/core/rules';
import { memoryIo } from '@holdfast/core/test-support';
import { COLLECT_STEP, rulebookToFlowSpec } from '@holdfast/gate';
import { relaySchemaErrors } from '@holdfast/gate/test-support';

async function exported(args: string[] = []): Promise<{ workflows: { steps: { name: string; command: string; dependsOn?: string[] }[] }[] }> {
  const io = memoryIo();
  expect(await main(['rulebook', 'export', '--format', 'flowspec', ...args], io)).toBe(0);
  return parse(io.out());
}

describe('rulebook export --format flowspec', () => {
  it("is a workflow Relay's published schema accepts: a collecting step, then one check step per rule", async () => {
    const spec = await exported();
    expect(relaySchemaErrors(spec)).toEqual([]);
    const rulebook = await loadRulebook();
    const [collect, ...checks] = spec.workflows[0]!.steps;
    expect(collect).toMatchObject({ name: COLLECT_STEP, command: 'holdfast changes --out "${HOLDFAST_ACTIONS:-.holdfast/flow/actions.json}"' });
    expect(checks).toHaveLength(rulebook.rules.length);
    for (const [index, step] of checks.entries()) {
      expect(step.dependsOn).toEqual([COLLECT_STEP]);
      expect(step.command).toContain('holdfast check --json "${HOLDFAST_ACTIONS:-.holdfast/flow/actions.json}"');
      expect(step.command).toContain(JSON.stringify(rulebook.rules[index]?.id));
    }
  });

  it('leaves the rulebook to `holdfast check` unless one is given, and then names it as given', async () => {
    expect(JSON.stringify(await exported())).not.toContain('--rulebook');
    const named = await exported(['--rulebook', 'rulebooks/default.yaml']);
    for (const step of named.workflows[0]!.steps.slice(1)) expect(step.command).toContain('holdfast check --rulebook rulebooks/default.yaml --json');
  });

  it('the schema check refuses what Relay refuses: fields a deterministic step may not carry, a dangling dependsOn', async () => {
    const spec = await exported();
    const step = spec.workflows[0]!.steps[1]!;
    const withExtras = {
      ...spec,
      workflows: [{ ...spec.workflows[0], steps: [{ ...step, description: 'x', verification: { type: 'exit_code', value: '0' } }] }],
    };
    expect(relaySchemaErrors(withExtras)).toEqual([expect.stringMatching(/^workflows\.0\.steps\.0: Unrecognized keys: "description", "verification"/)]);
    const dangling = { ...spec, workflows: [{ ...spec.workflows[0], steps: [step] }] };
    expect(relaySchemaErrors(dangling)).toEqual([`workflows.0.steps.0.dependsOn: no step "${COLLECT_STEP}"`]);
  });

  it('is deterministic', async () => {
    const rulebook = await loadRulebook();
    expect(rulebookToFlowSpec(rulebook, { holdfast: 'holdfast' })).toEqual(rulebookToFlowSpec(rulebook, { holdfast: 'holdfast' }));
  });

  it('refuses another format', async () => {
    const io = memoryIo();
    expect(await main(['rulebook', 'export', '--format', 'yaml'], io)).toBe(2);
  });
});
