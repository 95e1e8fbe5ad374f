import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import inject from 'light-my-request';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiErrorSchema, RoundEventsResponseSchema, SavedRunResponseSchema } from '@holdfast/core/contract';
import type { ArmEndEvent, ArmResult, RunEvent } from '@holdfast/core/contract';
import { computeTotals, reduceRunEvents, safeParseRunFileText } from '@holdfast/lab/store';
import { createApp } from './create-app.js';
import type { HoldfastApp } from './create-app.js';
import { EXAMPLE, exampleEvents, makeWorkspace } from './test-support/fixture.js';

const HOST = '127.0.0.1:5177';

let workspace: ReturnType<typeof makeWorkspace>;
let holdfast: HoldfastApp;

beforeEach(() => {
  workspace = makeWorkspace();
  holdfast = createApp({ cwd: workspace.cwd, runsDir: workspace.runsDir, env: workspace.env, host: '127.0.0.1', port: 5177, log: () => undefined });
});

afterEach(() => workspace.cleanup());

function get(url: string, headers: Record<string, string> = {}) {
  return inject(holdfast.app, { method: 'GET', url, headers: { host: HOST, ...headers } });
}

function errorCode(response: { json: () => unknown }): string {
  return ApiErrorSchema.parse(response.json()).error.code;
}

const isArmEnd = (event: RunEvent): event is ArmEndEvent => event.type === 'arm-end';

/** What the strip, totals and tables read of an arm: the lean view must leave all of it alone. */
function judged(result: ArmResult) {
  return {
    arm: result.arm,
    verdict: result.verdict,
    reason: result.reason,
    parse: result.parse,
    checks: result.checks,
    error: result.error,
    actions: result.actions.map(({ action, ...outcome }) => ({ ...outcome, type: action.type, path: 'path' in action ? action.path : undefined })),
    usage: result.generation?.usage,
    latencyMs: result.generation?.latencyMs,
    attempts: result.generation?.attempts,
    finishReason: result.generation?.finishReason,
  };
}

/** An example arm-end given a sandbox with a diff and command output, to see both emptied. */
function withSandbox(event: ArmEndEvent, seq: number): ArmEndEvent {
  return {
    ...event,
    seq,
    result: {
      ...event.result,
      sandbox: {
        isolation: 'none',
        baseCommit: 'abc123',
        commits: [],
        diff: { text: 'diff --git a/x b/x\n+secret sauce\n', truncated: false, bytes: 33 },
        changedPaths: ['x'],
        commands: [{ index: 1, cmd: 'npm test', executed: true, exitCode: 0, output: { text: 'all 12 tests passed\n', truncated: false, bytes: 20 } }],
        refusedWrites: [],
      },
    },
  };
}

