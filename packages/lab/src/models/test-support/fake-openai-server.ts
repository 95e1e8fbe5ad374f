import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the fake server received: method, path, headers and the parsed JSON body. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or the raw text when it is not JSON (undefined when empty). */
  readonly body: unknown;
  readonly rawBody: string;
}

/**
 * What the script answers: a JSON body, a status with a raw body, or a dropped connection.
 * `delayMs` holds the answer back (a timeout test); `headers` go out as given (`retry-after`).
 */
export type FakeReply =
  | { readonly json: unknown; readonly status?: number; readonly headers?: Record<string, string>; readonly delayMs?: number }
  | { readonly status: number; readonly body?: string; readonly headers?: Record<string, string>; readonly delayMs?: number }
  | { readonly drop: true; readonly delayMs?: number };

export type FakeScript = (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeServer {
  /** For OpenAI: `http://127.0.0.1:PORT/v1`; for the bare server: `http://127.0.0.1:PORT`. */
  readonly baseUrl: string;
  readonly origin: string;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseMaybeJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A real HTTP server on 127.0.0.1 (port 0) that answers each request as the script says.
 * Nothing is faked below the socket, so the adapter's fetch, timeouts and retries all run for real.
 */
export async function startFakeServer(options: { script: FakeScript; basePath?: string }): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();

  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const rawBody = await readBody(request);
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: request.headers,
      body: parseMaybeJson(rawBody),
      rawBody,
    };
    const index = requests.length;
    requests.push(recorded);
    let reply: FakeReply;
    try {
      reply = await options.script(recorded, index);
    } catch (error) {
      reply = { status: 599, body: `fake server script threw: ${String(error)}` };
    }
    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, reply.delayMs);
        timers.add(timer);
      });
    }
    if (response.destroyed || request.socket.destroyed) return;
    if ('drop' in reply) {
      request.socket.destroy();
      return;
    }
    if ('json' in reply) {
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      response.end(JSON.stringify(reply.json));
      return;
    }
    response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
    response.end(reply.body ?? '');
  };

  const server = createServer((request, response) => {
    void answer(request, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}${options.basePath ?? ''}`,
    origin,
    requests,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The fake OpenAI-compatible server: `baseUrl` ends in `/v1`, as adapters expect. */
export function startFakeOpenAi(options: { script: FakeScript }): Promise<FakeServer> {
  return startFakeServer({ script: options.script, basePath: '/v1' });
}

/** A chat-completions body with one choice, the way OpenAI, Ollama and OpenRouter answer. */
export function chatCompletion(
  content: string | null,
  extra: {
    reasoningContent?: string;
    reasoning?: string;
    /** Structured outputs: the model's refusal sentence (content is then null). */
    refusal?: string;
    finishReason?: string;
    promptTokens?: number;
    completionTokens?: number;
    reasoningTokens?: number;
    model?: string;
  } = {},
): FakeReply {
  return {
    json: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      model: extra.model ?? 'fake-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content,
            ...(extra.reasoningContent !== undefined ? { reasoning_content: extra.reasoningContent } : {}),
            ...(extra.reasoning !== undefined ? { reasoning: extra.reasoning } : {}),
            ...(extra.refusal !== undefined ? { refusal: extra.refusal } : {}),
          },
          finish_reason: extra.finishReason ?? 'stop',
        },
      ],
      usage: {
        prompt_tokens: extra.promptTokens ?? 10,
        completion_tokens: extra.completionTokens ?? 5,
        ...(extra.reasoningTokens !== undefined ? { completion_tokens_details: { reasoning_tokens: extra.reasoningTokens } } : {}),
      },
    },
  };
}

/** A Messages API body: optional thinking block, then the text block. */
export function anthropicMessage(text: string, extra: { thinking?: string; stopReason?: string; inputTokens?: number; outputTokens?: number } = {}): FakeReply {
  return {
    json: {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      content: [...(extra.thinking !== undefined ? [{ type: 'thinking', thinking: extra.thinking, signature: 'sig' }] : []), { type: 'text', text }],
      stop_reason: extra.stopReason ?? 'end_turn',
      usage: { input_tokens: extra.inputTokens ?? 12, output_tokens: extra.outputTokens ?? 7 },
    },
  };
}

/** The model list an OpenAI-compatible server answers on GET /models. */
export function modelList(ids: readonly string[]): FakeReply {
  return { json: { object: 'list', data: ids.map((id) => ({ id, object: 'model' })) } };
}

/** A chat-completions body whose assistant message calls tools (arguments as the JSON string OpenAI sends). */
export function chatToolCalls(
  calls: readonly { id?: string; name: string; input: unknown }[],
  extra: { content?: string | null; promptTokens?: number; completionTokens?: number } = {},
): FakeReply {
  return {
    json: {
      id: 'chatcmpl-fake-tools',
      object: 'chat.completion',
      model: 'fake-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: extra.content ?? null,
            tool_calls: calls.map((call, position) => ({
              id: call.id ?? `call_${position}`,
              type: 'function',
              function: { name: call.name, arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input) },
            })),
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: extra.promptTokens ?? 50, completion_tokens: extra.completionTokens ?? 10 },
    },
  };
}

/** A Messages API body with optional text, then one `tool_use` block per call. */
export function anthropicToolUse(
  calls: readonly { id?: string; name: string; input: unknown }[],
  extra: { text?: string; inputTokens?: number; outputTokens?: number } = {},
): FakeReply {
  return {
    json: {
      id: 'msg_fake_tools',
      type: 'message',
      role: 'assistant',
      content: [
        ...(extra.text !== undefined ? [{ type: 'text', text: extra.text }] : []),
        ...calls.map((call, position) => ({ type: 'tool_use', id: call.id ?? `toolu_${position}`, name: call.name, input: call.input })),
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: extra.inputTokens ?? 60, output_tokens: extra.outputTokens ?? 12 },
    },
  };
}
