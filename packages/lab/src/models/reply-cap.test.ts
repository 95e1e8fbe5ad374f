import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from './anthropic.js';
import { nodeHttpFetch } from './http-request.js';
import type { ModelAdapter } from './model-adapter.js';
import { createOpenAiCompatibleAdapter } from './openai-compatible.js';
import { REPLY_TOO_LARGE } from './reply-cap.js';
import { testRuntime } from './test-support/test-runtime.js';

const CAP = 64 * 1024;
const request = { messages: [{ role: 'user', content: 'Add a health endpoint.' }] as const, maxTokens: 100, temperature: 0 };

interface EndlessServer {
  readonly baseUrl: string;
  closedByClient(): Promise<void>;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A provider whose answer never ends: a JSON string that grows until the client hangs up. */
async function startEndless(): Promise<EndlessServer> {
  let closed: () => void = () => {};
  const closing = new Promise<void>((resolve) => (closed = resolve));
  const chunk = 'x'.repeat(16 * 1024);
  const pump = (response: ServerResponse) => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', () => pump(response));
  };
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.on('close', () => closed());
    response.write('{"choices":[{"message":{"content":"');
    pump(response);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, closedByClient: () => closing };
}

async function failureOf(adapter: ModelAdapter): Promise<{ code?: unknown; retryable?: unknown; message: string }> {
  const error: unknown = await adapter.generate(request).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Error)) throw new Error('the call did not fail');
  return error as Error & { code?: unknown; retryable?: unknown };
}

describe('the reply size cap', () => {
  const runtime = () => ({ ...testRuntime(), fetch: nodeHttpFetch });

  it('cuts off a never-ending OpenAI-compatible body at the cap, not retried, "too large"', async () => {
    const endless = await startEndless();
    const adapter = createOpenAiCompatibleAdapter({ id: 'big', model: 'm', baseUrl: `${endless.baseUrl}/v1`, runtime: runtime(), maxReplyBytes: CAP });
    const error = await failureOf(adapter);
    expect(error.code).toBe(REPLY_TOO_LARGE);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/too large/);
    await endless.closedByClient();
  });

  it('cuts off a never-ending Anthropic body at the cap', async () => {
    const endless = await startEndless();
    const adapter = createAnthropicAdapter({ id: 'big', model: 'm', baseUrl: endless.baseUrl, apiKey: 'sk-ant-test', runtime: runtime(), maxReplyBytes: CAP });
    const error = await failureOf(adapter);
    expect(error.code).toBe(REPLY_TOO_LARGE);
    await endless.closedByClient();
  });

  it('caps a body at 1 MB when the target sets no cap', async () => {
    const endless = await startEndless();
    const adapter = createOpenAiCompatibleAdapter({ id: 'big', model: 'm', baseUrl: `${endless.baseUrl}/v1`, runtime: runtime() });
    expect((await failureOf(adapter)).code).toBe(REPLY_TOO_LARGE);
  });
});
