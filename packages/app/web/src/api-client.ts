import type { z } from 'zod';
import {
  APPROVAL_TOKEN_HEADER,
  ApiErrorSchema,
  ConfigResponseSchema,
  PressureFileResponseSchema,
  PressureListResponseSchema,
  RoundEventsResponseSchema,
  RunEventSchema,
  RunListResponseSchema,
  RunStartedResponseSchema,
  jsonOrUndefined,
} from '@holdfast/core/browser';
import type {
  ConfigResponse,
  PressureFileResponse,
  PressureListResponse,
  RunEvent,
  RunListResponse,
  RunSelection,
  RunStartedResponse,
  RunView,
} from '@holdfast/core/browser';
import { ReplyReferences, readRunFileLine, safeParseRunFileText } from '@holdfast/lab/browser';
import { LineSplitter } from './line-splitter.js';

/** A request the server refused or answered with something the contract does not describe. */
class ApiRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

async function failure(response: Response): Promise<ApiRequestError> {
  const text = await response.text();
  // Not JSON: the status line says enough.
  const parsed = ApiErrorSchema.safeParse(jsonOrUndefined(text));
  if (parsed.success) return new ApiRequestError(parsed.data.error.code, parsed.data.error.message, response.status);
  return new ApiRequestError('E_HTTP', `${response.status} ${response.statusText}${text === '' ? '' : `: ${text.slice(0, 200)}`}`, response.status);
}

async function getJson<T>(url: string, schema: z.ZodType<T>): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw await failure(response);
  const parsed = schema.safeParse(await response.json());
  if (!parsed.success) throw new ApiRequestError('E_SHAPE', `${url} answered with a shape the contract does not describe`, response.status);
  return parsed.data;
}

async function postJson(url: string, body: unknown, token?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token !== undefined) headers[APPROVAL_TOKEN_HEADER] = token;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!response.ok) throw await failure(response);
  return response;
}

export function fetchConfig(): Promise<ConfigResponse> {
  return getJson('/api/config', ConfigResponseSchema);
}

export function fetchRunList(): Promise<RunListResponse> {
  return getJson('/api/runs', RunListResponseSchema);
}

/** The pressure results files in the runs folder's `pressure/` (none when it is absent). */
export function fetchPressureList(): Promise<PressureListResponse> {
  return getJson('/api/pressure', PressureListResponseSchema);
}

/** One pressure results file: its summary rows (per rule × target × variant), records and unreadable lines. */
export function fetchPressureFile(name: string): Promise<PressureFileResponse> {
  return getJson(`/api/pressure/${encodeURIComponent(name)}`, PressureFileResponseSchema);
}

/** The result of reading a saved run: its events, and lines that could not be read. */
export interface SavedRun {
  events: RunEvent[];
  problems: string[];
}

function eventsFromJson(body: unknown, name: string): SavedRun {
  const list: unknown = Array.isArray(body) ? body : typeof body === 'object' && body !== null && 'events' in body ? body.events : undefined;
  if (!Array.isArray(list)) throw new ApiRequestError('E_SHAPE', `run ${name}: expected a list of events`, 200);
  const events: RunEvent[] = [];
  const problems: string[] = [];
  list.forEach((candidate: unknown, index) => {
    const parsed = RunEventSchema.safeParse(candidate);
    if (parsed.success) events.push(parsed.data);
    else problems.push(`${name} event ${index + 1}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  });
  return { events, problems };
}

/** Reads JSONL lines into events as they come, with the store's line reader. */
class RunLineReader {
  readonly events: RunEvent[] = [];
  readonly problems: string[] = [];
  private line = 0;
  private readonly references = new ReplyReferences();

  constructor(private readonly name: string) {}

  read(text: string, terminated: boolean): void {
    this.line += 1;
    const read = readRunFileLine(text, this.line, this.name, terminated);
    if (read.kind === 'event') this.events.push(this.references.resolve(read.event));
    else if (read.kind === 'problem') this.problems.push(read.problem.message);
  }
}

async function readStreamedLines(body: ReadableStream<Uint8Array>, name: string): Promise<SavedRun> {
  const reader = new RunLineReader(name);
  const splitter = new LineSplitter();
  const decoder = new TextDecoder();
  const source = body.getReader();
  for (;;) {
    const { done, value } = await source.read();
    if (done) break;
    for (const line of splitter.push(decoder.decode(value, { stream: true }))) reader.read(line, true);
  }
  for (const line of splitter.push(decoder.decode())) reader.read(line, true);
  const last = splitter.end();
  if (last !== undefined) reader.read(last, false);
  return { events: reader.events, problems: reader.problems };
}

/**
 * A saved run file. The JSONL text is read line by line while it downloads, so a big run is parsed
 * during the transfer instead of after it. A JSON answer (`[...]` or `{ events: [...] }`) is read
 * too. Every event is validated against the contract either way. The `lean` view leaves out the
 * replies, reasoning and written contents (see `RunViewSchema`): fetch a round with
 * `fetchRoundEvents` to show them.
 */
export async function fetchSavedRun(name: string, view: RunView = 'full'): Promise<SavedRun> {
  performance.mark('holdfast:load-start');
  try {
    const query = view === 'full' ? '' : `?view=${view}`;
    const response = await fetch(`/api/runs/${encodeURIComponent(name)}${query}`, { headers: { accept: 'application/x-ndjson, application/json;q=0.5' } });
    if (!response.ok) throw await failure(response);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) return eventsFromJson(await response.json(), name);
    if (response.body === null) return readStreamedText(await response.text(), name);
    return await readStreamedLines(response.body, name);
  } finally {
    performance.measure('holdfast:load', 'holdfast:load-start');
  }
}

function readStreamedText(text: string, name: string): SavedRun {
  const contents = safeParseRunFileText(text, name);
  return { events: contents.events, problems: contents.problems.map((problem) => problem.message) };
}

/** Every event of one round of a saved run, in full (the lean view leaves their bulk out). */
export async function fetchRoundEvents(name: string, roundId: string): Promise<RunEvent[]> {
  const body = await getJson(`/api/runs/${encodeURIComponent(name)}/rounds/${encodeURIComponent(roundId)}`, RoundEventsResponseSchema);
  return body.events;
}

export async function startRun(selection: Partial<RunSelection>): Promise<RunStartedResponse> {
  const response = await postJson('/api/run', selection);
  const parsed = RunStartedResponseSchema.safeParse(await response.json());
  if (!parsed.success) throw new ApiRequestError('E_SHAPE', 'POST /api/run answered without a run id', response.status);
  return parsed.data;
}

export async function answerApproval(runId: string, approvalId: string, approve: boolean, token: string): Promise<void> {
  await postJson(`/api/run/${encodeURIComponent(runId)}/approvals/${encodeURIComponent(approvalId)}`, { approve }, token);
}

export async function cancelRun(runId: string, token: string | undefined): Promise<void> {
  await postJson(`/api/run/${encodeURIComponent(runId)}/cancel`, {}, token);
}