describe('GET /api/runs/:name?view=lean', () => {
  it('sends every event, arm results without their bulk, and totals equal to the full run', async () => {
    const full = await exampleEvents(workspace.runsDir);
    const response = await get(`/api/runs/${EXAMPLE}?view=lean`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(response.headers['x-holdfast-view']).toBe('lean');
    expect(response.body.length).toBeLessThan(readFileSync(join(workspace.runsDir, EXAMPLE), 'utf8').length * 0.7);

    const lean = safeParseRunFileText(response.body, EXAMPLE);
    expect(lean.problems).toEqual([]);
    expect(lean.events.map((event) => [event.seq, event.type])).toEqual(full.map((event) => [event.seq, event.type]));
    expect(lean.events.filter((event) => !isArmEnd(event))).toEqual(full.filter((event) => !isArmEnd(event)));

    const leanArms = lean.events.filter(isArmEnd);
    const fullArms = full.filter(isArmEnd);
    expect(leanArms.map((event) => judged(event.result))).toEqual(fullArms.map((event) => judged(event.result)));
    expect(fullArms.some((event) => event.result.generation !== undefined && event.result.generation.raw !== '')).toBe(true);
    expect(fullArms.some((event) => event.result.reasoning !== undefined)).toBe(true);
    for (const { result } of leanArms) {
      expect(result.reasoning).toBeUndefined();
      if (result.generation !== undefined) {
        expect(result.generation.raw).toBe('');
        expect(result.generation.reasoning).toBeUndefined();
      }
      for (const { action } of result.actions) if (action.type === 'write') expect(action.content).toBe('');
    }

    const fullTotals = computeTotals(reduceRunEvents(full));
    expect(computeTotals(reduceRunEvents(lean.events))).toEqual(fullTotals);
    expect(fullTotals.arms.some((row) => row.attempts > 0)).toBe(true);
  });

  it('empties sandbox diffs and command output, and passes unreadable lines on for the reader to report', async () => {
    const full = await exampleEvents(workspace.runsDir);
    const armEnd = full.find(isArmEnd);
    if (armEnd === undefined) throw new Error('the example has no arm-end');
    const name = 'odd.jsonl';
    const lines = [JSON.stringify(full[0]), JSON.stringify(withSandbox(armEnd, 1)), 'not json at all', '{"type":"arm-end","result":"weird"}', '{"seq":9,"torn'];
    writeFileSync(join(workspace.runsDir, name), lines.join('\n'));

    const response = await get(`/api/runs/${name}?view=lean`);
    expect(response.statusCode).toBe(200);
    const lean = safeParseRunFileText(response.body, name);
    const sandbox = lean.events.find(isArmEnd)?.result.sandbox;
    expect(sandbox?.diff).toEqual({ text: '', truncated: false, bytes: 33 });
    expect(sandbox?.commands[0]).toMatchObject({ cmd: 'npm test', exitCode: 0, output: { text: '', bytes: 20 } });
    expect(sandbox?.changedPaths).toEqual(['x']);
    const fullProblems = safeParseRunFileText(readFileSync(join(workspace.runsDir, name), 'utf8'), name).problems;
    expect(lean.problems.map(({ line, kind }) => ({ line, kind }))).toEqual(fullProblems.map(({ line, kind }) => ({ line, kind })));
    expect(lean.problems.map((problem) => problem.kind)).toEqual(['json', 'schema', 'torn']);
  });

  it('gzips the lean body for a client that accepts gzip, and only then', async () => {
    const plain = await get(`/api/runs/${EXAMPLE}?view=lean`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await get(`/api/runs/${EXAMPLE}?view=lean`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
    const refused = await get(`/api/runs/${EXAMPLE}?view=lean`, { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(plain.body);
  });

  it('answers JSON with the lean events when JSON is asked for, and refuses an unknown view', async () => {
    const response = await get(`/api/runs/${EXAMPLE}?view=lean`, { accept: 'application/json' });
    const body = SavedRunResponseSchema.parse(response.json());
    expect(body.view).toBe('lean');
    expect(body.events.filter(isArmEnd).every((event) => event.result.generation === undefined || event.result.generation.raw === '')).toBe(true);
    expect(computeTotals(reduceRunEvents(body.events))).toEqual(computeTotals(reduceRunEvents(await exampleEvents(workspace.runsDir))));

    const odd = await get(`/api/runs/${EXAMPLE}?view=skinny`);
    expect(odd.statusCode).toBe(400);
    expect(errorCode(odd)).toBe('E_VIEW');
    // The default stays the file as written.
    const plain = await get(`/api/runs/${EXAMPLE}`);
    expect(plain.body).toBe(readFileSync(join(workspace.runsDir, EXAMPLE), 'utf8'));
  });

  it('reads a file again once it has changed, and refuses what the full view refuses', async () => {
    const first = await get(`/api/runs/${EXAMPLE}?view=lean`);
    expect((await get(`/api/runs/${EXAMPLE}?view=lean`)).body).toBe(first.body);
    const extra = { seq: 9999, time: '2026-11-30T07:00:00.000Z', runId: 'x', type: 'run-end', status: 'failed', reason: 'appended later' };
    appendFileSync(join(workspace.runsDir, EXAMPLE), `${JSON.stringify(extra)}\n`);
    const second = await get(`/api/runs/${EXAMPLE}?view=lean`);
    expect(second.body).toBe(`${first.body}${JSON.stringify(extra)}\n`);

    for (const name of ['..%2F..%2Fpackage.json', '..%2Fexample.jsonl', 'a%5Cb.jsonl', '.hidden.jsonl']) {
      const response = await get(`/api/runs/${name}?view=lean`);
      expect(response.statusCode, name).toBe(400);
      expect(errorCode(response)).toBe('E_RUN_NAME');
    }
    const missing = await get('/api/runs/missing.jsonl?view=lean');
    expect(missing.statusCode).toBe(404);
    expect(errorCode(missing)).toBe('E_RUN_NOT_FOUND');
    const foreign = await get(`/api/runs/${EXAMPLE}?view=lean`, { host: 'evil.example:5177' });
    expect(foreign.statusCode).toBe(403);
    expect(errorCode(foreign)).toBe('E_HOST');
  });
});

describe('GET /api/runs/:name/rounds/:roundId', () => {
  it('sends every event of the round in full, approvals included', async () => {
    const full = await exampleEvents(workspace.runsDir);
    const approval = full.find((event) => event.type === 'approval-request');
    if (approval?.type !== 'approval-request') throw new Error('the example has no approval');
    const roundId = approval.roundId;
    const expected = full.filter((event) => 'roundId' in event && event.roundId === roundId);
    expect(expected.map((event) => event.type)).toEqual(expect.arrayContaining(['round-start', 'approval-request', 'approval-end', 'arm-end']));

    const response = await get(`/api/runs/${EXAMPLE}/rounds/${encodeURIComponent(roundId)}`);
    expect(response.statusCode, response.body).toBe(200);
    const { events } = RoundEventsResponseSchema.parse(response.json());
    expect(events).toEqual(expected);
    expect(
      events
        .filter(isArmEnd)
        .some((event) => event.result.generation?.raw !== '' && event.result.actions.some(({ action }) => action.type === 'write' && action.content !== '')),
    ).toBe(true);

    // After a lean open (which builds the same index), the round is still read in full.
    await get(`/api/runs/${EXAMPLE}?view=lean`);
    const again = RoundEventsResponseSchema.parse((await get(`/api/runs/${EXAMPLE}/rounds/${encodeURIComponent(roundId)}`)).json());
    expect(again.events).toEqual(expected);
  });

  it('finds a round again after its file was rewritten in place', async () => {
    const full = await exampleEvents(workspace.runsDir);
    const round = full.find((event) => event.type === 'round-start');
    if (round?.type !== 'round-start') throw new Error('the example has no round');
    const url = `/api/runs/${EXAMPLE}/rounds/${encodeURIComponent(round.roundId)}`;
    expect((await get(url)).statusCode).toBe(200);
    // The same rounds with a longer first line: every byte offset moves.
    const [start, ...rest] = full;
    writeFileSync(
      join(workspace.runsDir, EXAMPLE),
      `${[{ ...start, time: `${start?.time ?? ''}   ` }, ...rest].map((event) => JSON.stringify(event)).join('\n')}\n`,
    );
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(RoundEventsResponseSchema.parse(response.json()).events).toEqual(full.filter((event) => 'roundId' in event && event.roundId === round.roundId));
  });

  it('refuses bad run names, traversal and odd round ids, other hosts, and 404s an unknown round', async () => {
    const roundId = encodeURIComponent('demo-careful/bump-date-fns/0');
    for (const name of ['..%2F..%2Fpackage.json', '..%2Fexample.jsonl', '%2Fetc%2Fpasswd.jsonl', '.hidden.jsonl']) {
      const response = await get(`/api/runs/${name}/rounds/${roundId}`);
      expect(response.statusCode, name).toBe(400);
      expect(errorCode(response)).toBe('E_RUN_NAME');
    }
    for (const bad of ['a%2F..', 'a%2F.%2F0', '..%2F..%2Fetc%2Fpasswd', 'demo-careful%2F..%2F0', 'a%5Cb', 'a%2F%2Fb', '%2Fabs', 'a%00b', 'x'.repeat(600)]) {
      const response = await get(`/api/runs/${EXAMPLE}/rounds/${bad}`);
      expect(response.statusCode, bad).toBe(400);
      expect(errorCode(response)).toBe('E_ROUND_ID');
    }
    const unknown = await get(`/api/runs/${EXAMPLE}/rounds/${encodeURIComponent('nobody/nothing/0')}`);
    expect(unknown.statusCode).toBe(404);
    expect(errorCode(unknown)).toBe('E_ROUND_NOT_FOUND');
    const missing = await get(`/api/runs/missing.jsonl/rounds/${roundId}`);
    expect(missing.statusCode).toBe(404);
    expect(errorCode(missing)).toBe('E_RUN_NOT_FOUND');
    // Unencoded slashes are other paths, not a round id.
    expect(errorCode(await get(`/api/runs/${EXAMPLE}/rounds/demo-careful/bump-date-fns/0`))).toBe('E_NOT_FOUND');
    const foreign = await get(`/api/runs/${EXAMPLE}/rounds/${roundId}`, { host: 'evil.example:5177' });
    expect(foreign.statusCode).toBe(403);
    expect(errorCode(foreign)).toBe('E_HOST');
  });
});

describe('a reply stored once for both arms of a round', () => {
  it('comes back whole in the round view and the full view', async () => {
    const { openRunFile } = await import('@holdfast/lab/store');
    const full = await exampleEvents(workspace.runsDir);
    const round = full.find(isArmEnd);
    if (round === undefined) throw new Error('the example has no arm-end');
    const raw = `${round.result.generation?.raw ?? ''} the same reply in both arms`;
    const writer = openRunFile(join(workspace.runsDir, 'shared.jsonl'));
    try {
      for (const event of full) {
        const { seq: _seq, ...draft } = event;
        const shared = event.type === 'arm-end' && event.roundId === round.roundId && event.result.generation !== undefined;
        writer.append(
          (shared ? { ...draft, result: { ...event.result, generation: { ...event.result.generation!, raw } } } : draft) as Parameters<typeof writer.append>[0],
        );
      }
    } finally {
      writer.close();
    }
    expect(readFileSync(join(workspace.runsDir, 'shared.jsonl'), 'utf8')).toContain('"rawSameAs":"told"');
    const response = await get(`/api/runs/shared.jsonl/rounds/${encodeURIComponent(round.roundId)}`);
    expect(response.statusCode, response.body).toBe(200);
    const arms = RoundEventsResponseSchema.parse(response.json()).events.filter(isArmEnd);
    expect(arms.map((event) => event.result.generation?.raw)).toEqual([raw, raw]);
    expect(arms.every((event) => event.result.generation?.rawSameAs === undefined)).toBe(true);
    const whole = safeParseRunFileText((await get('/api/runs/shared.jsonl')).body, 'shared.jsonl');
    expect(
      whole.events
        .filter(isArmEnd)
        .filter((event) => event.roundId === round.roundId)
        .map((event) => event.result.generation?.raw),
    ).toEqual([raw, raw]);
  });
});
