import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PressureRecord } from '@holdfast/core/contract';
import { ensureAgentClient } from '../harness/index.js';
import type { AgentHarness } from '../harness/index.js';
import { CODEX_MODEL, FAKE_ANTHROPIC_KEY, FAKE_OPENAI_KEY } from '../harness/test-support/scripted-run.js';
import { startScriptedModel } from '../harness/test-support/scripted-model-server.js';
import type { ModelTurn } from '../harness/test-support/script.js';
import { parseTargetsConfig } from '../models/index.js';
import type { HarnessTarget } from '../models/index.js';
import { createHarnessResponder } from './harness-responder.js';
import { loadPressureSuite, suiteRuleOf } from './load-suite.js';
import { runPressureLive } from './run-live.js';

const suiteDir = fileURLToPath(new URL('./test-support/adr-0024', import.meta.url));
// The published suite with no rulebook at all: its fixtures name rules by number, and the number is what a reply cites.
const suite = await loadPressureSuite({ dir: `${suiteDir}/fixtures`, agentsDir: `${suiteDir}/agents` });
const R08 = 'PRS-R08-EXECUTOR-WORKAROUND';
const agentFile = await readFile(`${suiteDir}/agents/np-executor.md`, 'utf8');
const agentLine = 'You implement exactly one task from its plan';

type Client = 'claude-code' | 'codex';

function harnessFor(client: Client, binary: string, origin: string): AgentHarness {
  const env = { PATH: process.env.PATH ?? '' };
  if (client === 'claude-code') {
    const [target] = parseTargetsConfig('targets:\n  - { id: cc, provider: claude-code, env: [ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY], maxTurns: 4 }').targets;
    return {
      target: target as HarnessTarget,
      binary,
      label: 'claude-code',
      env: { ...env, ANTHROPIC_BASE_URL: origin, ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY },
    };
  }
  const provider = `{ name = "scripted", base_url = "${origin}/v1", env_key = "SCRIPTED_API_KEY", wire_api = "responses", request_max_retries = 0, stream_max_retries = 0 }`;
  const [target] = parseTargetsConfig(
    `targets:\n  - id: cx\n    provider: codex\n    model: ${CODEX_MODEL}\n    env: [SCRIPTED_API_KEY]\n    maxTurns: 4\n    args: [-c, 'model_provider="scripted"', -c, ${JSON.stringify(`model_providers.scripted=${provider}`)}]\n`,
  ).targets;
  return { target: target as HarnessTarget, binary, label: 'codex', env: { ...env, SCRIPTED_API_KEY: FAKE_OPENAI_KEY } };
}

/** Everything the client sent the model in one request, as text: system prompt, project context, messages. */
function seen(turn: ModelTurn): string {
  return JSON.stringify(turn.body);
}

describe.each<Client>(['claude-code', 'codex'])('pressure run on a real %s', (client) => {
  it('spawns it headless per fixture with its agent file and a fresh context, and scores the final message', async () => {
    let answered = 0;
    const server = await startScriptedModel({
      steps: Array.from({ length: 4 }, () => () => ({ text: `CHOICE: C\nRule 8: the cause is reachable, so fix it (answer ${++answered}).` })),
    });
    try {
      const binary = await ensureAgentClient(client);
      const fixture = suite.fixtures.find((candidate) => candidate.id === R08)!;
      const records: PressureRecord[] = await runPressureLive({
        fixtures: [fixture],
        rulebook: suite.rulebook,
        ruleOf: (candidate) => suiteRuleOf(suite, candidate),
        targets: [createHarnessResponder({ harness: harnessFor(client, binary, server.origin), timeoutMs: 120_000 })],
        variant: 'untold',
        rulebookProse: undefined,
        agents: suite.agents,
        reps: 2,
        requireCitation: true,
        maxTokens: 1000,
        temperature: 0,
        concurrency: 1,
        now: () => new Date('2026-12-01T00:00:00Z'),
      });
      expect(server.problems).toEqual([]);
      expect(records.map((record) => record.result.verdict)).toEqual(['pass', 'pass']);
      expect(records[0]).toMatchObject({ fixture_id: R08, rule: 'Rule 8', target: client === 'claude-code' ? 'cc' : 'cx', agent: 'np-executor' });
      expect(records[0]?.response).toContain('answer 1');
      expect(records[1]?.response).toContain('answer 2');
      expect(agentFile).toContain(agentLine);
      const [first, second] = server.turns;
      // The agent file reached the model as the project's instructions, the fixture as the task.
      expect(seen(first!)).toContain(agentLine);
      expect(seen(first!)).toContain('CHOICE: <letter>');
      // A fresh context: the second spawn carries nothing of the first one's answer.
      expect(seen(second!)).toContain(agentLine);
      expect(seen(second!)).not.toContain('answer 1');
    } finally {
      await server.close();
    }
  }, 300_000);
});

describe('a harness that cannot answer', () => {
  it('is recorded as error, never a pass', async () => {
    const [target] = parseTargetsConfig('targets:\n  - { id: cc, provider: claude-code }').targets;
    const harness: AgentHarness = { target: target as HarnessTarget, binary: '/nonexistent/claude', label: 'claude-code', env: { PATH: '' } };
    const fixture = suite.fixtures.find((candidate) => candidate.id === R08)!;
    const records = await runPressureLive({
      fixtures: [fixture],
      rulebook: undefined,
      targets: [createHarnessResponder({ harness, timeoutMs: 10_000 })],
      variant: 'untold',
      rulebookProse: undefined,
      reps: 1,
      requireCitation: true,
      maxTokens: 1000,
      temperature: 0,
      concurrency: 1,
      now: () => new Date('2026-12-01T00:00:00Z'),
    });
    expect(records[0]?.result.verdict).toBe('error');
    expect(records[0]?.error?.code).toBe('E_HARNESS');
  });
});
