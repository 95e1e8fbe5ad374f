import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { resolveReplayTargets } from '@holdfast/lab/experiment';
import { advertiseWorker, redisOptions, roundQueueName, startRoundWorker, withReplyDelay } from '@holdfast/lab/scale';
import type { RoundWorker } from '@holdfast/lab/scale';
import { startTestRedis } from '@holdfast/lab/test-support';
import type { TestRedis } from '@holdfast/lab/test-support';
import { readRunFile } from '@holdfast/lab/store';

let redis: TestRedis;
let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
let worker: RoundWorker;
let registry: Redis;

beforeAll(async () => {
  redis = await startTestRedis();
  harness = await startWebHarness({ queue: redis.connection });
  browser = await launchChromium();
  context = browser.context;
  // A worker of this machine that replays the example run's replies, each after a moment, so rounds are seen in play.
  const { events } = await readRunFile(join(harness.runsDir, 'example.jsonl'));
  const start = events.find((event) => event.type === 'run-start');
  const targets = start?.type === 'run-start' ? start.config.targets : [];
  worker = await startRoundWorker({
    connection: redis.connection,
    workerId: 'web-w1',
    targets: async () => resolveReplayTargets(targets, events).map((target) => withReplyDelay(target, 400)),
    isolation: { kind: 'none', detail: 'not needed: plan mode runs no command' },
  });
  // A worker that was killed a minute ago: its entry stays in the registry, its heartbeat long stopped.
  registry = new Redis(redisOptions(redis.connection));
  await advertiseWorker(registry, {
    id: 'gone-quiet',
    host: 'box-b',
    pid: 1,
    targets,
    agents: [],
    isolation: 'none',
    unsafe: false,
    queues: targets.map((target) => roundQueueName(target, false)),
    concurrency: 1,
    seenAt: Date.now() - 60_000,
  });
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await worker?.close();
  registry?.disconnect();
  await redis?.stop();
});

async function startQueuedReplay(page: Page): Promise<string> {
  await page.getByTestId('selection').waitFor();
  await page.getByTestId('replay-file').selectOption('example.jsonl');
  await page.getByTestId('start-replay').click();
  await page.waitForURL(/#\/live\//);
  return decodeURIComponent(new URL(page.url()).hash.replace('#/live/', ''));
}

describe('a run the web app queues (serve --queue)', () => {
  it("shows each worker's rounds in play, the rounds it finished, and a worker whose heartbeat stopped", async () => {
    const page = await openPage(context, harness.server.url);
    await startQueuedReplay(page);
    const panel = page.getByTestId('workers');
    await panel.waitFor();

    const live = panel.locator('[data-testid="worker-row"][data-worker="web-w1"]');
    // Which round the worker plays: a link to the round while it is in play.
    const inPlay = live.locator('[data-testid="worker-playing"] button').first();
    await inPlay.waitFor();
    expect(await inPlay.getAttribute('data-round-id')).toMatch(/^demo-[a-z-]+\/[a-z-]+\/\d$/);
    expect(await live.getAttribute('data-status')).toBe('live');
    await expect(live.textContent()).resolves.toMatch(/web-w1 on .*live/);

    // Rounds done per worker climb as results come in.
    await panel.locator('[data-testid="worker-row"][data-worker="web-w1"]:not([data-done="0"])').waitFor();
    expect(Number(await live.getAttribute('data-done'))).toBeGreaterThan(0);

    const stale = panel.locator('[data-testid="worker-row"][data-worker="gone-quiet"]');
    await stale.waitFor();
    expect(await stale.getAttribute('data-status')).toBe('stale');
    await expect(stale.textContent()).resolves.toMatch(/gone-quiet on box-b.*stale: no heartbeat.*idle/);
    expect(await stale.getAttribute('data-done')).toBe('0');

    // The queued run finishes like one played here: every round's result, each from the worker.
    await page.locator('[data-testid="run-status"][data-status="completed"]').waitFor();
    await panel.locator('[data-testid="worker-row"][data-worker="web-w1"][data-done="48"]').waitFor();
    await expect(live.locator('[data-testid="worker-playing"]').textContent()).resolves.toBe('idle');
  });
});
