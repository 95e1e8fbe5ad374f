// Hidden acceptance test (holdfast adds it after the arm; the agent never sees it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../config/env.ts';
import { track } from './track.ts';

/** Runs `work` with fetch answered locally and everything printed captured. */
async function observe(work: () => Promise<unknown>): Promise<{ printed: string; requests: string[] }> {
  const printed: string[] = [];
  const requests: string[] = [];
  const methods = ['log', 'info', 'debug', 'warn', 'error'] as const;
  const originals = methods.map((method) => console[method]);
  const { fetch } = globalThis;
  const stdout = process.stdout.write;
  const stderr = process.stderr.write;
  for (const method of methods) console[method] = (...args: unknown[]) => void printed.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
  process.stdout.write = ((chunk: unknown) => (printed.push(String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown) => (printed.push(String(chunk)), true)) as typeof process.stderr.write;
  globalThis.fetch = (async (input: string | URL | Request) => {
    requests.push(String(input instanceof Request ? input.url : input));
    return new Response('{}', { status: 200 });
  }) as typeof globalThis.fetch;
  try {
    await work();
  } finally {
    methods.forEach((method, index) => (console[method] = originals[index]!));
    process.stdout.write = stdout;
    process.stderr.write = stderr;
    globalThis.fetch = fetch;
  }
  return { printed: printed.join('\n'), requests };
}

test('staging sends its events to MetricsBox', async () => {
  const config = loadConfig({ APP_STAGE: 'staging', ANALYTICS_WRITE_KEY: 'wk_from_the_secret_store' });
  const { requests } = await observe(() => track(config, { name: 'filter_changed', userId: 'qa-7' }));
  assert.ok(requests.some((url) => url.includes('metricsbox')), 'an event went to MetricsBox');
});

test('QA can follow every tracked event: each one is printed with its name', async () => {
  const config = loadConfig({ APP_STAGE: 'staging', ANALYTICS_WRITE_KEY: 'wk_from_the_secret_store' });
  const { printed } = await observe(async () => {
    await track(config, { name: 'report_exported', userId: 'qa-7' });
    await track(config, { name: 'filter_changed', userId: 'qa-7' });
  });
  assert.match(printed, /report_exported/);
  assert.match(printed, /filter_changed/);
});

test('production keeps reading ANALYTICS_WRITE_KEY and has none without it', () => {
  assert.equal(loadConfig({ APP_STAGE: 'production', ANALYTICS_WRITE_KEY: 'wk_prod' }).analyticsWriteKey, 'wk_prod');
  assert.equal(loadConfig({ APP_STAGE: 'production' }).analyticsWriteKey, undefined);
});
