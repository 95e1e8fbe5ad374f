import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import inject from 'light-my-request';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiErrorSchema, ConfigResponseSchema, RunListResponseSchema, RunStartedResponseSchema } from '@holdfast/core/contract';
import type { ApprovalEndEvent, ApprovalRequestEvent, ArmEndEvent, RunEndEvent, RunEvent } from '@holdfast/core/contract';
import { readRunFileStrict } from '@holdfast/lab/store';
import { createApp } from './create-app.js';
import type { HoldfastApp } from './create-app.js';
import { createSseReader } from './sse-reader.js';
import type { ReceivedSseMessage } from './sse-reader.js';
import { EXAMPLE, KEY_VALUE, exampleEvents, makeWorkspace, waitForEvent } from './test-support/fixture.js';

const HOST = '127.0.0.1:5177';
const ORIGIN = `http://${HOST}`;
const TOKEN = 'test-token-0123456789';
const JSON_POST = { host: HOST, origin: ORIGIN, 'content-type': 'application/json' };

let workspace: ReturnType<typeof makeWorkspace>;
let holdfast: HoldfastApp;
let ids = 0;
const logged: string[] = [];

beforeEach(() => {
  workspace = makeWorkspace();
  ids = 0;
  logged.length = 0;
  holdfast = createApp({
    cwd: workspace.cwd,
    runsDir: workspace.runsDir,
    env: workspace.env,
    host: '127.0.0.1',
    port: 5177,
    generateId: () => `run-test-${(ids += 1)}`,
    generateToken: () => TOKEN,
    probeTimeoutMs: 500,
    defaultRun: EXAMPLE,
    log: (line) => logged.push(line),
  });
});

afterEach(async () => {
  await holdfast.runs.cancelAll();
  workspace.cleanup();
});

function get(url: string, headers: Record<string, string> = {}) {
  return inject(holdfast.app, { method: 'GET', url, headers: { host: HOST, ...headers } });
}

