import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTargetsConfig } from '../models/index.js';
import { startFakeServer } from '../models/test-support/fake-openai-server.js';
import { detectTargets } from './detect-targets.js';

describe('detectTargets', () => {
  it('finds a target per key set, each model of the local Ollama, and claude / codex on PATH; all valid config', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'holdfast-detect-'));
    const ollama = await startFakeServer({ script: () => ({ json: { models: [{ name: 'llama3.1:8b' }, { name: 'qwen2.5-coder:7b' }] } }) });
    try {
      for (const name of ['claude', 'codex']) {
        writeFileSync(join(bin, name), '#!/bin/sh\n');
        chmodSync(join(bin, name), 0o755);
      }
      const found = await detectTargets({ env: { ANTHROPIC_API_KEY: 'sk-ant-x', OPENAI_API_KEY: '', PATH: bin }, ollamaUrl: `${ollama.origin}/` });
      expect(found.map((target) => [target.config.id, target.mode, target.why])).toEqual([
        ['anthropic-sonnet', 'plan', 'ANTHROPIC_API_KEY is set'],
        ['ollama-llama3.1:8b', 'plan', `Ollama at ${ollama.origin} has llama3.1:8b`],
        ['ollama-qwen2.5-coder:7b', 'plan', `Ollama at ${ollama.origin} has qwen2.5-coder:7b`],
        ['claude-code', 'agent', `claude is on PATH (${join(bin, 'claude')})`],
        ['codex', 'agent', `codex is on PATH (${join(bin, 'codex')})`],
      ]);
      expect(ollama.requests.map((request) => request.path)).toEqual(['/api/tags']);
      expect(parseTargetsConfig(JSON.stringify({ version: 1, targets: found.map((target) => target.config) })).targets).toHaveLength(5);
      expect(JSON.stringify(found)).not.toContain('sk-ant-x');
    } finally {
      await ollama.close();
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('finds nothing when no key is set, Ollama does not answer and PATH is empty', async () => {
    const closed = await startFakeServer({ script: () => ({ json: {} }) });
    const url = closed.origin;
    await closed.close();
    expect(await detectTargets({ env: { PATH: '' }, ollamaUrl: url })).toEqual([]);
  });
});
