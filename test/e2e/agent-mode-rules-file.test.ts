import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Rulebook } from '@holdfast/core/contract';
import { loadRulebook, renderRulebook } from '@holdfast/core/rules';
import { prepareArmRepo } from '@holdfast/lab/experiment/agent';
import { buildBaseRepo } from '@holdfast/lab/sandbox';
import { runScenario } from '@holdfast/lab/test-support';
import type { HarnessTarget } from '@holdfast/lab/models';

// Issue 41.6: the told arm's rules reach the harness where it reads them. The real Claude Code 2.1.197
// on a scripted model (127.0.0.1): what it sends the model is where the rules must be.

const parent = mkdtempSync(join(tmpdir(), 'holdfast-rules-file-'));

afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** A line of the rendered rules long enough to be the rules' own, as it appears inside a JSON request body. */
function ruleLine(rulebook: Rulebook): string {
  const line = renderRulebook(rulebook)
    .split('\n')
    .find((candidate) => candidate.includes('console.log') && candidate.length > 60);
  if (line === undefined) throw new Error('the rendered rulebook has no console.log line');
  return JSON.stringify(line).slice(1, -1);
}

async function toldArmSends(harness: HarnessTarget['provider']) {
  const rulebook = await loadRulebook();
  const dir = mkdtempSync(join(parent, `${harness}-`));
  mkdirSync(join(dir, 'base'));
  const base = await buildBaseRepo(join(dir, 'base'), { id: 't', title: 't', ticket: 't', tempts: [], files: { 'src/a.ts': 'export {};\n' } });
  const arm = await prepareArmRepo({ base, dir: join(dir, 'told'), arm: 'told', rulebook, harness });
  const scenario = await runScenario({ client: 'claude-code', repo: arm.workDir, steps: [{ text: 'Done.' }] });
  expect(scenario.run.exitCode, scenario.explain()).toBe(0);
  const sent = scenario.requests.map((request) => JSON.stringify(request.body)).join('\n');
  return { arm, sent, line: ruleLine(rulebook), rules: renderRulebook(rulebook) };
}

describe("agent mode: the told arm's rules reach the harness", () => {
  it('a Claude Code arm carries them as CLAUDE.md, and Claude Code sends them to the model', async () => {
    const told = await toldArmSends('claude-code');
    expect(readFileSync(join(told.arm.workDir, 'CLAUDE.md'), 'utf8')).toBe(told.rules);
    expect(readFileSync(join(told.arm.workDir, 'AGENTS.md'), 'utf8')).toBe(told.rules);
    expect(told.sent).toContain('CLAUDE.md');
    expect(told.sent).toContain(told.line);
  });

  it('an arm with AGENTS.md alone (a Codex arm) never reaches Claude Code: the file name is what counts', async () => {
    const told = await toldArmSends('codex');
    expect(readFileSync(join(told.arm.workDir, 'AGENTS.md'), 'utf8')).toBe(told.rules);
    expect(told.sent).not.toContain(told.line);
  });
});
