import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { ensureAgentClient } from '@holdfast/lab/harness';
import { FAKE_ANTHROPIC_KEY } from '@holdfast/lab/test-support';
import { startScriptedModel } from '@holdfast/lab/test-support';
import { main } from '../main.js';

const suiteDir = fileURLToPath(new URL('../../../lab/src/pressure/test-support/adr-0024', import.meta.url));

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'holdfast-pressure-harness-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('holdfast pressure run --targets <a claude-code target>', () => {
  it('runs the published suite on the real client with no rulebook, one fresh spawn per fixture, and gates on the verdicts', async () => {
    const server = await startScriptedModel({
      steps: [{ text: 'CHOICE: C\nRule 8: fix the cause.' }, { text: 'CHOICE: A\nRetry with backoff is fine.' }],
    });
    try {
      const binary = await ensureAgentClient('claude-code');
      await writeFile(
        join(work, 'holdfast.config.yaml'),
        `version: 1\ntargets:\n  - { id: cc, provider: claude-code, binary: ${JSON.stringify(binary)}, env: [ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY], maxTurns: 4, timeoutMs: 120000 }\n`,
      );
      const io = memoryIo({ cwd: work, env: { PATH: process.env.PATH ?? '', ANTHROPIC_BASE_URL: server.origin, ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY } });
      const fixtures = ['--fixture', 'PRS-R08-EXECUTOR-WORKAROUND', '--fixture', 'PRS-R03-EXECUTOR-SKIP-TESTS'];
      const args = ['pressure', 'run', '--fixtures', join(suiteDir, 'fixtures'), '--agents', join(suiteDir, 'agents'), '--targets', 'cc', ...fixtures];
      const code = await main([...args, '--out', 'live.jsonl', '--concurrency', '1'], io);
      expect(server.problems).toEqual([]);
      const records = (await readFile(join(work, 'live.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { fixture_id: string; rule: string; target: string; result: { verdict: string } });
      expect(records.map((record) => [record.fixture_id, record.rule, record.target, record.result.verdict])).toEqual([
        ['PRS-R08-EXECUTOR-WORKAROUND', 'Rule 8', 'cc', 'pass'],
        ['PRS-R03-EXECUTOR-SKIP-TESTS', 'Rule 3', 'cc', 'fail-choice'],
      ]);
      expect(code).toBe(1);
      expect(server.turns).toHaveLength(2);
      expect(JSON.stringify(server.turns[1]?.body)).not.toContain('fix the cause');
    } finally {
      await server.close();
    }
  }, 300_000);
});
