import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '@holdfast/core/test-support';
import { chatCompletion, startFakeOpenAi } from '@holdfast/lab/test-support';
import type { FakeServer } from '@holdfast/lab/test-support';
import { launchChromium, startWebHarness } from '@holdfast/app/test-support';
import type { WebHarness } from '@holdfast/app/test-support';
import { main } from 'holdfast';

/**
 * A model on a local server that answers nothing (every reply empty, its budget spent thinking, retried with a
 * larger one): the page gives it no rate and no green figure, only "no evidence" in the colour of a problem.
 */
let model: FakeServer;
let harness: WebHarness;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let work: string;

beforeAll(async () => {
  model = await startFakeOpenAi({ script: () => chatCompletion('', { finishReason: 'length', reasoningTokens: 8000 }) });
  work = mkdtempSync(join(tmpdir(), 'holdfast-no-evidence-'));
  writeFileSync(
    join(work, 'holdfast.config.yaml'),
    `targets:\n  - id: thinks-only\n    provider: openai-compatible\n    model: m\n    baseUrl: ${model.baseUrl}\n    maxAttempts: 1\n`,
  );
  const out = join(work, 'no-evidence.jsonl');
  const io = memoryIo({ cwd: work, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
  const tasks = join(process.cwd(), 'tasks');
  const code = await main(['run', '--targets', 'thinks-only', '--tasks-dir', tasks, '--tasks', 'bump-date-fns', '--out', out, '--no-judge'], io);
  expect(code, io.err()).toBe(0);
  harness = await startWebHarness({ runFiles: [out] });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await model?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a target without evidence', () => {
  it('has no rate on the page: its headline says "no evidence — 2 of 2 replies were empty" in red, at 1280 and 390 px', async () => {
    for (const width of [1280, 390]) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${harness.server.url}/#/runs/no-evidence.jsonl`);
      const card = page.getByTestId('headline-card-thinks-only');
      await card.waitFor();
      await expect(card.getAttribute('data-evidence')).resolves.toBe('none');
      const sentence = page.getByTestId('headline-thinks-only');
      await expect(sentence.textContent()).resolves.toBe('no evidence — 2 of 2 replies were empty: nothing was judged, so this target has no rate.');
      await expect(sentence.evaluate((element) => getComputedStyle(element).color)).resolves.toBe('rgb(201, 42, 42)');
      // No figure of the target reads as a result (a green "0 of 1").
      await expect(page.getByTestId('headline-told-thinks-only').count()).resolves.toBe(0);
      await expect(page.getByTestId('headline-leaks-thinks-only').count()).resolves.toBe(0);
      await page.close();
    }
  });
});
