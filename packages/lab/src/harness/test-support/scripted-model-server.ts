import { startFakeServer } from '../../models/test-support/fake-openai-server.js';
import type { FakeReply, RecordedRequest } from '../../models/test-support/fake-openai-server.js';
import { approximateTokens, messagesJson, messagesStream, messagesToolNames, messagesToolResults } from './anthropic-messages.js';
import { responsesStream, responsesToolKinds, responsesToolResults } from './openai-responses.js';
import { geminiAnswer, geminiToolNames, geminiToolResults } from './gemini-generate.js';
import { chatJson, chatStream, chatToolNames, chatToolResults } from './openai-chat.js';
import { SCRIPT_EXHAUSTED, repliesOf } from './script.js';
import type { ModelTurn, ScriptStep, ScriptedOutput, ToolResult, WireProtocol } from './script.js';

export type { RecordedRequest } from '../../models/test-support/fake-openai-server.js';

export interface ScriptedModelServer {
  /** `http://127.0.0.1:PORT`: Claude Code's ANTHROPIC_BASE_URL; Codex's provider base_url is this plus `/v1`. */
  readonly origin: string;
  /** Every request the server received, in order, start-up and side calls included. */
  readonly requests: readonly RecordedRequest[];
  /** The main-loop turns the script answered, as the steps saw them. */
  readonly turns: readonly ModelTurn[];
  /** What went wrong on the server side: an exhausted script, a step that threw, a path it does not know. */
  readonly problems: readonly string[];
  close(): Promise<void>;
}

export interface ScriptedModelOptions {
  readonly steps: readonly ScriptStep[];
  /**
   * The repository the agent works in: `writeFile` paths are made absolute against it for the clients whose
   * file tools take absolute paths. A function when the folder is known only once the client runs (agent
   * mode makes each arm's repository itself): asked at each request.
   */
  readonly cwd?: string | (() => string);
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

function bodyOf(request: RecordedRequest): Record<string, unknown> {
  return typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
}

function pathOf(request: RecordedRequest): string {
  return request.path.split('?')[0] ?? request.path;
}

/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) that plays a model for the real agent binaries:
 * Anthropic Messages (`POST /v1/messages`, streamed) for Claude Code and OpenAI Responses
 * (`POST /v1/responses`, streamed) for Codex, the Gemini API (`POST /v1beta/models/M:streamGenerateContent`) for Gemini CLI, OpenAI chat completions (`POST /v1/chat/completions`, streamed) for Qwen Code and Copilot CLI. A request that declares tools is a main-loop turn and
 * takes the next script step; one without tools is a side call (a title, a summary) and gets a short
 * text without consuming a step. Start-up probes (`HEAD /`, model lists, token counts) are answered.
 */
