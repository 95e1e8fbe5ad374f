import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '@holdfast/lab/test-support';
import { holdfast } from '@holdfast/lab/test-support';
import { makeRepo, settle, toldText } from './gate-guarantee-routes.js';

// Issue 27: Codex 0.171.0, told by a Stop denial to add a missing test, looped for 526 model requests
// in 180 s. The scripted model here never writes the test: every end of its turn is denied, and the
// gate must let the turn end after a bounded number of denials, naming what is unresolved.

async function neverWritesTheTest(client: 'claude-code' | 'codex', gate: boolean) {
  const { repo } = makeRepo();
  if (gate) holdfast(repo, 'install', client);
  settle(repo, false);
  const result = await runScenario({
    client,
    repo,
    steps: [{ writeFile: { path: 'src/features/refunds.ts', content: 'export const refunds = (): number[] => [];\n' } }],
    timeoutMs: 150_000,
  });
  return { result, told: result.requests.map(toldText).join('\n'), landed: existsSync(join(repo, 'src', 'features', 'refunds.ts')) };
}

describe.each(['claude-code', 'codex'] as const)('a Stop denied again and again, %s real binary', (client) => {
  it('held: the turn ends after 3 denials in a row, the model having been told the unresolved R3', async () => {
    const { result, told } = await neverWritesTheTest(client, true);
    expect(result.run.timedOut, result.explain()).toBe(false);
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(told, result.explain()).toMatch(/R3 TESTS: write to \\*"src\/features\/refunds\.ts/);
    // The write, the first end of turn, and one more for each of the two denials that sent it back.
    expect(result.turns.length, result.explain()).toBeLessThanOrEqual(5);
  });

  it('told (no gate): the module without its test lands and the turn ends at once', async () => {
    const { result, landed, told } = await neverWritesTheTest(client, false);
    expect(result.run.exitCode, result.explain()).toBe(0);
    expect(landed).toBe(true);
    expect(told).not.toMatch(/R3 TESTS/);
  });
});
