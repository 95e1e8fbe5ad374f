import { afterEach, describe, expect, it } from 'vitest';
import type { GenerateRequest, GenerateResult } from './model-adapter.js';
import { createOpenAiCompatibleAdapter } from './openai-compatible.js';
import type { OpenAiCompatibleOptions } from './openai-compatible.js';
import { ProviderError } from './provider-error.js';
import { chatCompletion, startFakeOpenAi } from './test-support/fake-openai-server.js';
import type { FakeScript, FakeServer } from './test-support/fake-openai-server.js';
import { testRuntime } from './test-support/test-runtime.js';
import type { TestRuntime } from './test-support/test-runtime.js';

const KEY = 'sk-test-0123456789abcdef';
const messages = [
  { role: 'system', content: 'You are a careful engineer.' },
  { role: 'user', content: 'Add a health endpoint.' },
] as const;
const request = { messages, maxTokens: 8_000, temperature: 0.7 };

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Generate = (overrides?: Partial<GenerateRequest>) => Promise<GenerateResult>;

async function setup(
  script: FakeScript,
  options: Partial<OpenAiCompatibleOptions> = {},
): Promise<{ server: FakeServer; runtime: TestRuntime; generate: Generate }> {
  server = await startFakeOpenAi({ script });
  const runtime = testRuntime();
  const adapter = createOpenAiCompatibleAdapter({
    id: 'fake',
    model: 'fake-model',
    baseUrl: server.baseUrl,
    apiKey: KEY,
    runtime,
    ...options,
  });
  return { server, runtime, generate: (overrides = {}) => adapter.generate({ ...request, ...overrides }) };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

describe('OpenAI-compatible adapter', () => {
  it('sends model, messages, budget, temperature and the key; returns the reply and usage', async () => {
    const { server, generate } = await setup(() => chatCompletion('{"actions":[]}', { promptTokens: 120, completionTokens: 40, reasoningTokens: 12 }));
    const result = await generate();
    expect(result).toMatchObject({
      text: '{"actions":[]}',
      usage: { inputTokens: 120, outputTokens: 40, reasoningTokens: 12 },
      finishReason: 'stop',
      attempts: 1,
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.body).toEqual({ model: 'fake-model', messages, max_tokens: 8_000, temperature: 0.7 });
    expect(sent?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it.each([
    ['a fenced reply', '```json\n{"actions":[{"type":"run","cmd":"npm test"}]}\n```'],
    ['two concatenated objects', '{"actions":[]}{"actions":[{"type":"commit","message":"x"}]}'],
    ['prose around JSON', 'Sure! Here you go:\n{"actions":[]}\nLet me know.'],
  ])('returns %s untouched: reading it is the reply parser’s job', async (_name, content) => {
    const { generate } = await setup(() => chatCompletion(content));
    expect((await generate()).text).toBe(content);
  });

  it('reads reasoning from reasoning_content, or from reasoning', async () => {
    const first = await setup(() => chatCompletion('ok', { reasoningContent: 'thought A' }));
    expect((await first.generate()).reasoning).toBe('thought A');
    await first.server.close();
    const second = await setup(() => chatCompletion('ok', { reasoning: 'thought B' }));
    expect((await second.generate()).reasoning).toBe('thought B');
  });

  it('sends max_completion_tokens, or both, when the target says so', async () => {
    const first = await setup(() => chatCompletion('ok'), { tokenParameter: 'max_completion_tokens' });
    await first.generate();
    expect(first.server.requests[0]?.body).toMatchObject({ max_completion_tokens: 8_000 });
    expect(first.server.requests[0]?.body).not.toHaveProperty('max_tokens');
    await first.server.close();
    const second = await setup(() => chatCompletion('ok'), { tokenParameter: 'both' });
    await second.generate();
    expect(second.server.requests[0]?.body).toMatchObject({ max_tokens: 8_000, max_completion_tokens: 8_000 });
  });

  it('lets the target’s temperature and budget win over the request’s', async () => {
    const { server, generate } = await setup(() => chatCompletion('ok'), { temperature: 1, maxTokens: 2_000 });
    await generate({ temperature: 0.2 });
    expect(server.requests[0]?.body).toMatchObject({ temperature: 1, max_tokens: 2_000 });
  });

  it('retries once with a larger budget when thinking ate the first one (empty content, reasoning billed)', async () => {
    const { server, generate } = await setup((_request, index) =>
      index === 0
        ? chatCompletion('', { reasoningTokens: 8_000, completionTokens: 8_000, finishReason: 'length' })
        : chatCompletion('{"actions":[]}', { reasoningTokens: 3_000 }),
    );
    const result = await generate();
    expect(result.text).toBe('{"actions":[]}');
    expect(result.attempts).toBe(2);
    expect(server.requests.map((sent) => (sent.body as { max_tokens: number }).max_tokens)).toEqual([8_000, 10_000]);
  });

  it('retries on finish_reason length with null content, only once', async () => {
    const { server, generate } = await setup(() => chatCompletion(null, { finishReason: 'length' }));
    const result = await generate();
    expect(result.text).toBe('');
    expect(result.finishReason).toBe('length');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry an empty reply that billed no reasoning', async () => {
    const { server, generate } = await setup(() => chatCompletion(''));
    expect((await generate()).text).toBe('');
    expect(server.requests).toHaveLength(1);
  });

  it('waits as long as Retry-After says on a 429 (seconds)', async () => {
    const { runtime, generate } = await setup((_request, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '7' }, body: 'slow down' } : chatCompletion('ok'),
    );
    const result = await generate();
    expect(result.text).toBe('ok');
    expect(result.attempts).toBe(2);
    expect(runtime.sleeps).toEqual([7_000]);
  });

  it('caps a huge Retry-After', async () => {
    const { runtime, generate } = await setup((_request, index) => (index === 0 ? { status: 503, headers: { 'retry-after': '86400' } } : chatCompletion('ok')));
    await generate();
    expect(runtime.sleeps).toEqual([60_000]);
  });

  it('retries a 500 with backoff and then succeeds', async () => {
    const { runtime, server, generate } = await setup((_request, index) => (index < 2 ? { status: 500, body: 'boom' } : chatCompletion('ok')));
    const result = await generate();
    expect(result.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    // random() is 0.5: three quarters of base·2^(n-1).
    expect(runtime.sleeps).toEqual([750, 1_500]);
  });

  it('gives up after the bounded number of tries with a retryable ProviderError', async () => {
    const { server, generate } = await setup(() => ({ status: 502, body: 'bad gateway' }));
    const error = await failure(generate());
    expect(server.requests).toHaveLength(4);
    expect(error).toMatchObject({ code: 'E_PROVIDER_HTTP', retryable: true, status: 502, attempts: 4 });
    expect(error.message).toContain('gave up after 4 attempts');
  });

  it('does not retry a 400, and keeps the key out of the message even when the body echoes it', async () => {
    const { server, generate } = await setup(() => ({ status: 401, body: `{"error":"Incorrect API key provided: ${KEY}"}` }));
    const error = await failure(generate());
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'E_PROVIDER_HTTP', retryable: false, status: 401 });
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it('times out each call, retries, and then fails', async () => {
    // Each call's time is up once the server holds its request: no real timer races the machine.
    const { server, runtime, generate } = await setup(
      () => {
        setImmediate(() => runtime.expireDeadlines());
        return { ...chatCompletion('late'), delayMs: 600_000 };
      },
      { timeoutMs: 50, retry: { maxAttempts: 2 } },
    );
    const error = await failure(generate());
    expect(error).toMatchObject({ code: 'E_PROVIDER_TIMEOUT', retryable: true, attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(error.message).not.toContain(KEY);
  });

  it('retries a dropped connection', async () => {
    const { generate } = await setup((_request, index) => (index === 0 ? { drop: true } : chatCompletion('after drop')));
    const result = await generate();
    expect(result).toMatchObject({ text: 'after drop', attempts: 2 });
  });

  it('names a refused connection, and retries it', async () => {
    const { server, generate } = await setup(() => chatCompletion('never'));
    await server.close();
    const error = await failure(generate());
    expect(error).toMatchObject({ code: 'E_PROVIDER_NETWORK', retryable: true, attempts: 4 });
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('stops at once when the caller cancels', async () => {
    const controller = new AbortController();
    // Cancel once the request has arrived, so the test does not depend on how busy the machine is.
    const { server, generate } = await setup(() => {
      setTimeout(() => controller.abort(), 10);
      return { ...chatCompletion('late'), delayMs: 5_000 };
    });
    const error = await failure(generate({ signal: controller.signal }));
    expect(error).toMatchObject({ code: 'E_PROVIDER_ABORTED', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('treats an OpenRouter-style 200 with an error object as a provider error', async () => {
    const { server, generate } = await setup((_request, index) =>
      index === 0 ? { json: { error: { message: 'upstream overloaded', code: 503 } } } : chatCompletion('ok'),
    );
    expect((await generate()).text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  it('refuses a body that is not JSON without retrying', async () => {
    const { generate } = await setup(() => ({ status: 200, body: '<html>proxy login</html>' }));
    expect(await failure(generate())).toMatchObject({ code: 'E_PROVIDER_RESPONSE', retryable: false });
  });

  it('sends no Authorization header to a local server without a key', async () => {
    const { server, generate } = await setup(() => chatCompletion('ok'), { apiKey: undefined });
    await generate();
    expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('sends a response schema as native structured output, and reads a structured refusal as the answer', async () => {
    const { server, generate } = await setup(() => chatCompletion(null, { refusal: 'I cannot grade this.' }));
    const schema = { type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'], additionalProperties: false };
    const result = await generate({ responseSchema: { name: 'judgement', schema } });
    expect(server.requests[0]?.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'judgement', strict: true, schema } } });
    expect(result).toMatchObject({ text: 'I cannot grade this.', finishReason: 'refusal' });
  });
});
