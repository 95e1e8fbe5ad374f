import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from './anthropic.js';
import { ProviderError } from './provider-error.js';
import { anthropicMessage, startFakeServer } from './test-support/fake-openai-server.js';
import type { FakeScript, FakeServer } from './test-support/fake-openai-server.js';
import { testRuntime } from './test-support/test-runtime.js';

const KEY = 'sk-ant-test-abcdef0123456789';
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: FakeScript) {
  server = await startFakeServer({ script });
  const runtime = testRuntime();
  const adapter = createAnthropicAdapter({ id: 'claude', model: 'claude-sonnet-4-5', baseUrl: server.baseUrl, apiKey: KEY, runtime });
  return { server, runtime, adapter };
}

const request = {
  messages: [
    { role: 'system', content: 'Follow the rules.' },
    { role: 'user', content: 'Fix the bug.' },
  ],
  maxTokens: 8_000,
  temperature: 0.7,
} as const;

describe('Anthropic adapter', () => {
  it('posts to /v1/messages with the version header, the key and a top-level system prompt', async () => {
    const { server, adapter } = await setup(() => anthropicMessage('{"actions":[]}', { thinking: 'let me see', inputTokens: 30, outputTokens: 9 }));
    const result = await adapter.generate(request);
    expect(result).toMatchObject({
      text: '{"actions":[]}',
      reasoning: 'let me see',
      usage: { inputTokens: 30, outputTokens: 9 },
      finishReason: 'end_turn',
      attempts: 1,
    });
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe(KEY);
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.headers).not.toHaveProperty('authorization');
    expect(sent?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8_000,
      temperature: 0.7,
      system: 'Follow the rules.',
      messages: [{ role: 'user', content: 'Fix the bug.' }],
    });
    expect(adapter.target).toEqual({ id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: server.baseUrl });
  });

  it('clamps the temperature to Anthropic’s 0–1 range', async () => {
    const { server, adapter } = await setup(() => anthropicMessage('ok'));
    await adapter.generate({ ...request, temperature: 1.5 });
    expect(server.requests[0]?.body).toMatchObject({ temperature: 1 });
  });

  it('retries an overloaded 529 and keeps the key out of the final error', async () => {
    const { server, adapter } = await setup(() => ({ status: 529, body: `{"type":"error","error":{"type":"overloaded_error","message":"key ${KEY}"}}` }));
    const error: unknown = await adapter.generate(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'E_PROVIDER_HTTP', status: 529, attempts: 4 });
    expect((error as Error).message).not.toContain(KEY);
    expect(server.requests).toHaveLength(4);
  });

  it('asks again with a larger budget when the answer stopped at max_tokens with no text', async () => {
    const { server, adapter } = await setup((_request, index) =>
      index === 0 ? anthropicMessage('', { thinking: 'long thought', stopReason: 'max_tokens' }) : anthropicMessage('done'),
    );
    expect((await adapter.generate(request)).text).toBe('done');
    expect(server.requests.map((sent) => (sent.body as { max_tokens: number }).max_tokens)).toEqual([8_000, 10_000]);
  });
});
