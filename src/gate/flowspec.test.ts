import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../cli/main.js';
import { loadRulebook } from '../rules/index.js';
import { memoryIo } from '../test-support/memory-io.js';
import { rulebookToFlowSpec } from './flowspec.js';

describe('rulebook export --format flowspec', () => {
  it('emits one deterministic, exit-code-verified holdfast check step per rule', async () => {
    const io = memoryIo();
    expect(await main(['rulebook', 'export', '--format', 'flowspec'], io)).toBe(0);
    const spec = parse(io.out());
    const rulebook = await loadRulebook();
    expect(spec.version).toBe('0.1.0');
    const steps = spec.workflows[0].steps;
    expect(steps).toHaveLength(rulebook.rules.length);
    for (const [index, step] of steps.entries()) {
      expect(step.type).toBe('deterministic');
      expect(step.verification).toMatchObject({ type: 'exit_code', value: '0' });
      expect(step.command).toContain('holdfast check --rulebook');
      expect(step.command).toContain(JSON.stringify(rulebook.rules[index]?.id));
    }
  });

  it('is deterministic', async () => {
    const rulebook = await loadRulebook();
    expect(rulebookToFlowSpec(rulebook, { rulebookPath: 'r.yaml', holdfast: 'holdfast' })).toEqual(rulebookToFlowSpec(rulebook, { rulebookPath: 'r.yaml', holdfast: 'holdfast' }));
  });

  it('refuses another format', async () => {
    const io = memoryIo();
    expect(await main(['rulebook', 'export', '--format', 'yaml'], io)).toBe(2);
  });
});