export async function startScriptedModel(options: ScriptedModelOptions): Promise<ScriptedModelServer> {
  const turns: ModelTurn[] = [];
  const problems: string[] = [];
  let lastCallIds = new Set<string>();
  let sequence = 0;
  const cwdNow = (): string => (typeof options.cwd === 'function' ? options.cwd() : (options.cwd ?? ''));

  const nextOutputs = (protocol: WireProtocol, body: Record<string, unknown>, all: ToolResult[], toolNames: string[]): readonly ScriptedOutput[] => {
    const turn: ModelTurn = {
      protocol,
      turn: turns.length,
      body,
      toolResults: all.filter((result) => lastCallIds.has(result.callId)),
      allToolResults: all,
      toolNames,
    };
    turns.push(turn);
    const step = options.steps[turn.turn];
    if (step === undefined) {
      problems.push(`turn ${turn.turn}: ${SCRIPT_EXHAUSTED} (the script has ${options.steps.length} steps)`);
      return [{ text: SCRIPT_EXHAUSTED }];
    }
    try {
      return repliesOf(typeof step === 'function' ? step(turn) : step);
    } catch (error) {
      problems.push(`turn ${turn.turn}: the script step threw: ${error instanceof Error ? error.message : String(error)}`);
      return [{ text: `scripted model: step ${turn.turn} threw` }];
    }
  };

  const answer = (request: RecordedRequest): FakeReply => {
    const path = pathOf(request);
    const body = bodyOf(request);
    const model = typeof body.model === 'string' ? body.model : 'scripted-model';
    const inputTokens = approximateTokens(request.rawBody);
    sequence += 1;
    const id = `scripted${sequence}`;
    if (request.method === 'HEAD' || (request.method === 'GET' && path === '/')) return { status: 200, body: '' };
    if (request.method === 'GET' && path === '/v1/models') {
      return {
        json: {
          object: 'list',
          data: [{ id: model, object: 'model', type: 'model', display_name: 'Scripted model', created_at: '2026-01-01T00:00:00Z' }],
          has_more: false,
        },
      };
    }
    if (request.method === 'POST' && path === '/v1/messages/count_tokens') return { json: { input_tokens: inputTokens } };
    if (request.method === 'POST' && path === '/v1/messages') {
      const toolNames = messagesToolNames(body);
      const outputs = toolNames.length > 0 ? nextOutputs('anthropic-messages', body, messagesToolResults(body), toolNames) : [{ text: 'Scripted session' }];
      if (body.stream !== true)
        return { json: messagesJson(outputs.map((output) => ('text' in output ? output.text : '')).join(''), { model, id, inputTokens }) };
      const stream = messagesStream(outputs, { model, id, cwd: cwdNow(), inputTokens });
      if (toolNames.length > 0) lastCallIds = new Set(stream.callIds);
      return { status: 200, headers: SSE_HEADERS, body: stream.sse };
    }
    if (request.method === 'POST' && path === '/v1/responses') {
      const kinds = responsesToolKinds(body);
      const main = kinds.size > 0;
      const outputs = main ? nextOutputs('openai-responses', body, responsesToolResults(body), [...kinds.keys()]) : [{ text: 'Scripted session' }];
      const stream = responsesStream(outputs, { model, id, kinds, inputTokens });
      if (main) lastCallIds = new Set(stream.callIds);
      return { status: 200, headers: SSE_HEADERS, body: stream.sse };
    }
    if (request.method === 'POST' && path === '/v1/chat/completions') {
      const toolNames = chatToolNames(body);
      const main = toolNames.length > 0;
      const outputs = main ? nextOutputs('openai-chat', body, chatToolResults(body), toolNames) : [{ text: 'Scripted session' }];
      if (body.stream !== true) return { json: chatJson(outputs.map((output) => ('text' in output ? output.text : '')).join(''), { model, id, inputTokens }) };
      const stream = chatStream(outputs, { model, id, cwd: cwdNow(), inputTokens, toolNames });
      if (main) lastCallIds = new Set(stream.callIds);
      return { status: 200, headers: SSE_HEADERS, body: stream.sse };
    }
    const gemini = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(path);
    if (request.method === 'POST' && gemini !== null) {
      if (gemini[2] === 'countTokens') return { json: { totalTokens: inputTokens } };
      const toolNames = geminiToolNames(body);
      const main = toolNames.length > 0;
      // A side call without tools (the model router, the next-speaker check) asks for JSON: both fields it may read.
      const outputs = main
        ? nextOutputs('gemini-generate', body, geminiToolResults(body), toolNames)
        : [{ text: JSON.stringify({ reasoning: 'scripted', next_speaker: 'user', model_choice: 'flash' }) }];
      const answer = geminiAnswer(outputs, { id, model: gemini[1] ?? model, inputTokens });
      if (main) lastCallIds = new Set(answer.callIds);
      if (gemini[2] === 'generateContent') return { json: answer.json };
      return { status: 200, headers: SSE_HEADERS, body: `data: ${JSON.stringify(answer.json)}\n\n` };
    }
    problems.push(`unexpected request: ${request.method} ${request.path}`);
    return {
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `scripted model: no route for ${request.method} ${path}` } }),
    };
  };

  const server = await startFakeServer({ script: (request) => answer(request) });
  return { origin: server.origin, requests: server.requests, turns, problems, close: () => server.close() };
}
