import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findProgram } from '@holdfast/gate';
import { probeTarget } from './probe-target.js';
import { parseTargetsConfig } from '../models/index.js';
import type { TargetConfig } from '../models/index.js';
import { modelList, startFakeOpenAi } from '../models/test-support/fake-openai-server.js';
import type { FakeServer } from '../models/test-support/fake-openai-server.js';
import { testRuntime } from '../models/test-support/test-runtime.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function target(yaml: string): TargetConfig {
  const [only] = parseTargetsConfig(`targets:\n  - ${yaml}`).targets;
  if (only === undefined) throw new Error('no target');
  return only;
}

describe('probeTarget', () => {
  it('asks an OpenAI-compatible server for its models, with the key, and says whether the model is there', async () => {
    server = await startFakeOpenAi({ script: () => modelList(['llama3.1:8b', 'qwen3:8b']) });
    const listed = await probeTarget(
      target(`{ id: o, provider: openai-compatible, model: "llama3.1:8b", baseUrl: "${server.baseUrl}", keyEnv: K }`),
      { K: 'key-1234' },
      { timeoutMs: 5_000 },
    );
    expect(listed).toEqual({ reachable: true, hasKey: true, detail: `${server.baseUrl}/models answered and lists llama3.1:8b` });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer key-1234');
    const missing = await probeTarget(target(`{ id: o, provider: openai-compatible, model: gemma, baseUrl: "${server.baseUrl}" }`), {}, { timeoutMs: 5_000 });
    expect(missing.reachable).toBe(true);
    expect(missing.detail).toContain('gemma is not among its 2 models');
  });

  it('reports an unreachable server and a missing key, without the key', async () => {
    server = await startFakeOpenAi({ script: () => ({ status: 401, body: 'bad key key-1234' }) });
    const refused = await probeTarget(
      target(`{ id: o, provider: openai-compatible, model: m, baseUrl: "${server.baseUrl}", keyEnv: K }`),
      { K: 'key-1234' },
      { timeoutMs: 5_000 },
    );
    expect(refused.reachable).toBe(false);
    expect(refused.detail).toContain('401');
    expect(refused.detail).not.toContain('key-1234');
    await server.close();
    const down = await probeTarget(
      target(`{ id: o, provider: openai-compatible, model: m, baseUrl: "${server.baseUrl}", keyEnv: K }`),
      {},
      { timeoutMs: 5_000 },
    );
    expect(down).toMatchObject({ reachable: false, hasKey: false });
    expect(down.detail).toContain('ECONNREFUSED');
  });

  it('gives up on a silent server after the timeout', async () => {
    // The time is up once the server holds the request, not after a real 50 ms.
    const runtime = testRuntime();
    server = await startFakeOpenAi({
      script: () => {
        setImmediate(() => runtime.expireDeadlines());
        return { ...modelList([]), delayMs: 600_000 };
      },
    });
    const silent = await probeTarget(target(`{ id: o, provider: openai-compatible, model: m, baseUrl: "${server.baseUrl}" }`), {}, { timeoutMs: 50, runtime });
    expect(silent.reachable).toBe(false);
    expect(silent.detail).toContain('within 50 ms');
  });

  it('checks only the key of an Anthropic target', async () => {
    const anthropic = target('{ id: a, provider: anthropic, model: m }');
    expect(await probeTarget(anthropic, {}, { timeoutMs: 1 })).toMatchObject({ reachable: false, hasKey: false });
    expect(await probeTarget(anthropic, { ANTHROPIC_API_KEY: 'k' }, { timeoutMs: 1 })).toMatchObject({ reachable: true, hasKey: true });
  });

  it('looks for a command target’s program on PATH', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'holdfast-path-'));
    try {
      const program = join(folder, 'fake-agent');
      await writeFile(program, '#!/bin/sh\necho hi\n');
      await chmod(program, 0o755);
      await writeFile(join(folder, 'not-executable'), '');
      const found = await probeTarget(target('{ id: c, provider: command, command: [fake-agent, -p] }'), { PATH: folder }, { timeoutMs: 1 });
      expect(found).toEqual({ reachable: true, hasKey: true, detail: `found ${program}` });
      expect(findProgram('not-executable', { PATH: folder })).toBeUndefined();
      const lost = await probeTarget(target('{ id: c, provider: command, command: [fake-agent] }'), { PATH: '/nonexistent' }, { timeoutMs: 1 });
      expect(lost).toMatchObject({ reachable: false, detail: '`fake-agent` is not on PATH' });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