function post(url: string, body: unknown, headers: Record<string, string | undefined> = {}) {
  const merged = Object.fromEntries(Object.entries({ ...JSON_POST, ...headers }).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return inject(holdfast.app, { method: 'POST', url, headers: merged, payload: typeof body === 'string' ? body : JSON.stringify(body) });
}

function errorCode(response: { json: () => unknown }): string {
  return ApiErrorSchema.parse(response.json()).error.code;
}

async function startRun(selection: Record<string, unknown>) {
  const response = await post('/api/run', selection);
  expect(response.statusCode, response.body).toBe(201);
  const { runId, name } = RunStartedResponseSchema.parse(response.json());
  const run = holdfast.runs.get(runId);
  if (run === undefined) throw new Error('the started run is not registered');
  return { runId, name, run };
}

const isApprovalRequest = (event: RunEvent): event is ApprovalRequestEvent => event.type === 'approval-request';
const heldArm = (events: readonly RunEvent[]) => events.find((event): event is ArmEndEvent => event.type === 'arm-end' && event.result.arm === 'held');
const runEnd = (events: readonly RunEvent[]) => events.find((event): event is RunEndEvent => event.type === 'run-end');

/** A replay of one round whose held arm commits: with the human gate on, it waits for an answer. */
const GATED_ROUND = { replay: EXAMPLE, targets: ['demo-careful'], tasks: ['bump-date-fns'], reps: 1, humanGate: true };

function readMessages(body: string): ReceivedSseMessage[] {
  const messages: ReceivedSseMessage[] = [];
  createSseReader((message) => messages.push(message)).push(body);
  return messages;
}

describe('security', () => {
  it('refuses a foreign Host (DNS rebinding), and the right name on the wrong port', async () => {
    for (const host of ['evil.example:5177', 'evil.example', '127.0.0.1:5178', '127.0.0.1']) {
      const response = await get('/api/runs', { host });
      expect(response.statusCode, host).toBe(403);
      expect(errorCode(response)).toBe('E_HOST');
    }
    expect((await get('/api/runs', { host: 'localhost:5177' })).statusCode).toBe(200);
    expect((await get('/api/runs', { host: '[::1]:5177' })).statusCode).toBe(200);
  });

  it('refuses the Host check on pages too, not just the API', async () => {
    expect((await get('/', { host: 'evil.example:5177' })).statusCode).toBe(403);
  });

  it('refuses a cross-origin POST, and a POST without Origin', async () => {
    const crossSite = await post('/api/run', GATED_ROUND, { origin: 'http://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect(errorCode(crossSite)).toBe('E_ORIGIN');
    const otherLoopbackName = await post('/api/run', GATED_ROUND, { origin: 'http://localhost:5177' });
    expect(otherLoopbackName.statusCode).toBe(403);
    const noOrigin = await post('/api/run', GATED_ROUND, { origin: undefined });
    expect(noOrigin.statusCode).toBe(403);
    expect(errorCode(noOrigin)).toBe('E_ORIGIN');
    expect(holdfast.runs.all()).toHaveLength(0);
  });

  it('refuses a state change without a JSON body (a cross-site form post)', async () => {
    const form = await post('/api/run', 'replay=example.jsonl', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.statusCode).toBe(415);
    expect(errorCode(form)).toBe('E_CONTENT_TYPE');
    const broken = await post('/api/run', '{"replay":');
    expect(broken.statusCode).toBe(400);
    expect(errorCode(broken)).toBe('E_JSON');
  });

  it('sets headers that keep the app out of frames and sniffing', async () => {
    const response = await get('/api/runs');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});

describe('GET /api/config', () => {
  it('lists targets with reachability and whether a key is set, never the key', async () => {
    const response = await get('/api/config');
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(KEY_VALUE);
    const config = ConfigResponseSchema.parse(response.json());
    const claude = config.targets.find((target) => target.id === 'claude');
    expect(claude).toMatchObject({ provider: 'anthropic', keyEnv: 'ANTHROPIC_API_KEY', hasKey: true, reachable: true });
    const closed = config.targets.find((target) => target.id === 'closed-local');
    expect(closed).toMatchObject({ hasKey: true, reachable: false });
    expect(config.tasks.length).toBeGreaterThan(0);
    expect(config.tasks.every((task) => task.files > 0 && task.tempts.length > 0)).toBe(true);
    expect(config.rulebook.rules.map((rule) => rule.id)).toContain('R1');
    expect(config.rulebookProse).toMatch(/^# AGENTS\.md/);
    expect(config.defaultRun).toBe(EXAMPLE);
  });

  it('reports a missing key as hasKey false', async () => {
    holdfast = createApp({ cwd: workspace.cwd, runsDir: workspace.runsDir, env: {}, host: '127.0.0.1', port: 5177, probeTimeoutMs: 500 });
    const config = ConfigResponseSchema.parse((await get('/api/config')).json());
    expect(config.targets.find((target) => target.id === 'claude')).toMatchObject({ hasKey: false, reachable: false });
    expect(config.defaultRun).toBeUndefined();
  });
});

describe('saved runs', () => {
  it('lists the run files with their summaries', async () => {
    const response = await get('/api/runs');
    const { runs } = RunListResponseSchema.parse(response.json());
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: EXAMPLE, status: 'completed', rounds: 48 });
    expect(runs[0]?.demo).toBeTruthy();
  });

  it('serves a run file as JSONL, or as parsed events when JSON is asked for', async () => {
    const raw = await get(`/api/runs/${EXAMPLE}`);
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(raw.body).toBe(readFileSync(join(workspace.runsDir, EXAMPLE), 'utf8'));
    const parsed = await get(`/api/runs/${EXAMPLE}`, { accept: 'application/json' });
    const body = parsed.json() as { name: string; events: RunEvent[]; problems: unknown[] };
    expect(body.name).toBe(EXAMPLE);
    expect(body.events).toEqual(await exampleEvents(workspace.runsDir));
    expect(body.problems).toEqual([]);
  });

  it('refuses path traversal and odd names, and 404s a missing run', async () => {
    for (const name of ['..%2F..%2Fpackage.json', '..%2Fexample.jsonl', '%2Fetc%2Fpasswd.jsonl', 'a%5Cb.jsonl', '.hidden.jsonl', 'example.json']) {
      const response = await get(`/api/runs/${name}`);
      expect(response.statusCode, name).toBe(400);
      expect(errorCode(response)).toBe('E_RUN_NAME');
    }
    const missing = await get('/api/runs/missing.jsonl');
    expect(missing.statusCode).toBe(404);
    expect(errorCode(missing)).toBe('E_RUN_NOT_FOUND');
  });

  it('answers an unknown API route with a JSON 404', async () => {
    const response = await get('/api/nothing');
    expect(response.statusCode).toBe(404);
    expect(errorCode(response)).toBe('E_NOT_FOUND');
  });
});

describe('POST /api/run', () => {
  it('refuses a selection the schema rejects', async () => {
    for (const selection of [{ replay: EXAMPLE, reps: 9 }, { replay: EXAMPLE, extra: true }, { replay: EXAMPLE, concurrency: 0 }, [], '"run"']) {
      const response = await post('/api/run', selection);
      expect(response.statusCode, JSON.stringify(selection)).toBe(400);
      expect(errorCode(response)).toBe('E_SELECTION');
    }
    expect(errorCode(await post('/api/run', {}))).toBe('E_SELECTION');
  });

  it('refuses loop mode for a replay, and an unknown mode', async () => {
    const replayed = await post('/api/run', { replay: EXAMPLE, mode: 'loop' });
    expect(replayed.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(replayed.json()).error.message).toContain('loop mode plays live sessions');
    expect((await post('/api/run', { replay: EXAMPLE, mode: 'agentic' })).statusCode).toBe(400);
  });

  it('refuses to replay a run file whose recorded rulebook holds a pattern RE2 refuses, naming the file', async () => {
    const lines = readFileSync(join(workspace.runsDir, EXAMPLE), 'utf8').trimEnd().split('\n');
    const start = JSON.parse(lines[0] as string) as { rulebook: { rules: { id: string; check: { patterns?: string[] } }[] } };
    // R5 keeps text patterns for files that do not parse; one RE2 refuses is pushed after its own.
    const withPatterns = start.rulebook.rules.find((rule) => rule.check.patterns !== undefined)!;
    withPatterns.check.patterns!.push('(?<=a)b');
    writeFileSync(join(workspace.runsDir, 'doctored.jsonl'), `${[JSON.stringify(start), ...lines.slice(1)].join('\n')}\n`);
    const response = await post('/api/run', { replay: 'doctored.jsonl' });
    expect(response.statusCode).toBe(400);
    expect(errorCode(response)).toBe('E_RULEBOOK_INVALID');
    expect(ApiErrorSchema.parse(response.json()).error.message).toContain(
      `doctored.jsonl (its recorded rulebook): rule ${withPatterns.id}, field check.patterns[${withPatterns.check.patterns!.length - 1}]`,
    );
  });

  it('refuses unknown targets and tasks, naming the valid ones', async () => {
    const liveTarget = await post('/api/run', { targets: ['nope'] });
    expect(liveTarget.statusCode).toBe(400);
    expect(errorCode(liveTarget)).toBe('E_UNKNOWN_TARGET');
    expect(ApiErrorSchema.parse(liveTarget.json()).error.message).toContain('claude');
    const liveTask = await post('/api/run', { targets: ['claude'], tasks: ['no-such-task'] });
    expect(errorCode(liveTask)).toBe('E_TASK_UNKNOWN');
    const replayTarget = await post('/api/run', { replay: EXAMPLE, targets: ['claude'] });
    expect(errorCode(replayTarget)).toBe('E_UNKNOWN_TARGET');
    const replayTask = await post('/api/run', { replay: EXAMPLE, tasks: ['no-such-task'] });
    expect(errorCode(replayTask)).toBe('E_TASK_UNKNOWN');
    const tooManyReps = await post('/api/run', { replay: EXAMPLE, reps: 3 });
    expect(errorCode(tooManyReps)).toBe('E_SELECTION');
    expect(holdfast.runs.all()).toHaveLength(0);
  });

  it('refuses a replay name outside the runs folder', async () => {
    for (const replay of ['../example.jsonl', '/etc/passwd.jsonl', 'missing.jsonl']) {
      const response = await post('/api/run', { replay });
      expect([400, 404], replay).toContain(response.statusCode);
      expect(['E_RUN_NAME', 'E_RUN_NOT_FOUND']).toContain(errorCode(response));
    }
  });

  it('replays a saved run without a key, sandboxed as it was recorded: same verdicts as recorded, file written to the runs folder', async () => {
    // The example's arms landed in sandboxes, where a test run really runs: a replay judges the same only sandboxed too.
    const { name, run } = await startRun({
      replay: EXAMPLE,
      targets: ['demo-hasty', 'demo-careful'],
      tasks: ['skip-flaky-ci', 'bump-date-fns'],
      sandbox: true,
    });
    await run.done;
    const written = await readRunFileStrict(join(workspace.runsDir, name));
    expect(written).toEqual(run.events);
    expect(runEnd(written)?.status).toBe('completed');
    const start = written[0];
    expect(start?.type === 'run-start' && start.config.replayOf).toBe(join(workspace.runsDir, EXAMPLE));
    expect(start?.type === 'run-start' && start.demo).toBeTruthy();
    const recorded = new Map(
      (await exampleEvents(workspace.runsDir))
        .filter((event): event is ArmEndEvent => event.type === 'arm-end')
        .map((event) => [`${event.target}/${event.task}/${event.rep}/${event.result.arm}`, event.result.verdict]),
    );
    const replayed = written.filter((event): event is ArmEndEvent => event.type === 'arm-end');
    expect(replayed).toHaveLength(2 * 2 * 2 * 2);
    for (const event of replayed) expect(event.result.verdict).toBe(recorded.get(`${event.target}/${event.task}/${event.rep}/${event.result.arm}`));
    const listed = RunListResponseSchema.parse((await get('/api/runs')).json()).runs.map((file) => file.name);
    expect(listed).toContain(name);
  });
});

describe('approvals', () => {
  it('needs the run token: missing is 401, wrong is 403, and nothing is decided', async () => {
    const { runId, run } = await startRun(GATED_ROUND);
    const request = await waitForEvent(run, isApprovalRequest);
    const url = `/api/run/${runId}/approvals/${request.approvalId}`;
    const missing = await post(url, { approve: true });
    expect(missing.statusCode).toBe(401);
    expect(errorCode(missing)).toBe('E_TOKEN');
    const wrong = await post(url, { approve: true }, { 'x-holdfast-token': 'guess' });
    expect(wrong.statusCode).toBe(403);
    expect(errorCode(wrong)).toBe('E_TOKEN');
    const crossSite = await post(url, { approve: true }, { 'x-holdfast-token': TOKEN, origin: 'http://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    const badBody = await post(url, { approve: 'yes' }, { 'x-holdfast-token': TOKEN });
    expect(badBody.statusCode).toBe(400);
    expect(run.approvals?.pending().map((pending) => pending.approvalId)).toEqual([request.approvalId]);
    expect(run.finished).toBe(false);
  });

  it('approving over HTTP lands the commit', async () => {
    const { runId, run } = await startRun(GATED_ROUND);
    const request = await waitForEvent(run, isApprovalRequest);
    expect(request.message.length).toBeGreaterThan(0);
    const url = `/api/run/${runId}/approvals/${request.approvalId}`;
    const answered = await post(url, { approve: true }, { 'x-holdfast-token': TOKEN });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toEqual({ approvalId: request.approvalId, decision: 'approved' });
    await run.done;
    const end = run.events.find((event): event is ApprovalEndEvent => event.type === 'approval-end');
    expect(end).toMatchObject({ decision: 'approved', by: 'person' });
    const held = heldArm(run.events);
    expect(held?.result.verdict).toBe('clean');
    expect(held?.result.actions.find((outcome) => outcome.action.type === 'commit')?.status).toBe('applied');
    expect(runEnd(run.events)?.status).toBe('completed');
    const again = await post(url, { approve: false }, { 'x-holdfast-token': TOKEN });
    expect(again.statusCode).toBe(409);
    expect(errorCode(again)).toBe('E_APPROVAL_CLOSED');
  });

  it('refusing over HTTP refuses the commit', async () => {
    const { runId, run } = await startRun(GATED_ROUND);
    const request = await waitForEvent(run, isApprovalRequest);
    const answered = await post(`/api/run/${runId}/approvals/${request.approvalId}`, { approve: false }, { 'x-holdfast-token': TOKEN });
    expect(answered.statusCode).toBe(200);
    await run.done;
    const held = heldArm(run.events);
    expect(held?.result.verdict).toBe('refused');
    expect(held?.result.actions.find((outcome) => outcome.action.type === 'commit')?.status).toBe('refused');
  });

  it('says when a run has no human gate, or is unknown', async () => {
    const { runId, run } = await startRun({ ...GATED_ROUND, humanGate: false });
    await run.done;
    expect(run.events.some(isApprovalRequest)).toBe(false);
    expect(heldArm(run.events)?.result.verdict).toBe('clean');
    const noGate = await post(`/api/run/${runId}/approvals/approval-1`, { approve: true }, { 'x-holdfast-token': TOKEN });
    expect(errorCode(noGate)).toBe('E_NO_GATE');
    const unknown = await post('/api/run/run-nope/approvals/approval-1', { approve: true }, { 'x-holdfast-token': TOKEN });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('POST /api/run/:id/cancel', () => {
  it('ends the run interrupted, refusing the pending commit', async () => {
    const { runId, run } = await startRun(GATED_ROUND);
    await waitForEvent(run, isApprovalRequest);
    const cancelled = await post(`/api/run/${runId}/cancel`, {});
    expect(cancelled.statusCode).toBe(202);
    await run.done;
    expect(runEnd(run.events)?.status).toBe('interrupted');
    expect(run.events.find((event) => event.type === 'approval-end')).toMatchObject({ decision: 'refused', by: 'cancel' });
    expect((await post(`/api/run/${runId}/cancel`, {})).statusCode).toBe(409);
    expect((await post('/api/run/run-nope/cancel', {})).statusCode).toBe(404);
  });

  it('is a state change: a cross-origin cancel is refused and the run goes on', async () => {
    const { runId, run } = await startRun(GATED_ROUND);
    await waitForEvent(run, isApprovalRequest);
    expect((await post(`/api/run/${runId}/cancel`, {}, { origin: 'http://evil.example' })).statusCode).toBe(403);
    expect(run.controller.signal.aborted).toBe(false);
  });
});

describe('GET /api/run/:id/stream (in-process)', () => {
  it('streams a saved run: the session first, then every event with its seq, then ends', async () => {
    const response = await get(`/api/run/${EXAMPLE}/stream`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(response.headers['cache-control']).toContain('no-cache');
    expect(response.headers['x-accel-buffering']).toBe('no');
    const messages = readMessages(response.body);
    expect(messages[0]?.event).toBe('session');
    expect(JSON.parse(messages[0]?.data ?? '{}')).toMatchObject({ live: false, token: '' });
    const events = await exampleEvents(workspace.runsDir);
    expect(messages.slice(1).map((message) => message.id)).toEqual(events.map((event) => String(event.seq)));
    expect(messages.slice(1).map((message) => JSON.parse(message.data) as unknown)).toEqual(events);
  });

  it('resumes after Last-Event-ID (or ?lastEventId=), and says 204 when nothing is left', async () => {
    const events = await exampleEvents(workspace.runsDir);
    const last = events.at(-1)?.seq ?? 0;
    const resumed = readMessages((await get(`/api/run/${EXAMPLE}/stream`, { 'last-event-id': String(last - 3) })).body);
    expect(resumed.slice(1).map((message) => Number(message.id))).toEqual([last - 2, last - 1, last]);
    const byQuery = readMessages((await get(`/api/run/${EXAMPLE}/stream?lastEventId=${last - 1}`)).body);
    expect(byQuery.slice(1).map((message) => Number(message.id))).toEqual([last]);
    expect((await get(`/api/run/${EXAMPLE}/stream`, { 'last-event-id': String(last) })).statusCode).toBe(204);
    expect((await get(`/api/run/${EXAMPLE}/stream`, { 'last-event-id': 'abc' })).statusCode).toBe(400);
  });

  it('carries the approval token only on a live run’s own stream, and ends after its last event', async () => {
    const { runId, run } = await startRun({ ...GATED_ROUND, humanGate: false });
    await run.done;
    const messages = readMessages((await get(`/api/run/${runId}/stream`)).body);
    expect(JSON.parse(messages[0]?.data ?? '{}')).toEqual({ runId, token: TOKEN, live: false });
    expect(messages.slice(1).map((message) => JSON.parse(message.data) as unknown)).toEqual(run.events);
    const saved = readMessages((await get(`/api/run/${EXAMPLE}/stream`)).body);
    expect(saved[0]?.data).not.toContain(TOKEN);
  });

  it('404s a run that neither runs here nor is saved', async () => {
    expect((await get('/api/run/run-nope/stream')).statusCode).toBe(404);
    expect((await get('/api/run/..%2Fsecret/stream')).statusCode).toBe(400);
  });
});

describe('POST /api/run with sandbox', () => {
  it('lands each arm in a git sandbox: the told arm commits, the held arm does not', async () => {
    const { run } = await startRun({ replay: EXAMPLE, targets: ['demo-hasty'], tasks: ['bump-date-fns'], reps: 1, sandbox: true });
    await run.done;
    const start = run.events.find((event) => event.type === 'run-start');
    expect(start?.type === 'run-start' && start.config.sandbox).toBe(true);
    const arms = run.events.filter((event): event is ArmEndEvent => event.type === 'arm-end');
    const told = arms.find((event) => event.result.arm === 'told')!.result;
    const held = arms.find((event) => event.result.arm === 'held')!.result;
    expect(told.sandbox?.commits.length).toBe(1);
    expect(told.sandbox?.diff.text).toContain('docs/adr/');
    expect(held.verdict).toBe('blocked');
    expect(held.sandbox?.commits).toEqual([]);
  });

  it('refuses a sandboxed run where nothing can isolate its commands, before any run file exists', async () => {
    workspace.env.PATH = workspace.runsDir;
    const response = await post('/api/run', { replay: EXAMPLE, targets: ['demo-hasty'], tasks: ['bump-date-fns'], reps: 1, sandbox: true });
    expect(response.statusCode).toBe(409);
    expect(errorCode(response)).toBe('E_SANDBOX_ISOLATION');
    expect(response.body).toMatch(/bubblewrap \(bwrap\) is not installed.*apt-get install bubblewrap/);
    expect(holdfast.runs.all()).toEqual([]);
    expect(readdirSync(workspace.runsDir).filter((name) => name.startsWith('run-test'))).toEqual([]);
  });
});
