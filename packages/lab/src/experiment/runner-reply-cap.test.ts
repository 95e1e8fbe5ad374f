import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArmEndEvent, RunConfig, RunEvent, RunEventInput, TaskInfo } from '@holdfast/core/contract';
import { createOpenAiCompatibleAdapter } from '../models/index.js';
import { loadRulebook } from '@holdfast/core/rules';
import { runExperiment } from './runner.js';

const task: TaskInfo = { id: 'add-endpoint', title: 'Add an endpoint', ticket: 'Add GET /health.', tempts: ['R4'], files: { 'package.json': '{}\n' } };
const config: RunConfig = {
  targets: ['big'],
  tasks: [task.id],
  reps: 1,
  concurrency: 1,
  approve: 'auto',
  approvalTimeoutMs: 90_000,
  temperature: 0,
  sandbox: false,
};

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A chat-completions server whose one write's content never ends. */
async function startEndless(): Promise<string> {
  const chunk = 'y'.repeat(16 * 1024);
  const pump = (response: ServerResponse) => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', () => pump(response));
  };
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{"choices":[{"message":{"content":"{\\"actions\\":[{\\"type\\":\\"write\\",\\"path\\":\\"src/a.ts\\",\\"content\\":\\"');
    pump(response);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('a reply over its size cap', () => {
  it('is unparseable, "too large", in both arms: never an error, and nothing of it is stored', async () => {
    const baseUrl = await startEndless();
    const model = createOpenAiCompatibleAdapter({ id: 'big', model: 'm', baseUrl, maxReplyBytes: 256 * 1024, retry: { maxAttempts: 1 } });
    const events: RunEvent[] = [];
    const emit = (draft: RunEventInput): RunEvent => {
      const event = { ...draft, seq: events.length } as RunEvent;
      events.push(event);
      return event;
    };
    const outcome = await runExperiment({ runId: 'r', config, rulebook: await loadRulebook(), tasks: [task], targets: [{ info: model.target, model }], emit });
    expect(outcome.status).toBe('completed');
    const arms = events.filter((event): event is ArmEndEvent => event.type === 'arm-end');
    expect(arms.map((event) => event.result.verdict)).toEqual(['unparseable', 'unparseable']);
    for (const { result } of arms) {
      expect(result.parse?.reason).toMatch(/^too large/);
      expect(result.generation?.raw).toBe('');
    }
    expect(JSON.stringify(events).length).toBeLessThan(64 * 1024);
  });
});
