import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '@holdfast/core/contract';
import { createAdapter } from './create-adapter.js';
import { chatCompletion, startFakeOpenAi } from './test-support/fake-openai-server.js';
import type { FakeServer } from './test-support/fake-openai-server.js';
import { testRuntime } from './test-support/test-runtime.js';
import { parseTargetsConfig } from './targets-config.js';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request = { messages: [{ role: 'user', content: 'hi' }], maxTokens: 100, temperature: 0.7 } as const;

describe('createAdapter', () => {
  it('builds an OpenAI-compatible adapter with the key from env and the target’s settings', async () => {
    server = await startFakeOpenAi({ script: () => chatCompletion('hello') });
    const [target] = parseTargetsConfig(
      `targets:\n  - { id: t, provider: openai-compatible, model: m, baseUrl: "${server.baseUrl}", keyEnv: MY_KEY, temperature: 0.1, tokenParameter: both }`,
    ).targets;
    if (target === undefined) throw new Error('no target');
    const adapter = createAdapter(target, { MY_KEY: 'secret-value-123' }, { runtime: testRuntime() });
    expect(adapter.target).toEqual({ id: 't', provider: 'openai-compatible', model: 'm', baseUrl: server.baseUrl });
    expect((await adapter.generate(request)).text).toBe('hello');
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer secret-value-123');
    expect(server.requests[0]?.body).toMatchObject({ temperature: 0.1, max_tokens: 100, max_completion_tokens: 100 });
  });

  it('honours the target’s maxAttempts', async () => {
    server = await startFakeOpenAi({ script: () => ({ status: 500 }) });
    const [target] = parseTargetsConfig(`targets:\n  - { id: t, provider: openai-compatible, model: m, baseUrl: "${server.baseUrl}", maxAttempts: 2 }`).targets;
    if (target === undefined) throw new Error('no target');
    await expect(createAdapter(target, {}, { runtime: testRuntime() }).generate(request)).rejects.toMatchObject({ attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('refuses a missing key with an InputError naming the variable', () => {
    const [anthropic, command] = parseTargetsConfig(
      'targets:\n  - { id: a, provider: anthropic, model: m }\n  - { id: c, provider: command, command: [node], keyEnv: CMD_KEY }',
    ).targets;
    if (anthropic === undefined || command === undefined) throw new Error('no target');
    expect(() => createAdapter(anthropic, { ANTHROPIC_API_KEY: '  ' })).toThrow(InputError);
    expect(() => createAdapter(anthropic, {})).toThrow(/target "a" needs a key in ANTHROPIC_API_KEY/);
    expect(() => createAdapter(command, {})).toThrow(/CMD_KEY/);
    expect(createAdapter(anthropic, { ANTHROPIC_API_KEY: 'k-1234' }).target.provider).toBe('anthropic');
  });
});
